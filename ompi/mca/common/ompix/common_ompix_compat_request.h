/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: a persistent request that may be started again while
 * active (a channel with slack K: up to K starts outstanding, each
 * Wait/Test reporting the oldest).  Its code keeps the request armed
 * (OMPI_REQUEST_ACTIVE) for the oldest outstanding start, as Open MPI's
 * Wait/Test expect.  4.1's MPI_Start/MPI_Startall check only that a
 * request is persistent, so that is all.  5.0's refuse a request that is
 * not OMPI_REQUEST_INACTIVE (MPI_Startall always, MPI_Start with parameter
 * checks on), before its req_start runs.  So on 5.0 an armed request
 * with room for another start is parked between MPI calls: shown
 * INACTIVE, its `show` saying it is armed; armed without room it shows
 * ACTIVE, and 5.0's check refuses the (K+1)-th start, once, as
 * MPI_ERR_REQUEST.  The request's own code reads its state through
 * mca_common_ompix_request_state, arms it through _arm, and Wait/Test
 * wrappers hold it (shown armed, so Open MPI's Wait/Test see it ACTIVE)
 * before Open MPI's functions look at it and release it after (parked
 * again if armed with room).  MPI_Request_get_status, which no layer
 * wraps, sees a parked request inactive (README's version matrix): this
 * can not be helped, 5.0.7's ompi/mpi/c/request_get_status.c answers
 * "complete, empty status" at line 70 for a req_state of
 * OMPI_REQUEST_INACTIVE before any component code runs, and startall.c
 * (line 91) starts nothing but OMPI_REQUEST_INACTIVE: one req_state can
 * not satisfy both between calls.
 * Progress on another thread arms a held request ACTIVE, never parks it,
 * so a Wait in progress does not see it go inactive; and it parks an
 * unheld one with room as the user's last call left it, so a concurrent
 * MPI_Start is never refused for want of room.  A request another layer
 * holds (_own) is never parked: the layer's rules decide.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_REQUEST_H
#define MCA_COMMON_OMPIX_COMPAT_REQUEST_H

#include <dlfcn.h>
#include <string.h>

#include "ompi/mca/common/ompix/common_ompix_compat_errhandler.h"
#include "ompi/mca/common/ompix/common_ompix_compat_series.h"
#include "ompi/mca/common/ompix/common_ompix_registry.h"
#include "ompi/mca/common/ompix/common_ompix_request.h"
#include "ompi/request/request.h"

/* Whether requests park on this series: Wait/Test wrappers hold and
 * release only where they do (a constant: nothing to test on 4.1). */
#if OMPIX_OMPI_SERIES >= 50
#define MCA_COMMON_OMPIX_REQUEST_PARKS 1
#else
#define MCA_COMMON_OMPIX_REQUEST_PARKS 0
#endif

/* How such a request's req_state is shown (one per request, beside it). */
typedef enum {
    MCA_COMMON_OMPIX_REQUEST_PLAIN = 0, /* req_state is its state */
    MCA_COMMON_OMPIX_REQUEST_PARKED,    /* armed, shown INACTIVE (5.0 only) */
    MCA_COMMON_OMPIX_REQUEST_HELD       /* inside Wait/Test: never parked */
} mca_common_ompix_request_show_t;

/* Whether the request's code may park it now: only its own rules apply
 * (its req_start is start, no completion callback on it, no layer starting
 * it: a persistent continuation or a bundle allows one start at a time and
 * consumes completions itself).  4.1: never asked (constant false). */
static inline bool mca_common_ompix_request_own(const ompi_request_t *r,
                                                ompi_request_start_fn_t start)
{
#if OMPIX_OMPI_SERIES >= 50
    return start == r->req_start && NULL == r->req_complete_cb &&
           !mca_common_ompix_request_layered(r);
#else
    (void) r;
    (void) start;
    return false;
#endif
}

/* The request's own state: a parked request is armed. */
static inline ompi_request_state_t
mca_common_ompix_request_state(const ompi_request_t *r, mca_common_ompix_request_show_t show)
{
#if OMPIX_OMPI_SERIES >= 50
    return MCA_COMMON_OMPIX_REQUEST_PARKED == show ? OMPI_REQUEST_ACTIVE : r->req_state;
#else
    (void) show;
    return r->req_state;
#endif
}

/* Arms the request for its oldest outstanding start; room: another start
 * is legal now. */
static inline void mca_common_ompix_request_arm(ompi_request_t *r,
                                                mca_common_ompix_request_show_t *show, bool room)
{
#if OMPIX_OMPI_SERIES >= 50
    if (room && MCA_COMMON_OMPIX_REQUEST_HELD != *show) {
        *show = MCA_COMMON_OMPIX_REQUEST_PARKED;
        r->req_state = OMPI_REQUEST_INACTIVE;
        return;
    }
    if (MCA_COMMON_OMPIX_REQUEST_PARKED == *show) {
        *show = MCA_COMMON_OMPIX_REQUEST_PLAIN;
    }
#else
    (void) show;
    (void) room;
#endif
    r->req_state = OMPI_REQUEST_ACTIVE;
}

/* _arm for a request that was not parked (its own state was INACTIVE:
 * an idle start), without the test of a parked show: one compare and
 * branch less in the channels' fast starts. */
static inline void mca_common_ompix_request_arm_idle(ompi_request_t *r,
                                                     mca_common_ompix_request_show_t *show,
                                                     bool room)
{
#if OMPIX_OMPI_SERIES >= 50
    if (room && MCA_COMMON_OMPIX_REQUEST_HELD != *show) {
        *show = MCA_COMMON_OMPIX_REQUEST_PARKED;
        r->req_state = OMPI_REQUEST_INACTIVE;
        return;
    }
#else
    (void) show;
    (void) room;
#endif
    r->req_state = OMPI_REQUEST_ACTIVE;
}

/* After a start or a consumption changed its room: an armed request
 * parked or shown ACTIVE again (4.1: it stays ACTIVE). */
static inline void mca_common_ompix_request_reshow(ompi_request_t *r,
                                                   mca_common_ompix_request_show_t *show,
                                                   bool room)
{
#if OMPIX_OMPI_SERIES >= 50
    if (OMPI_REQUEST_ACTIVE == mca_common_ompix_request_state(r, *show)) {
        mca_common_ompix_request_arm(r, show, room);
    }
#else
    (void) r;
    (void) show;
    (void) room;
#endif
}

/* Wait/Test wrappers, before Open MPI's functions see the request. */
static inline void mca_common_ompix_request_hold(ompi_request_t *r,
                                                 mca_common_ompix_request_show_t *show)
{
#if OMPIX_OMPI_SERIES >= 50
    if (MCA_COMMON_OMPIX_REQUEST_PARKED == *show) {
        r->req_state = OMPI_REQUEST_ACTIVE;
    }
    *show = MCA_COMMON_OMPIX_REQUEST_HELD;
#else
    (void) r;
    (void) show;
#endif
}

/* After them (and after the request presented its next start). */
static inline void mca_common_ompix_request_release(ompi_request_t *r,
                                                    mca_common_ompix_request_show_t *show,
                                                    bool room)
{
#if OMPIX_OMPI_SERIES >= 50
    /* Not held (a settling outside Wait/Test: an unbind's): as it is. */
    if (MCA_COMMON_OMPIX_REQUEST_HELD == *show) {
        *show = MCA_COMMON_OMPIX_REQUEST_PLAIN;
        mca_common_ompix_request_reshow(r, show, room);
    }
#else
    (void) r;
    (void) show;
    (void) room;
#endif
}

/* Another layer that looks at a request's state between the user's calls
 * (the continue extension's MPIX_Continue, whose rules differ for an
 * active and an inactive persistent request) would see a parked request
 * inactive.  The code that parks publishes this table in common/ompix's
 * registry (the chan extension, for its channels: mpiext_chan_wait.c):
 * hold() before the look shows the request armed (and settles a start
 * another layer consumed), release() after parks it again if it still has
 * room (not while it carries that layer's completion callback).  Any
 * request may be passed: others are left alone.  5.0 only (4.1 parks
 * nothing); a registry lookup per call, on the persistent path only. */
#define MCA_COMMON_OMPIX_REQUEST_SHOW_NAME "ompix/request-show"
#define MCA_COMMON_OMPIX_REQUEST_SHOW_VERSION 1u

typedef struct mca_common_ompix_request_show_api_t {
    void (*hold)(ompi_request_t *r);
    void (*release)(ompi_request_t *r);
} mca_common_ompix_request_show_api_t;

static inline void mca_common_ompix_request_show_hold(ompi_request_t *r)
{
#if OMPIX_OMPI_SERIES >= 50
    const mca_common_ompix_request_show_api_t *api =
        mca_common_ompix_registry_lookup(MCA_COMMON_OMPIX_REQUEST_SHOW_NAME,
                                         MCA_COMMON_OMPIX_REQUEST_SHOW_VERSION);

    if (NULL != api && MPI_REQUEST_NULL != r && NULL != r) {
        api->hold(r);
    }
#else
    (void) r;
#endif
}

/* release() of each request still in the array (live: a request the
 * layer freed is MPI_REQUEST_NULL there). */
static inline void mca_common_ompix_request_show_release(int count, ompi_request_t **reqs)
{
#if OMPIX_OMPI_SERIES >= 50
    const mca_common_ompix_request_show_api_t *api =
        mca_common_ompix_registry_lookup(MCA_COMMON_OMPIX_REQUEST_SHOW_NAME,
                                         MCA_COMMON_OMPIX_REQUEST_SHOW_VERSION);

    for (int i = 0; NULL != api && NULL != reqs && i < count; ++i) {
        if (NULL != reqs[i] && MPI_REQUEST_NULL != reqs[i]) {
            api->release(reqs[i]);
        }
    }
#else
    (void) count;
    (void) reqs;
#endif
}

/* A request every start of which is erroneous for now (a bundle's member,
 * whose req_start refuses): 5.0 shows it ACTIVE, so that its MPI_Start
 * and MPI_Startall refuse it themselves, once (a req_start of count 1 can
 * not tell MPI_Start, which reports its error, from MPI_Startall, which
 * drops it).  Its holder shows it INACTIVE again (_unrefuse) before it
 * starts it with the request's own req_start and when it lets it go.
 * 4.1: MPI_Start/MPI_Startall call the req_start, which reports. */
static inline void mca_common_ompix_request_refuse(ompi_request_t *r)
{
#if OMPIX_OMPI_SERIES >= 50
    r->req_state = OMPI_REQUEST_ACTIVE;
#else
    (void) r;
#endif
}

static inline void mca_common_ompix_request_unrefuse(ompi_request_t *r)
{
#if OMPIX_OMPI_SERIES >= 50
    r->req_state = OMPI_REQUEST_INACTIVE;
#else
    (void) r;
#endif
}

/* A req_start's error, reported once.  5.0's MPI_Start raises what its
 * req_start returns (ompi/mpi/c/start.c, OMPI_ERRHANDLER_NOHANDLE_RETURN
 * after the req_start call); 4.1's returns it unreported, and MPI_Startall
 * drops it in both (startall.c calls start_fn and returns success).  A
 * req_start of count 1 can not tell MPI_Start from an MPI_Startall of one
 * request by its arguments, so it passes its return address
 * (MCA_COMMON_OMPIX_REQUEST_CALLER(), in the req_start itself, never in a
 * function it calls): the function libmpi's dynamic symbols name there
 * (PMPI_Start, whose weak alias is MPI_Start, or PMPI_Startall) is the
 * one that called it.  Error paths only (one dladdr). */
#define MCA_COMMON_OMPIX_REQUEST_CALLER() __builtin_return_address(0)

/* Which of MPI_Start and MPI_Startall called the req_start whose return
 * address is caller: that name, or NULL (another layer: a bundle, a
 * continuation, a program built without libmpi's symbols). */
static inline const char *mca_common_ompix_request_starter(const void *caller)
{
    Dl_info info;
    const char *name;

    if (NULL == caller || 0 == dladdr(caller, &info) || NULL == info.dli_sname) {
        return NULL;
    }
    name = info.dli_sname + ('P' == info.dli_sname[0]);
    if (0 == strcmp(name, "MPI_Start")) {
        return "MPI_Start";
    }
    return 0 == strcmp(name, "MPI_Startall") ? "MPI_Startall" : NULL;
}

/* A req_start's error rc on comm (NULL: where errors tied to no object
 * go): left to the caller where it reports it (5.0's MPI_Start), else
 * reported here with `why` after the caller's name; returns rc's MPI
 * code. */
static inline int mca_common_ompix_request_start_error(ompi_communicator_t *comm, int rc,
                                                       const void *caller, const char *why)
{
    const char *starter = mca_common_ompix_request_starter(caller);
    char msg[MPI_MAX_ERROR_STRING];

#if OMPIX_OMPI_SERIES >= 50
    if (NULL != starter && 0 == strcmp(starter, "MPI_Start")) {
        return ompi_errcode_get_mpi_code(rc);
    }
#endif
    snprintf(msg, sizeof(msg), "%s: %s", NULL != starter ? starter : "MPI_Start", why);
    if (NULL == comm) {
        return mca_common_ompix_errhandler_nohandle(rc, msg);
    }
    return OMPI_ERRHANDLER_INVOKE(comm, rc, msg);
}

#endif /* MCA_COMMON_OMPIX_COMPAT_REQUEST_H */
