/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What pml/chan offers to the channel extension (ompi/mpiext/chan), through
 * common/ompix's registry (ompi/mca/common/ompix/common_ompix_registry.h).
 * The extension owns the API, the bind protocol (matching, wildcards,
 * sizes, slack, multi-bind) and the generic fallback; pml/chan owns two
 * things the extension can not do itself:
 *
 *   describe  - what a persistent point-to-point request was created with.
 *               pml/chan records it when the selected PML's isend_init /
 *               irecv_init run (it wraps those two entries of mca_pml, no
 *               other: ordinary messages pay nothing).  pml ucx keeps no
 *               communicator or destination rank in its persistent
 *               requests, so this is the only way that works under every
 *               PML.
 *   the engine - a channel end over pml/chan's own UCX worker (shared
 *               memory ring reached with ucp_rkey_ptr, or put + fence +
 *               flag).  NULL entries when the engine is off
 *               (pml_chan_enable 0): the extension then runs every channel
 *               on its fallback.
 *
 * Bind, as the extension runs it for one matched pair (both ends):
 *   1. each end calls prepare() with the agreed spec; it returns the end's
 *      half and a blob (at most MCA_PML_CHAN_BLOB_MAX bytes) to send to the
 *      peer, or *len = 0 when the engine can not serve this end (the pair
 *      then uses the fallback; an end whose peer sent len 0 calls
 *      abandon());
 *   2. the ends exchange blobs (the extension's control messages);
 *   3. each end calls connect() with the peer's blob and gets the channel
 *      request.
 * prepare() and connect() never wait for the peer, so nonblocking and
 * multi-bind stay deadlock-free whatever the order of the pairs.
 *
 * The channel request is an ompi_request_t with its own req_start,
 * req_free and req_cancel (MPI_Start/MPI_Wait need no PML hook): persistent,
 * inactive after connect, completed with ompi_request_complete() so that
 * Wait/Test and continuations work; its req_free and req_cancel refuse
 * (MPI_ERR_REQUEST) unless the extension called unbind().
 *
 * Slack > 1: Open MPI's Wait/Test make a completed persistent request
 * inactive and never look at it again, so the extension's wrappers of
 * ompi_request_functions call settle() on every engine channel (told apart
 * by req_start == start, a pointer compare) after Wait/Test returned: it
 * presents the next outstanding start (active; complete if done).
 *
 * Wait/Test without a sweep of every progress callback: Open MPI's
 * Wait/Test find a channel's completion only through opal_progress, which
 * also runs the selected PML's progress (under pml ucx its worker's) on
 * every poll.  The extension's wrappers call poll() (Test) or wait() (Wait)
 * on an engine channel first: they look at the end itself (on the shared
 * memory path one acquire load of the awaited slot's sequence word) and
 * complete the request there, callbacks included; wait() calls
 * opal_progress once every MCA_PML_CHAN_POLLS_PER_PROGRESS looks, so other
 * traffic still progresses.  The original Wait/Test then find the request
 * complete and report it as usual.
 *
 * Bump the version on every change of this file's types.
 */
#ifndef MCA_PML_CHAN_API_H
#define MCA_PML_CHAN_API_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

#define MCA_PML_CHAN_API_NAME "pml/chan"
#define MCA_PML_CHAN_API_VERSION 5

#define MCA_PML_CHAN_BLOB_MAX 2048

/* Looks at channel ends per opal_progress while a Wait spins on channels
 * (wait(), and the extension's Wait_any/Wait_some over channels only). */
#define MCA_PML_CHAN_POLLS_PER_PROGRESS 64

/* send_mode values. */
#define MCA_PML_CHAN_MODE_STANDARD 0
#define MCA_PML_CHAN_MODE_BUFFERED 1
#define MCA_PML_CHAN_MODE_SYNCHRONOUS 2
#define MCA_PML_CHAN_MODE_READY 3

/* What a persistent request was created with (MPI_Send_init & co.). */
typedef struct mca_pml_chan_reqinfo_t {
    int is_send;
    int send_mode;      /* MCA_PML_CHAN_MODE_*: MPI_Send_init 0, Bsend 1, Ssend 2,
                         * Rsend 3 (not Open MPI's mca_pml_base_send_mode_t, whose
                         * numbers differ); 0 for receives from describe(); in a
                         * receive end's spec (below) the bound send's */
    void *buf;
    size_t count;
    MPI_Datatype type;
    int peer;           /* rank in comm (remote group of an intercommunicator);
                         * MPI_ANY_SOURCE possible for receives */
    int tag;            /* MPI_ANY_TAG possible for receives */
    MPI_Comm comm;
} mca_pml_chan_reqinfo_t;

/* One end of a channel as both ends agreed at bind. */
typedef struct mca_pml_chan_spec_t {
    mca_pml_chan_reqinfo_t req;  /* this end's request; peer and tag resolved (no wildcard) */
    int sync;                    /* 1: bound from Ssend_init (credits), 0: otherwise; the
                                  * mode itself is req.send_mode at both ends (standard,
                                  * buffered: flow control; ready: none) */
    int slack;                   /* K >= 1 starts outstanding at most */
    long increment;              /* address_base_increment, elements of req.type (0: fixed) */
    size_t bytes;                /* packed bytes of one message (the send's size; a receive
                                  * is at least that big, checked by the extension) */
} mca_pml_chan_spec_t;

struct mca_pml_chan_half_t;      /* the engine's end between prepare and connect */

typedef struct mca_pml_chan_api_t {
    /* OMPI_SUCCESS and *info, or MPI_ERR_REQUEST when req is not a persistent
     * point-to-point request created while pml/chan was loaded. */
    int (*describe)(MPI_Request req, mca_pml_chan_reqinfo_t *info);

    /* The engine; all NULL when it is off. */
    int (*prepare)(const mca_pml_chan_spec_t *spec, struct mca_pml_chan_half_t **half,
                   void *blob, size_t *len);
    int (*connect)(struct mca_pml_chan_half_t *half, const void *peer_blob, size_t peer_len,
                   MPI_Request *chan);
    void (*abandon)(struct mca_pml_chan_half_t *half);
    /* MPI_ERR_REQUEST when starts are outstanding (the channel stays
     * intact); otherwise releases the end, not the request object: the
     * extension then calls ompi_request_free() on it (req_free accepts after
     * unbind), so that layers holding the request (persistent
     * continuations) let go through req_free.  Local; the peer's memory
     * stays mapped until the peer unbinds too. */
    int (*unbind)(MPI_Request chan);
    /* The channel request's req_start: the extension's wrappers identify
     * engine channels with it. */
    int (*start)(size_t count, MPI_Request *chans);
    /* After Wait/Test reported a completion: presents the next outstanding
     * start, if any (see above). */
    void (*settle)(MPI_Request chan);
    /* Before Open MPI's Wait/Test look at the request, while a channel of
     * slack > 1 exists, on a series whose requests park
     * (MCA_COMMON_OMPIX_REQUEST_PARKS, common_ompix_compat_request.h):
     * shows it armed until settle(). */
    void (*hold)(MPI_Request chan);
    /* Wait/Test fast path for a request whose req_start is start: one look
     * at the end, no opal_progress; completes the request when its message
     * is done.  Non-zero when Open MPI's Wait/Test would now return at once
     * (complete, or inactive). */
    int (*poll)(MPI_Request chan);
    /* poll() until it says so, with opal_progress every
     * MCA_PML_CHAN_POLLS_PER_PROGRESS looks. */
    void (*wait)(MPI_Request chan);
    /* Version 4, for the extension's engine path of bundles whose members
     * are all channels (ompi/mpiext/chan/c/mpiext_chan_bundle_engine.c):
     * direction() is 1 for a send end, -1 for a receive end (a round starts
     * its receives first); progress() is pml/chan's own progress callback
     * (its busy ends, its worker), what a Wait on such a bundle spins on
     * between opal_progress calls. */
    int (*direction)(MPI_Request chan);
    int (*progress)(void);
    /* Version 5: a round of channels started at once by a layer that
     * consumes their completions itself (the extension's bundle engine,
     * which now sets each member's callback and calls start(n, chans)).
     * Every chans[i] must be a channel of this engine (a request whose
     * req_start is start), else MPI_ERR_REQUEST and nothing is set or
     * started.  Each channel's completion callback becomes cb with
     * cb_data (Open MPI's ompi_request_complete_fn_t: it runs when the
     * channel's message is done, during the call or later from progress,
     * once; nonzero: the layer completed the request itself), then all
     * are started as start(count, chans) starts them: in order (a round
     * puts its receives first), errors reported through the failing
     * channel's communicator and the channels after it not started.  A
     * channel that is idle (inactive, every earlier completion consumed:
     * what such a layer leaves) takes the batch's general start
     * (pml_chan_request_start.c:mca_pml_chan_request_start_idle), which
     * MPI_Startall of channels takes too. */
    int (*start_round)(size_t count, MPI_Request *chans,
                       int (*cb)(MPI_Request chan), void *cb_data);
} mca_pml_chan_api_t;

#endif /* MCA_PML_CHAN_API_H */
