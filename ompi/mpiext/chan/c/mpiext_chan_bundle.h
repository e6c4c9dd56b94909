/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Bundles (MPIX_Bundle_init) and persistent generalized requests
 * (MPIX_Grequest_persistent_init): internal state.  ../README-design.md
 * ("Bundles") says where each part lives and why.
 */

#ifndef MPIEXT_CHAN_BUNDLE_H
#define MPIEXT_CHAN_BUNDLE_H

#include "ompi_config.h"

#include "mpi.h"
#include "opal/class/opal_list.h"
#include "ompi/communicator/communicator.h"
#include "ompi/request/request.h"

#include "mpiext_chan_c.h"

BEGIN_C_DECLS

/* Something the progress callback polls while it is active (a started
 * bundle or persistent generalized request); poll is true when it is done
 * (the callback then completes it). */
typedef struct ompix_bundle_active_t {
    opal_list_item_t super;
    bool (*poll)(struct ompix_bundle_active_t *a);
    /* After the last poll: completes the request, or releases it when
     * MPI_Request_free came while it was active (freed). */
    void (*done)(struct ompix_bundle_active_t *a, bool freed);
    ompi_request_t *req;
    bool in_progress;              /* on the active list (or being polled): global lock */
    bool freed;                    /* MPI_Request_free while active: global lock */
    bool polling;                  /* claimed by a progress call: global lock */
} ompix_bundle_active_t;
OBJ_CLASS_DECLARATION(ompix_bundle_active_t);

/* A member: its own functions, which only the bundle calls while it holds
 * the member (the request carries refusing ones meanwhile). */
typedef struct ompix_bundle_member_t {
    ompi_request_t *req;
    ompi_request_start_fn_t start;
    ompi_request_free_fn_t free;
    ompi_request_cancel_fn_t cancel;
    int32_t type;                  /* its req_type (a NOOP one reads PML while bundled) */
    int dir;                       /* ompix_chan_request_dir: receives start first */
    int rc;                        /* what its start returned, when that failed */
    bool noop;                     /* to MPI_PROC_NULL: never started, complete at once */
    bool ob1_send;                 /* a send of pml ob1 (see ompix_bundle_member_start) */
    bool failed;                   /* its start failed this round */
} ompix_bundle_member_t;

typedef struct ompix_bundle_t {
    ompi_request_t super;
    ompix_bundle_active_t active;
    int nrounds;
    int *round_end;                /* round r is members [round_end[r-1], round_end[r]) */
    ompix_bundle_member_t *members;
    int round;                     /* the round running */
    int next;                      /* its first member not yet seen complete */
    int error;                     /* MPI_ERROR of the first failed member */
    ompi_communicator_t *error_comm;
    /* The engine path (mpiext_chan_bundle_engine.c), NULL chans otherwise. */
    ompi_request_t **chans;        /* the channels, round by round, in start order */
    int *chan_end;                 /* round r's are chans [chan_end[r-1], chan_end[r]) */
    int32_t left;                  /* channels of the running round not yet complete */
    int32_t engine_state;          /* OMPIX_BUNDLE_ENGINE_*: running, freed meanwhile */
    bool mt;                       /* with threads: both atomic, a reference while running */
    bool yield;                    /* its Wait yields (threads, or oversubscribed) */
    ompi_request_complete_fn_t member_done; /* the channels' callback (b->mt's or not) */
} ompix_bundle_t;
OBJ_CLASS_DECLARATION(ompix_bundle_t);

typedef struct ompix_bundle_greq_t {
    ompi_request_t super;
    ompix_bundle_active_t active;
    MPIX_Grequest_start_function *start_fn;
    MPIX_Grequest_poll_function *poll_fn;
    MPI_Grequest_free_function *free_fn;
    void *extra_state;
} ompix_bundle_greq_t;
OBJ_CLASS_DECLARATION(ompix_bundle_greq_t);

/* mpiext_chan_bundle_progress.c */
void ompix_bundle_activate(ompix_bundle_active_t *a);
void ompix_bundle_launch(ompix_bundle_active_t *a);
bool ompix_bundle_mark_freed(ompi_request_t **req, ompix_bundle_active_t *a);
void ompix_bundle_request_reset(ompi_request_t *req);
int ompix_bundle_refuse_cancel(ompi_request_t *req, int flag);
int ompix_bundle_start_each(size_t count, ompi_request_t **reqs, int (*one)(ompi_request_t *req),
                            const void *caller);

/* mpiext_chan_bundle_member.c */
int ompix_bundle_members_take(ompix_bundle_t *b, int n, MPI_Request members[], const char *func);
void ompix_bundle_members_restore(ompix_bundle_t *b, int n);
bool ompix_bundle_member_taken(const ompi_request_t *req);
void ompix_bundle_member_start(ompix_bundle_member_t *m);
void ompix_bundle_members_order(ompix_bundle_t *b);
bool ompix_bundle_member_done(ompix_bundle_t *b, ompix_bundle_member_t *m);

/* mpiext_chan_bundle.c */
int ompix_bundle_create(int nrounds, const int round_sizes[], MPI_Request members[],
                        MPI_Request *bundle, const char *func);
int ompix_bundle_check_args(int nrounds, const int round_sizes[], MPI_Request members[],
                            MPI_Info info, MPI_Request *bundle, const char *func);

void ompix_bundle_release(ompix_bundle_t *b);
void ompix_bundle_finish(ompix_bundle_t *b, bool freed);
int ompix_bundle_reset(ompix_bundle_t *b);

/* mpiext_chan_bundle_engine.c */
void ompix_bundle_engine_choose(ompix_bundle_t *b);
int ompix_bundle_engine_start(size_t count, ompi_request_t **reqs);
void ompix_bundle_engine_wait(ompi_request_t *req);
bool ompix_bundle_engine_free(ompix_bundle_t *b);

/* A bundle on the engine path (its req_start). */
static inline bool ompix_bundle_engine_is(const ompi_request_t *req)
{
    return ompix_bundle_engine_start == req->req_start;
}

/* mpiext_chan_grequest.c */
int ompix_bundle_greq_create(MPIX_Grequest_start_function *start_fn,
                             MPIX_Grequest_poll_function *poll_fn,
                             MPI_Grequest_free_function *free_fn, void *extra_state,
                             MPI_Request *request);

/* mpiext_chan_describe.c: -1 a receive, 1 a send, 0 neither or unknown;
 * *ob1_send when it is a send of pml ob1. */
int ompix_chan_request_dir(ompi_request_t *req, bool *ob1_send);

END_C_DECLS

#endif /* MPIEXT_CHAN_BUNDLE_H */
