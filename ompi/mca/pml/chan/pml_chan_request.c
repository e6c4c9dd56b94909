/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The channel request: MPI_Start/MPI_Startall (req_start), completion
 * through ompi_request_complete so that every Wait/Test variant and
 * continuations work, req_free/req_cancel that refuse while bound, and
 * the progress function that drives outstanding ends.
 *
 * Slack K: up to K starts may be outstanding on the one request, and each
 * Wait/Test reports the oldest.  Open MPI's Wait/Test mark a persistent
 * request inactive when they report it; we see that the next time we look
 * (a start, a progress call, or settle() from the extension's Wait/Test
 * wrappers right after they returned) and then arm the request for the
 * next oldest start (active; complete if that one is done already).
 */
#include "ompi_config.h"

#include <string.h>

#include "opal/runtime/opal_progress.h"
#include "opal/util/show_help.h"
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"

#include "pml_chan_path.h"
#include "pml_chan_request.h"

#define MCA_PML_CHAN_PROGRESS_BATCH 16

/* wait()'s loads of one word between opal_progress calls: a quarter of a
 * look's instructions (5 against about 20), so progress runs about as
 * often in time as after MCA_PML_CHAN_POLLS_PER_PROGRESS looks, and a
 * message landing during it is not found later more often.  256 loads
 * are over before a ping-pong's answer comes back more often than not (a
 * counting build: 12-57 % of chan_bench's receive Waits went on to
 * opal_progress; 4-11 in 100 000 with 1024), but 1024 timed slower where
 * the answer takes longer than either spin (slow mode, pml ob1, 13 runs
 * each: median 0.171 us against 0.161; presumably a Wait busy in
 * opal_progress leaves the line alone for the peer's write). */
#ifndef MCA_PML_CHAN_SPINS_PER_PROGRESS
#define MCA_PML_CHAN_SPINS_PER_PROGRESS (4 * MCA_PML_CHAN_POLLS_PER_PROGRESS)
#endif

/* Under the end's lock.  True when the caller must ompi_request_complete()
 * the request (after dropping the lock: completion may run callbacks that
 * start this channel again).
 *
 * Arming the request for a start that is done already, while it is still
 * REQUEST_COMPLETED from the completion just consumed and no callback is
 * set, leaves it so: setting it PENDING and completing it again would end
 * COMPLETED too, and there is nobody to wake, since a waiting thread's
 * sync object only ever replaces PENDING (ompi_request_wait_completion's
 * compare-and-swap).  The fast paths (fast_done, settle's stream case)
 * write this outcome out for their own case. */
static bool mca_pml_chan_request_report(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;

    if (end->pending_report && OMPI_REQUEST_INACTIVE == r->req_state) {
        ++end->nconsumed;
        end->pending_report = false;
    }
    if (end->pending_report || end->nconsumed == end->nstart) {
        return false;
    }
    r->req_state = OMPI_REQUEST_ACTIVE;
    if (end->ndone > end->nconsumed) {
        /* The status was set once, at setup. */
        end->pending_report = true;
        if (REQUEST_COMPLETED == r->req_complete && NULL == r->req_complete_cb) {
            return false;
        }
    }
    /* The previous start's completion is stale; a waiting thread may have
     * put its sync object in place of PENDING already. */
    if (REQUEST_COMPLETED == r->req_complete) {
        r->req_complete = REQUEST_PENDING;
    }
    return end->pending_report;
}

/* Whether progress must look at the end: data still to move, or a reported
 * completion whose consumption arms the next one. */
static bool mca_pml_chan_request_needs_poll(const mca_pml_chan_end_t *end)
{
    return end->ndone < end->nstart ||
           (end->pending_report && end->nconsumed + 1 < end->nstart);
}

int mca_pml_chan_request_outstanding(mca_pml_chan_end_t *end)
{
    bool complete;
    int n;

    OPAL_THREAD_LOCK(&end->lock);
    complete = mca_pml_chan_request_report(end);
    n = (int) (end->nstart - end->nconsumed);
    OPAL_THREAD_UNLOCK(&end->lock);
    if (complete) {
        ompi_request_complete(&end->super, true);
    }
    return n;
}

/* OMPI_SUCCESS: a start's last step may be a tail call of it. */
static int mca_pml_chan_request_make_busy(mca_pml_chan_end_t *end)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    OPAL_THREAD_LOCK(&c->lock);
    if (!end->busy) {
        end->busy = true;
        opal_list_append(&c->busy, &end->busy_item);
        ++c->outstanding;
    }
    OPAL_THREAD_UNLOCK(&c->lock);
    return OMPI_SUCCESS;
}

static int mca_pml_chan_request_start_one(mca_pml_chan_end_t *end)
{
    bool complete, poll;
    int ret = OMPI_SUCCESS;

    if (!end->bound) {
        return MPI_ERR_REQUEST;
    }
    OPAL_THREAD_LOCK(&end->lock);
    complete = mca_pml_chan_request_report(end);
    if (end->nstart - end->nconsumed >= end->slack) {
        ret = MPI_ERR_REQUEST;          /* the (K+1)-th outstanding start */
    } else if (end->is_send && !end->spec.sync && end->credits &&
               !mca_pml_chan_ring_credit_ok(end, end->nstart)) {
        opal_show_help("help-pml-chan.txt", "ready before receive", true,
                       ompi_comm_rank(end->spec.req.comm), end->spec.req.peer,
                       end->spec.req.tag, (unsigned long long) end->nstart);
        ret = MPI_ERR_OTHER;
    } else {
        ++end->nstart;
        if (end->is_send) {
            ret = mca_pml_chan_ring_send(end);
        } else {
            mca_pml_chan_ring_recv_post(end);
            (void) mca_pml_chan_ring_recv_poll(end);
        }
        if (OMPI_SUCCESS != ret) {
            --end->nstart;
            ret = MPI_ERR_OTHER;
        } else {
            complete = mca_pml_chan_request_report(end) || complete;
        }
    }
    poll = mca_pml_chan_request_needs_poll(end);
    OPAL_THREAD_UNLOCK(&end->lock);
    if (poll) {
        (void) mca_pml_chan_request_make_busy(end);
    }
    if (complete) {
        ompi_request_complete(&end->super, true);
    }
    return ret;
}

/* No start outstanding once the last completion Wait/Test reported is
 * consumed (the usual start-wait cycle): the request is inactive and every
 * start but the one reported (pending_report) was consumed.  An active
 * request always has a start not consumed (only a start or report() arm
 * it, and only for one), so inactive is part of the test, not an extra
 * one: MPI_Start tests it first and sends a stream's later starts, whose
 * request is armed for an older one, their own way. */
static inline bool mca_pml_chan_request_idle_counts(const mca_pml_chan_end_t *end)
{
    return end->nconsumed + end->pending_report == end->nstart;
}

static inline bool mca_pml_chan_request_idle(const mca_pml_chan_end_t *end)
{
    return OMPI_REQUEST_INACTIVE == end->super.req_state &&
           mca_pml_chan_request_idle_counts(end);
}

/* start_one for an idle fast_send end (pml_chan_bind.c:mca_pml_chan_connect):
 * the same steps, with what can not happen left out.  The message is
 * written and done at once, so the request is armed and complete; no lock
 * (no threads), no progress to ask for.  Every other case goes to
 * start_one. */
static inline bool mca_pml_chan_request_fast_ok(const mca_pml_chan_end_t *end)
{
    return end->fast_send && mca_pml_chan_request_idle(end);
}

/* Out of line: the fast starts (start_fast, req_start, the paths'
 * start_now) rarely need it. */
__opal_attribute_noinline__ int mca_pml_chan_request_fast_complete(ompi_request_t *r)
{
    if (REQUEST_COMPLETED == r->req_complete) {
        r->req_complete = REQUEST_PENDING;
    }
    ompi_request_complete(r, true);
    return OMPI_SUCCESS;
}

static inline bool mca_pml_chan_request_start_fast(mca_pml_chan_end_t *end)
{
    uint64_t n = end->nstart;

    if (!mca_pml_chan_request_fast_ok(end)) {
        return false;
    }
    mca_pml_chan_ring_write_contig(end, n);
    mca_pml_chan_request_done_now(end, n);
    return true;
}

/* An idle am_send end (the AM and TAG paths' fast_send), whose path's
 * start_now sends its message inside the call or, false, not at all
 * (start_one then sends it with a request). */
static inline bool mca_pml_chan_request_am_ok(const mca_pml_chan_end_t *end)
{
    return end->am_send && mca_pml_chan_request_idle(end);
}

/* An idle fast_recv or am_recv end (mca_pml_chan_request_setup) still
 * bound. */
static inline bool mca_pml_chan_request_recv_ok(const mca_pml_chan_end_t *end)
{
    return (end->fast_recv || end->am_recv) && end->bound && mca_pml_chan_request_idle(end);
}

/* Message n is in its slot (k = n % K): the copy of ring_recv_poll, and
 * the request, armed, complete: report()'s outcome. */
static inline void mca_pml_chan_request_take(mca_pml_chan_end_t *end, uint64_t n, uint64_t k,
                                             const char *slot)
{
    mca_pml_chan_copy(end->buf + (ptrdiff_t) k * end->incr_bytes, slot, end->bytes);
    end->ndone = n + 1;
    end->pending_report = true;
}

/* start_one for a receive end that recv_ok() accepts: no lock (no
 * threads), no credits to report, no recv_post; report() and needs_poll()
 * reduced to their outcome.  The request is armed (active) and pending,
 * without a look at the slot: a fast_recv end is a ready channel's, whose
 * message n is sent only after receive n started (MPI's ready mode), so
 * the message can not be there yet (an erroneous early one is taken by
 * the Wait/Test look or progress all the same).  The end must be in the
 * busy list, where it usually is already (the look or progress that took
 * the previous message left it there: mca_pml_chan_request_poll).  Every
 * call a tail call: no stack frame. */
static inline int mca_pml_chan_request_start_recv(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;
    uint64_t n = end->nstart;

    end->nconsumed = n;                 /* = ndone: every earlier one was reported */
    end->nstart = n + 1;
    r->req_state = OMPI_REQUEST_ACTIVE;
    end->pending_report = false;
    if (REQUEST_COMPLETED == r->req_complete) {
        r->req_complete = REQUEST_PENDING;
    }
    if (OPAL_UNLIKELY(!end->busy)) {
        return mca_pml_chan_request_make_busy(end);
    }
    return OMPI_SUCCESS;
}

/* A stream's later starts: a fast_send, fast_recv or am_recv end (still
 * bound) whose request is armed (active) for an older start and with room
 * for one more (under slack K > 1; the caller checked active).  A send is
 * written and done at once, so the request keeps reporting the older one;
 * a receive is only counted (the Wait/Test look or progress moves its
 * data in order; on the TAG path it posts the receive first).  Either way the end stays in
 * the busy list, as start_one would leave it, so that progress presents
 * the next start once the older one is consumed. */
static inline bool mca_pml_chan_request_more_ok(const mca_pml_chan_end_t *end)
{
    return (end->fast_send || ((end->fast_recv || end->am_recv) && end->bound)) &&
           end->nstart - end->nconsumed < end->slack;
}

static __opal_attribute_noinline__ int mca_pml_chan_request_start_more(mca_pml_chan_end_t *end)
{
    uint64_t n = end->nstart;

    if (end->is_send) {
        mca_pml_chan_ring_write_contig(end, n);
        end->nwritten = end->ndone = n + 1;
    }
    end->nstart = n + 1;
    if (OPAL_UNLIKELY(!end->busy)) {
        return mca_pml_chan_request_make_busy(end);
    }
    return OMPI_SUCCESS;
}

/* Out of line, so that the fast path of an MPI_Start saves no registers. */
static __opal_attribute_noinline__ int mca_pml_chan_request_start_all(size_t count,
                                                                      ompi_request_t **requests)
{
    for (size_t i = 0; i < count; ++i) {
        mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) requests[i];
        int ret;
        if (mca_pml_chan_request_start_fast(end)) {
            continue;
        }
        if (OMPI_REQUEST_ACTIVE == end->super.req_state && mca_pml_chan_request_more_ok(end)) {
            (void) mca_pml_chan_request_start_more(end);
            continue;
        }
        if (mca_pml_chan_request_recv_ok(end)) {
            (void) mca_pml_chan_request_start_recv(end);
            continue;
        }
        /* Last: the mapped path's shortcuts pay nothing for it. */
        if (mca_pml_chan_request_am_ok(end) && end->path->start_now(end)) {
            continue;
        }
        ret = mca_pml_chan_request_start_one(end);
        if (OMPI_SUCCESS != ret) {
            /* MPI_Start/MPI_Startall return req_start's error without
             * invoking the error handler. */
            return OMPI_ERRHANDLER_INVOKE(requests[i]->req_mpi_object.comm, ret,
                                          1 == count ? "MPI_Start" : "MPI_Startall");
        }
    }
    return OMPI_SUCCESS;
}

/* MPI_Start of anything but an idle fast_send end (state: the request's).
 * Inactive: an idle receive end that recv_ok() accepts; active (armed for
 * an older start): a stream's later start.  Only tail calls. */
static inline int mca_pml_chan_request_start_other(mca_pml_chan_end_t *end,
                                                   ompi_request_state_t state,
                                                   ompi_request_t **requests)
{
    if (OMPI_REQUEST_INACTIVE == state) {
        if (OPAL_LIKELY((end->fast_recv || end->am_recv) && end->bound &&
                        mca_pml_chan_request_idle_counts(end))) {
            return mca_pml_chan_request_start_recv(end);
        }
        if (end->am_send && mca_pml_chan_request_idle_counts(end) &&
            end->path->start_now(end)) {
            return OMPI_SUCCESS;
        }
    } else if (OMPI_REQUEST_ACTIVE == state && mca_pml_chan_request_more_ok(end)) {
        return mca_pml_chan_request_start_more(end);
    }
    return mca_pml_chan_request_start_all(1, requests);
}

/* MPI_Startall hands us consecutive channel requests at once.  MPI_Start
 * of an idle fast_send end of a small message is start_fast written out
 * with a copy of fixed size and only tail calls (no stack frame); every
 * other MPI_Start goes to start_other: an idle receive end that recv_ok()
 * accepts to start_recv, frameless too, a stream's later start (the
 * request armed, active, for an older one) straight to start_more. */
int mca_pml_chan_request_start(size_t count, ompi_request_t **requests)
{
    mca_pml_chan_end_t *end;
    ompi_request_state_t state;
    uint64_t n, k;
    char *slot, *src;

    if (OPAL_UNLIKELY(1 != count)) {
        return mca_pml_chan_request_start_all(count, requests);
    }
    end = (mca_pml_chan_end_t *) requests[0];
    /* req_state is volatile: one load for every test of it. */
    state = end->super.req_state;
    if (OPAL_UNLIKELY(!end->fast_send || OMPI_REQUEST_INACTIVE != state ||
                      !mca_pml_chan_request_idle_counts(end))) {
        return mca_pml_chan_request_start_other(end, state, requests);
    }
    n = end->nstart;
    k = n & end->slot_mask;             /* fast_send: slack is a power of two */
    slot = end->peer_mem + MCA_PML_CHAN_CTL + k * end->slot_size;
    src = end->buf + (ptrdiff_t) k * end->incr_bytes;
    if (!mca_pml_chan_copy_small(slot, src, end->bytes)) {
        return mca_pml_chan_request_start_all(count, requests);
    }
    mca_common_ompix_atomic_store_rel_64((volatile uint64_t *) (slot + end->seq_off), n + 1);
    if (mca_pml_chan_request_fast_done(end, n)) {
        return mca_pml_chan_request_fast_complete(&end->super);
    }
    return OMPI_SUCCESS;
}

/* The extension's Wait/Test wrappers: a completion was reported (the
 * request is inactive); present the next outstanding start. */
void mca_pml_chan_request_settle(ompi_request_t *request)
{
    mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) request;

    /* The start just reported was the only one outstanding (every slack-1
     * channel, and a stream drained): nothing to present.  report() would
     * only count the consumption, which the next start, look or unbind
     * counts as well (they all see pending_report and INACTIVE). */
    if (end->pending_report && OMPI_REQUEST_INACTIVE == request->req_state &&
        end->nconsumed + 1 == end->nstart) {
        return;
    }
    /* A stream's usual case (no threads): the next start is done already
     * (a fast_send end's always is), so report()'s outcome is the request
     * armed again for it, still REQUEST_COMPLETED, and no completion to
     * signal when no callback is set. */
    if ((end->fast_send || end->fast_recv) && end->bound && end->pending_report &&
        OMPI_REQUEST_INACTIVE == request->req_state && end->nconsumed + 1 < end->ndone &&
        REQUEST_COMPLETED == request->req_complete && NULL == request->req_complete_cb) {
        ++end->nconsumed;
        request->req_state = OMPI_REQUEST_ACTIVE;
        return;
    }
    (void) mca_pml_chan_request_outstanding(end);
}

/* Completing a request active and not complete: the store
 * ompi_request_complete's compare-and-swap would make, unless a callback
 * is set or a sync object is in place (Open MPI's Wait_any/all/some
 * install one even without threads; a callback run in their progress may
 * Test this channel). */
static inline void mca_pml_chan_request_took(ompi_request_t *r)
{
    if (OPAL_LIKELY(NULL == r->req_complete_cb && REQUEST_PENDING == r->req_complete)) {
        r->req_complete = REQUEST_COMPLETED;
    } else {
        ompi_request_complete(r, true);
    }
}

/* The usual wait: a fast_recv end (no threads: nothing else changes the
 * end meanwhile, no lock) with a message outstanding.  One acquire load
 * of the awaited slot's word; when it is there, the copy of
 * ring_recv_poll for that one message (later ones wait for the next look
 * or progress) and report() reduced to its outcome: the request is active
 * and not complete (look checked), so every earlier completion was
 * consumed and this one is reported (take, took).  -1: not that case; 0:
 * not there yet; 1: complete. */
static inline int mca_pml_chan_request_recv_fast(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;
    uint64_t n = end->ndone, k;
    char *slot;

    if ((!end->fast_recv && !end->am_recv) || n >= end->nstart) {
        return -1;
    }
    k = n & end->slot_mask;
    slot = end->mem + MCA_PML_CHAN_CTL + k * end->slot_size;
    if (mca_common_ompix_atomic_load_acq_64((volatile uint64_t *) (slot + end->seq_off)) !=
        n + 1) {
        return 0;
    }
    mca_pml_chan_request_take(end, n, k, slot);
    mca_pml_chan_request_took(r);
    return 1;
}

/* One look at an end for Wait/Test, as progress looks at a busy one (the
 * end may stay in the busy list: progress drops it when it finds nothing
 * to do).  True when Open MPI's Wait/Test return at once: the request is
 * complete, or inactive (nothing outstanding; a channel unbound since is
 * inactive too). */
static inline bool mca_pml_chan_request_look(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;
    bool complete;

    if (REQUEST_COMPLETE(r) || OMPI_REQUEST_INACTIVE == r->req_state || !end->bound) {
        return true;
    }
    switch (mca_pml_chan_request_recv_fast(end)) {
    case 0:
        if (end->am_recv) {
            /* It lands only as pml/chan's worker progresses (on the TAG
             * path into the receive posted first). */
            mca_pml_chan_path_post(end);
            (void) ucp_worker_progress(mca_pml_chan_component.ucx.worker);
            return 1 == mca_pml_chan_request_recv_fast(end);
        }
        return false;
    case 1:
        return true;
    default:
        break;
    }
    if (end->via_worker) {
        /* Messages land and complete only as the worker progresses; progress
         * looks at every busy end, this one included. */
        (void) mca_pml_chan_progress();
        return REQUEST_COMPLETE(r);
    }
    if (opal_using_threads() && 0 != opal_mutex_trylock(&end->lock)) {
        return false;                   /* progress holds it: it completes the request */
    }
    if (end->is_send) {
        (void) mca_pml_chan_ring_send_poll(end);
    } else {
        (void) mca_pml_chan_ring_recv_poll(end);
    }
    complete = mca_pml_chan_request_report(end);
    if (opal_using_threads()) {
        opal_mutex_unlock(&end->lock);
    }
    if (complete) {
        ompi_request_complete(r, true);
    }
    return REQUEST_COMPLETE(r);
}

/* The table's poll(): the extension's Test wrappers, before Open MPI's
 * Test. */
int mca_pml_chan_request_test(ompi_request_t *request)
{
    return mca_pml_chan_request_look((mca_pml_chan_end_t *) request);
}

/* wait()'s fast part, on a fast_recv end with a message outstanding: a
 * look with what it computes hoisted, so that a look is a load and a
 * compare, until the word is there or it is progress's turn.  No call:
 * the caller needs no stack frame for it. */
static inline bool mca_pml_chan_request_spin(mca_pml_chan_end_t *end)
{
    uint64_t n = end->ndone, k = n & end->slot_mask;
    char *slot = end->mem + MCA_PML_CHAN_CTL + k * end->slot_size;
    volatile uint64_t *word = (volatile uint64_t *) (slot + end->seq_off);

    for (unsigned int spins = 0; mca_common_ompix_atomic_load_acq_64(word) != n + 1;) {
        if (MCA_PML_CHAN_SPINS_PER_PROGRESS == ++spins) {
            return false;
        }
    }
    mca_pml_chan_request_take(end, n, k, slot);
    mca_pml_chan_request_took(&end->super);
    return true;
}

static inline bool mca_pml_chan_request_spin_ok(const mca_pml_chan_end_t *end)
{
    return end->fast_recv && end->ndone < end->nstart;
}

/* wait() of an am_recv end (pml_chan_path_am.c: the AM and TAG paths'
 * fast_recv): the message lands only as pml/chan's worker progresses
 * (on the TAG path into the receive posted first), so each look
 * progresses that worker alone (over TCP one epoll_wait and, when the
 * message is there, its recv and our handler), not opal_progress's every
 * callback; opal_progress every MCA_PML_CHAN_POLLS_PER_PROGRESS looks
 * (MPI's progress rule), which may take the message itself (pml/chan's
 * progress sweeps busy ends). */
static void mca_pml_chan_request_wait_am(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;
    ucp_worker_h worker = mca_pml_chan_component.ucx.worker;

    mca_pml_chan_path_post(end);
    for (;;) {
        for (unsigned int looks = 0; looks < MCA_PML_CHAN_POLLS_PER_PROGRESS; ++looks) {
            (void) ucp_worker_progress(worker);
            if (0 != mca_pml_chan_request_recv_fast(end)) {
                return;                 /* complete (or, -1, nothing outstanding) */
            }
        }
        opal_progress();
        if (REQUEST_COMPLETE(r) || OMPI_REQUEST_INACTIVE == r->req_state || !end->bound) {
            return;
        }
    }
}

/* The rest of wait(): progress, then the spin again, or looks. */
static __opal_attribute_noinline__ void mca_pml_chan_request_wait_loop(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;
    unsigned int looks = 0;

    if (end->am_recv && end->ndone < end->nstart) {
        mca_pml_chan_request_wait_am(end);
        return;
    }

    for (;;) {
        if (REQUEST_COMPLETE(r) || OMPI_REQUEST_INACTIVE == r->req_state || !end->bound) {
            return;
        }
        if (mca_pml_chan_request_spin_ok(end)) {
            if (mca_pml_chan_request_spin(end)) {
                return;
            }
        } else if (mca_pml_chan_request_look(end)) {
            return;
        } else if (MCA_PML_CHAN_POLLS_PER_PROGRESS > ++looks) {
            continue;
        }
        /* Progress may move the message itself: look again from the top. */
        looks = 0;
        opal_progress();
    }
}

/* The table's wait(): the extension's Wait wrappers, before Open MPI's
 * Wait, which then finds the request complete.  Looking at the end
 * itself detects the message a load after it landed, where Open MPI's
 * Wait would find it only in pml/chan's progress callback, after the
 * selected PML's progress of that sweep; opal_progress still runs every
 * MCA_PML_CHAN_POLLS_PER_PROGRESS looks, or MCA_PML_CHAN_SPINS_PER_PROGRESS
 * spins (MPI's progress rule: other messages, binds, continuations).
 * The spin written out for the usual message (4, 8 or 16 bytes, no
 * callback, nobody else waiting), every test and address computed before
 * it (nothing else changes the end or the request meanwhile: no threads,
 * and a callback or a sync object can only appear through a call of this
 * process), so that the instructions between the word and the return are
 * the copy and three stores; no call but tail calls, no stack frame.
 * Every other case is wait_loop's. */
void mca_pml_chan_request_wait(ompi_request_t *request)
{
    mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) request;
    ompi_request_t *r = &end->super;
    uint64_t n, k;
    char *slot, *dst;
    volatile uint64_t *word;

    if (REQUEST_COMPLETE(r) || OMPI_REQUEST_INACTIVE == r->req_state || !end->bound) {
        return;
    }
    if (!mca_pml_chan_request_spin_ok(end) ||
        OPAL_UNLIKELY(NULL != r->req_complete_cb || REQUEST_PENDING != r->req_complete ||
                      !mca_pml_chan_small(end->bytes))) {
        mca_pml_chan_request_wait_loop(end);
        return;
    }
    n = end->ndone;
    k = n & end->slot_mask;
    slot = end->mem + MCA_PML_CHAN_CTL + k * end->slot_size;
    word = (volatile uint64_t *) (slot + end->seq_off);
    dst = end->buf + (ptrdiff_t) k * end->incr_bytes;
    for (unsigned int spins = 0; mca_common_ompix_atomic_load_acq_64(word) != n + 1;) {
        if (MCA_PML_CHAN_SPINS_PER_PROGRESS == ++spins) {
            mca_pml_chan_request_wait_loop(end);
            return;
        }
    }
    (void) mca_pml_chan_copy_small(dst, slot, end->bytes);
    end->ndone = n + 1;
    end->pending_report = true;
    r->req_complete = REQUEST_COMPLETED;
}

/* Only after unbind: a channel is released by MPIX_Unbind_channel. */
static int mca_pml_chan_request_free(ompi_request_t **request)
{
    mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) *request;

    if (end->bound) {
        return MPI_ERR_REQUEST;
    }
    OBJ_RELEASE(end);
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int mca_pml_chan_request_cancel(ompi_request_t *request, int complete)
{
    (void) complete;
    return ((mca_pml_chan_end_t *) request)->bound ? MPI_ERR_REQUEST : OMPI_SUCCESS;
}

/* A persistent request, inactive, as after MPI_Send_init. */
void mca_pml_chan_request_setup(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;

    OMPI_REQUEST_INIT(r, true);
    r->req_type = OMPI_REQUEST_PML;
    r->req_start = mca_pml_chan_request_start;
    r->req_free = mca_pml_chan_request_free;
    r->req_cancel = mca_pml_chan_request_cancel;
    r->req_mpi_object.comm = end->spec.req.comm;
    /* Every message of a channel reports the same status (the peer, the
     * send's tag and size; a channel is never cancelled), so starts and
     * report() leave it alone. */
    r->req_status = ompi_status_empty;
    r->req_status.MPI_SOURCE = end->peer_rank;
    r->req_status.MPI_TAG = end->status_tag;
    r->req_status._ucount = end->bytes;
    r->req_status._cancelled = 0;
    r->req_status.MPI_ERROR = MPI_SUCCESS;
    r->req_state = OMPI_REQUEST_INACTIVE;
    r->req_complete = REQUEST_COMPLETED;
}

/* Moves data of one busy end and arms its request; under c->lock.  True:
 * keep it listed. */
static bool mca_pml_chan_request_poll(mca_pml_chan_end_t *end, bool *complete)
{
    if (opal_using_threads() && 0 != opal_mutex_trylock(&end->lock)) {
        return true;                    /* its thread is starting it: keep it */
    }
    bool moved = end->is_send ? mca_pml_chan_ring_send_poll(end)
                              : mca_pml_chan_ring_recv_poll(end);
    *complete = mca_pml_chan_request_report(end);
    /* One that moved data stays listed until a sweep finds it idle: its
     * next start (a ping-pong's, right after the Wait) then finds it
     * listed, and no end is dropped and listed again every round. */
    bool poll = moved || mca_pml_chan_request_needs_poll(end);
    if (opal_using_threads()) {
        opal_mutex_unlock(&end->lock);
    }
    return poll;
}

/* Progress with no start outstanding.  A message UCX took (its send
 * complete) may still sit partly in a transport buffer: UCX 1.13's TCP
 * transport keeps the tail of a send the socket did not take whole
 * (uct_tcp_ep_am_send returns success, uct_tcp_ep_check_tx_completion
 * waits for the socket to be writable), and it leaves only as the
 * worker progresses.  With nothing outstanding no Wait of ours runs the
 * worker, and a sender then waiting in an ordinary MPI call for its
 * receiver would wait forever; likewise a TAG receiver's unexpected
 * messages and the peers' "gone" land only so.  So once an end moves
 * data through the worker, idle progress runs it every
 * MCA_PML_CHAN_IDLE_PROGRESS calls (a power of two), none in a process
 * whose channels are all mapped: these messages need to leave, not to
 * leave at once, and every progress of the worker over TCP is an
 * epoll_wait per interface that ordinary messages would wait behind
 * (under pml ucx one opal_progress runs one progress of its own worker).
 * (Not reproduced here: loopback sockets took every message whole in the
 * tests.) */
#ifndef MCA_PML_CHAN_IDLE_PROGRESS
#define MCA_PML_CHAN_IDLE_PROGRESS 256
#endif

static __opal_attribute_noinline__ int mca_pml_chan_progress_idle(mca_pml_chan_component_t *c)
{
    if (0 != (++c->idle_calls & (MCA_PML_CHAN_IDLE_PROGRESS - 1))) {
        return 0;
    }
    if (opal_using_threads() && 0 != opal_mutex_trylock(&c->lock)) {
        return 0;                       /* another thread is at it */
    }
    (void) ucp_worker_progress(c->ucx.worker);
    if (opal_using_threads()) {
        opal_mutex_unlock(&c->lock);
    }
    return 0;
}

int mca_pml_chan_progress(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_chan_end_t *done[MCA_PML_CHAN_PROGRESS_BATCH];
    opal_list_item_t *item, *next;
    int n = 0;

    /* An idle process pays this load (and, with ends on UCX, a test). */
    if (0 == c->outstanding) {
        return OPAL_LIKELY(!c->have_worker_ends) ? 0 : mca_pml_chan_progress_idle(c);
    }
    if (opal_using_threads() && 0 != opal_mutex_trylock(&c->lock)) {
        return 0;                       /* another thread is at it */
    }
    if (c->have_worker_ends) {
        (void) ucp_worker_progress(c->ucx.worker);
    }
    OPAL_LIST_FOREACH_SAFE(item, next, &c->busy, opal_list_item_t) {
        mca_pml_chan_end_t *end = (mca_pml_chan_end_t *)
            ((char *) item - offsetof(mca_pml_chan_end_t, busy_item));
        bool complete = false;
        if (!mca_pml_chan_request_poll(end, &complete)) {
            opal_list_remove_item(&c->busy, item);
            end->busy = false;
            --c->outstanding;
        }
        if (complete) {
            done[n++] = end;
            if (MCA_PML_CHAN_PROGRESS_BATCH == n) {
                break;
            }
        }
    }
    if (opal_using_threads()) {
        opal_mutex_unlock(&c->lock);
    }
    for (int i = 0; i < n; ++i) {
        ompi_request_complete(&done[i]->super, true);
    }
    return n;
}
