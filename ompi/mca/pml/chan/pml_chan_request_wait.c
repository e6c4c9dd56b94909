/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Wait and Test of a channel: the table's poll() and wait(), which the
 * extension's Wait/Test wrappers call before Open MPI's, look at the end
 * itself (on a ready receive one load of the awaited word, or a spin on
 * it) instead of waiting for pml/chan's progress callback; settle()
 * presents a stream's next start once Wait/Test consumed a completion.
 */
#include "ompi_config.h"

#include "opal/runtime/opal_progress.h"

#include "pml_chan_path.h"
#include "pml_chan_request.h"

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

/* Message n is in its slot (k = n % K: the user's buffer's index and, on
 * a fast_recv or am_recv end, whose ring has K slots, the slot's;
 * pml_chan_end.h): the copy of ring_recv_poll, the word zeroed (the slot
 * free: slot_flow), and the request, armed, complete: report()'s
 * outcome. */
static inline void mca_pml_chan_request_take(mca_pml_chan_end_t *end, uint64_t n, uint64_t k,
                                             char *slot)
{
    mca_pml_chan_copy(end->buf + (ptrdiff_t) k * end->incr_bytes, slot, end->bytes);
    mca_pml_chan_slot_taken((volatile uint64_t *) (slot + end->seq_off));
    end->ndone = n + 1;
    end->pending_report = true;
}

/* A completion was reported (the request is inactive): the next
 * outstanding start presented. */
static inline void mca_pml_chan_request_present(ompi_request_t *request)
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
     * (a fast_send end's is, unless its slot was not free), so report()'s
     * outcome is the request armed again for it, still REQUEST_COMPLETED,
     * and no completion to signal when no callback is set. */
    if ((end->fast_send || end->fast_recv) && end->bound && end->pending_report &&
        OMPI_REQUEST_INACTIVE == request->req_state && end->nconsumed + 1 < end->ndone &&
        REQUEST_COMPLETED == request->req_complete && NULL == request->req_complete_cb) {
        ++end->nconsumed;
        request->req_state = OMPI_REQUEST_ACTIVE;
        return;
    }
    (void) mca_pml_chan_request_outstanding(end);
}

/* The extension's Wait/Test wrappers, before Open MPI's functions look at
 * the request (5.0, while a channel of slack > 1 exists): a parked
 * request shown armed (common_ompix_compat_request.h). */
void mca_pml_chan_request_hold(ompi_request_t *request)
{
    mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) request;

    OPAL_THREAD_LOCK(&end->lock);
    mca_common_ompix_request_hold(request, &end->show);
    OPAL_THREAD_UNLOCK(&end->lock);
}

/* The extension's Wait/Test wrappers, after Open MPI's functions (while a
 * channel of slack > 1 exists): the next outstanding start presented,
 * then (5.0) the request released from hold, parked when armed with room
 * for another start. */
void mca_pml_chan_request_settle(ompi_request_t *request)
{
    mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) request;

    mca_pml_chan_request_present(request);
    if (MCA_COMMON_OMPIX_REQUEST_PARKS) {
        OPAL_THREAD_LOCK(&end->lock);
        mca_common_ompix_request_release(request, &end->show, mca_pml_chan_request_room(end));
        OPAL_THREAD_UNLOCK(&end->lock);
    }
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
 * the copy and four stores (one zeroes the word: slot_flow); no call but
 * tail calls, no stack frame.  Every other case is wait_loop's. */
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
    mca_pml_chan_slot_taken(word);
    end->ndone = n + 1;
    end->pending_report = true;
    r->req_complete = REQUEST_COMPLETED;
}
