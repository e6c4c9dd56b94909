/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The engine path of bundles (issue 25): a bundle whose members are all
 * channels on pml/chan's engine (to MPI_PROC_NULL aside) runs here, chosen
 * once at MPIX_Bundle_init.  A round is started by one call of the
 * engine's start over all its channels (receives first, then sends: the
 * order ompix_bundle_members_order gave them), so the engine issues every
 * write of the round in one pass; each channel carries a completion
 * callback that counts down the round's counter, and the completion that
 * brings it to zero starts the next round, from inside the engine's own
 * progress (or from the start itself when the round completed at once):
 * no per-member poll and no opal progress callback of ours.  MPI_Wait on
 * the bundle spins on its completion with pml/chan's progress alone
 * (opal_progress every OMPIX_BUNDLE_ENGINE_SPINS spins, as the engine's
 * channel Wait does; oversubscribed, a sched_yield after every spin that
 * completed nothing).  Under MPI_THREAD_MULTIPLE too: the counter and the
 * free of an active bundle are atomic, a bundle is started and waited by
 * one thread at a time (MPI's rule for a request) and its rounds advance
 * on whichever thread progresses.  Everything else (mixed members) stays
 * on the generic engine (mpiext_chan_bundle.c).
 */

#include "ompi_config.h"

#include <sched.h>
#include <stdlib.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/errhandler/errhandler.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

/* pml/chan progress calls per opal_progress while a Wait spins on an
 * engine bundle (other traffic, binds and continuations still move). */
#define OMPIX_BUNDLE_ENGINE_SPINS MCA_PML_CHAN_POLLS_PER_PROGRESS

static void ompix_bundle_engine_advance(ompix_bundle_t *b);
static int ompix_bundle_engine_member_done(ompi_request_t *req);
static int ompix_bundle_engine_member_done_mt(ompi_request_t *req);

/* The engine path's state against a free of an active bundle (b->engine_state):
 * whichever of the last completion and MPI_Request_free comes second
 * releases the bundle, decided by one compare-and-swap (with threads they
 * may run at once on two threads). */
#define OMPIX_BUNDLE_ENGINE_IDLE 0      /* not started, or complete */
#define OMPIX_BUNDLE_ENGINE_RUNNING 1
#define OMPIX_BUNDLE_ENGINE_FREED 2     /* freed while running */

/* Whether the bundle can run here: the engine is on and every member is
 * one of its channels or a request to MPI_PROC_NULL (never started).  With
 * threads too: a member's completion runs on the thread that progresses
 * it, and counts down the round atomically. */
static bool ompix_bundle_engine_fits(const ompix_bundle_t *b, int n)
{
    const mca_pml_chan_api_t *engine = ompix_chan_global.engine;

    if (NULL == engine || NULL == engine->start ||
        NULL == engine->progress || NULL == engine->direction) {
        return false;
    }
    for (int i = 0; i < n; ++i) {
        if (!b->members[i].noop && engine->start != b->members[i].start) {
            return false;
        }
    }
    return true;
}

/* At init, after the members were taken and ordered: the engine path's
 * arrays (the channels of each round, in start order), or the generic
 * engine when the bundle does not fit or they can not be allocated. */
void ompix_bundle_engine_choose(ompix_bundle_t *b)
{
    int n = b->nrounds > 0 ? b->round_end[b->nrounds - 1] : 0, k = 0;

    if (!ompix_bundle_engine_fits(b, n)) {
        return;
    }
    b->chans = malloc((n > 0 ? n : 1) * sizeof(*b->chans));
    b->chan_end = malloc((b->nrounds > 0 ? b->nrounds : 1) * sizeof(int));
    if (NULL == b->chans || NULL == b->chan_end) {
        free(b->chans);
        free(b->chan_end);
        b->chans = NULL;
        b->chan_end = NULL;
        return;                         /* the generic engine: correct, just slower */
    }
    for (int r = 0, i = 0; r < b->nrounds; ++r) {
        for (; i < b->round_end[r]; ++i) {
            if (!b->members[i].noop) {
                b->chans[k++] = b->members[i].req;
            }
        }
        b->chan_end[r] = k;
    }
    b->mt = opal_using_threads();
    b->member_done = b->mt ? ompix_bundle_engine_member_done_mt : ompix_bundle_engine_member_done;
    /* Both are fixed by now (MPI_Init set them). */
    b->yield = b->mt || opal_progress_yield_when_idle;
    b->super.req_start = ompix_bundle_engine_start;
}

/* A channel's completion (its completion callback, set at each start):
 * it is made inactive, as Wait would (the engine counts the consumption
 * at its next start), and counted; the round's last starts the next round
 * or completes the bundle.  The callback marks the channel complete
 * itself and returns 1, so that ompi_request_complete leaves it alone
 * afterwards: completing the bundle runs its continuations, which may
 * start it again, and with it this channel, whose new start the mark
 * after the callback would then report as done. */
/* The channel made inactive and complete: the callbacks' common part. */
static inline void ompix_bundle_engine_member_mark(ompi_request_t *req)
{
    void *old;

    req->req_state = OMPI_REQUEST_INACTIVE;
    /* 5.0: shown active again, so that MPI_Start refuses it until the
     * round that starts it shows it inactive (the engine's own state). */
    mca_common_ompix_request_refuse(req);
    old = (void *) OPAL_ATOMIC_SWAP_PTR(&req->req_complete, REQUEST_COMPLETED); /* intptr_t on 5.0 */
    if (REQUEST_PENDING != old && REQUEST_COMPLETED != old) {
        wait_sync_update((ompi_wait_sync_t *) old, 1, req->req_status.MPI_ERROR);
    }
}

static int ompix_bundle_engine_member_done(ompi_request_t *req)
{
    ompix_bundle_t *b = (ompix_bundle_t *) req->req_complete_cb_data;

    ompix_bundle_engine_member_mark(req);
    if (0 == --b->left) {
        ompix_bundle_engine_advance(b);
    }
    return 1;
}

/* The same with threads (b->mt): the count is atomic, as channels of one
 * round may complete on several threads at once. */
static int ompix_bundle_engine_member_done_mt(ompi_request_t *req)
{
    ompix_bundle_t *b = (ompix_bundle_t *) req->req_complete_cb_data;

    ompix_bundle_engine_member_mark(req);
    if (0 == opal_atomic_add_fetch_32(&b->left, -1)) {
        ompix_bundle_engine_advance(b);
    }
    return 1;
}

/* One channel counted outside a callback; true when it was the last. */
static inline bool ompix_bundle_engine_count(ompix_bundle_t *b)
{
    return 0 == (b->mt ? opal_atomic_add_fetch_32(&b->left, -1) : --b->left);
}

/* After a failed start of the round (the engine reported it through the
 * channel's communicator, and stops at the failing one): the channels
 * that did not start still carry our callback and are inactive; each is
 * counted as complete, the first failure kept as the bundle's error.  The
 * state is read before the callback: a started channel is active until
 * its completion, which clears the callback before it makes the channel
 * inactive, so one seen inactive with our callback did not start (with
 * threads its completion may run meanwhile on another thread). */
static void ompix_bundle_engine_failed(ompix_bundle_t *b, int first, int rc)
{
    for (int i = first; i < b->chan_end[b->round]; ++i) {
        ompi_request_t *req = b->chans[i];

        if (OMPI_REQUEST_INACTIVE != req->req_state) {
            continue;
        }
        opal_atomic_rmb();
        if (ompix_bundle_engine_member_done == req->req_complete_cb ||
            ompix_bundle_engine_member_done_mt == req->req_complete_cb) {
            req->req_complete_cb = NULL;
            if (MPI_SUCCESS == b->error) {
                b->error = ompi_errcode_get_mpi_code(rc);
                b->error_comm = req->req_mpi_object.comm;
            }
            (void) ompix_bundle_engine_count(b);
        }
    }
}

/* Starts round b->round: its counter, every channel's callback, then one
 * start of them all; true when the round completed during its start (a
 * send whose credit is there, a message to itself).  The counter holds one
 * more until every start is made, so that no completion inside the start
 * advances the bundle: the caller goes on with the next round, and rounds
 * completing at once do not nest. */
static bool ompix_bundle_engine_start_round(ompix_bundle_t *b)
{
    int first = b->round > 0 ? b->chan_end[b->round - 1] : 0;
    int n = b->chan_end[b->round] - first, rc;

    ompi_request_complete_fn_t done = b->member_done;

    b->left = n + 1;
    for (int i = first; i < first + n; ++i) {
        b->chans[i]->req_complete_cb_data = b;
        b->chans[i]->req_complete_cb = done;
        /* 5.0: its own state again (inactive, the last start consumed:
         * the engine counts that), not the refusal of MPI_Start. */
        mca_common_ompix_request_unrefuse(b->chans[i]);
    }
    if (n > 0 && MPI_SUCCESS != (rc = ompix_chan_global.engine->start(n, b->chans + first))) {
        ompix_bundle_engine_failed(b, first, rc);
    }
    return ompix_bundle_engine_count(b);
}

/* After the last round: completed, or released when MPI_Request_free came
 * while it ran (the state is idle first: the completion may run
 * continuations that start the bundle again).  With threads the running
 * bundle holds a reference of its own (taken at its start), dropped last:
 * a free on the owner's thread that finds it idle releases the user's
 * while this thread may still be inside the completion. */
static void ompix_bundle_engine_finish(ompix_bundle_t *b)
{
    int32_t running = OMPIX_BUNDLE_ENGINE_RUNNING;
    bool freed;

    if (!b->mt) {                       /* a free came before, on this thread */
        ompix_bundle_finish(b, OMPIX_BUNDLE_ENGINE_FREED == b->engine_state);
        return;
    }
    freed = !opal_atomic_compare_exchange_strong_32(&b->engine_state, &running,
                                                    OMPIX_BUNDLE_ENGINE_IDLE);
    ompix_bundle_finish(b, freed);
    OBJ_RELEASE(b);
}

/* Rounds from b->round on, as long as each completes during its start;
 * after the last, the bundle is complete (or released: freed while
 * active). */
static void ompix_bundle_engine_run(ompix_bundle_t *b)
{
    for (; b->round < b->nrounds; ++b->round) {
        if (!ompix_bundle_engine_start_round(b)) {
            return;                     /* the last completion goes on */
        }
    }
    ompix_bundle_engine_finish(b);
}

/* The running round is complete (its last channel's callback). */
static void ompix_bundle_engine_advance(ompix_bundle_t *b)
{
    ++b->round;
    ompix_bundle_engine_run(b);
}

static int ompix_bundle_engine_start_one(ompi_request_t *req)
{
    ompix_bundle_t *b = (ompix_bundle_t *) req;
    int rc = ompix_bundle_reset(b);

    if (MPI_SUCCESS == rc) {
        if (b->mt) {
            OBJ_RETAIN(b);              /* dropped by ompix_bundle_engine_finish */
        }
        b->engine_state = OMPIX_BUNDLE_ENGINE_RUNNING;
        opal_atomic_wmb();
        ompix_bundle_engine_run(b);
    }
    return rc;
}

/* req_start of a bundle on the engine path (MPI_Start, MPI_Startall, or
 * a generic bundle holding it); the Wait wrapper knows such a bundle by
 * it. */
int ompix_bundle_engine_start(size_t count, ompi_request_t **reqs)
{
    return ompix_bundle_start_each(count, reqs, ompix_bundle_engine_start_one,
                                   MCA_COMMON_OMPIX_REQUEST_CALLER());
}

static inline bool ompix_bundle_engine_waiting(const ompi_request_t *req)
{
    return OMPI_REQUEST_ACTIVE == req->req_state && !REQUEST_COMPLETE(req);
}

/* The Wait of an oversubscribed process (opal_progress yields the
 * processor while idle: mpi_yield_when_idle, which Open MPI sets when
 * there are more ranks than cores) or of one with threads: pml/chan's
 * progress, and the processor given up after each that completed
 * nothing, as opal_progress would, but without the sweep of every other
 * progress callback (vader's, libnbc's, coll/persist's, libevent's) each
 * time: that sweep runs every OMPIX_BUNDLE_ENGINE_SPINS spins.  Spinning
 * without yielding kept the processor from the peers whose messages we
 * wait for (4 ranks on 2 cores: rank 0's Wait took 40 000 instructions
 * per iteration against 1 500 on the generic engine), and with threads
 * from the thread whose progress holds pml/chan's lock and completes our
 * channels. */
static void ompix_bundle_engine_wait_yield(ompi_request_t *req)
{
    int (*progress)(void) = ompix_chan_global.engine->progress;
    unsigned int spins = 0;

    while (ompix_bundle_engine_waiting(req)) {
        if (OMPIX_BUNDLE_ENGINE_SPINS == ++spins) {
            spins = 0;
            opal_progress();            /* yields itself when idle */
        } else if (0 == progress() && ompix_bundle_engine_waiting(req)) {
            sched_yield();
        }
    }
}

/* MPI_Wait on an engine bundle, before Open MPI's Wait reports it: until
 * it is complete, pml/chan's progress (every busy end, whose completions
 * count down the rounds), and opal_progress every
 * OMPIX_BUNDLE_ENGINE_SPINS spins (MPI's progress rule: other traffic,
 * binds, continuations); oversubscribed or with threads (b->yield, fixed
 * at init), the processor given up between spins that completed
 * nothing. */
void ompix_bundle_engine_wait(ompi_request_t *req)
{
    int (*progress)(void) = ompix_chan_global.engine->progress;
    unsigned int spins = 0;

    if (((ompix_bundle_t *) req)->yield) {
        ompix_bundle_engine_wait_yield(req);
        return;
    }
    while (ompix_bundle_engine_waiting(req)) {
        if (OMPIX_BUNDLE_ENGINE_SPINS == ++spins) {
            spins = 0;
            opal_progress();
        } else {
            (void) progress();
        }
    }
}

/* MPI_Request_free of an engine bundle: released now (true), or by the
 * completion of its last round when it is running (its channels'
 * callbacks still point at it). */
bool ompix_bundle_engine_free(ompix_bundle_t *b)
{
    int32_t running = OMPIX_BUNDLE_ENGINE_RUNNING;

    if (!b->mt) {                       /* running: active and not complete */
        if (OMPI_REQUEST_ACTIVE != b->super.req_state || REQUEST_COMPLETE(&b->super)) {
            return true;
        }
        b->engine_state = OMPIX_BUNDLE_ENGINE_FREED;
        return false;
    }
    return !opal_atomic_compare_exchange_strong_32(&b->engine_state, &running,
                                                   OMPIX_BUNDLE_ENGINE_FREED);
}
