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

#include "pml_chan_end.h"

#define MCA_PML_CHAN_PROGRESS_BATCH 16

/* Under the end's lock.  True when the caller must ompi_request_complete()
 * the request (after dropping the lock: completion may run callbacks that
 * start this channel again). */
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
    /* The previous start's completion is stale; a waiting thread may have
     * put its sync object in place of PENDING already. */
    if (REQUEST_COMPLETED == r->req_complete) {
        r->req_complete = REQUEST_PENDING;
    }
    if (end->ndone > end->nconsumed) {
        /* The status was set once, at setup. */
        end->pending_report = true;
        return true;
    }
    return false;
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

static void mca_pml_chan_request_make_busy(mca_pml_chan_end_t *end)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    OPAL_THREAD_LOCK(&c->lock);
    if (!end->busy) {
        end->busy = true;
        opal_list_append(&c->busy, &end->busy_item);
        ++c->outstanding;
    }
    OPAL_THREAD_UNLOCK(&c->lock);
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
        mca_pml_chan_request_make_busy(end);
    }
    if (complete) {
        ompi_request_complete(&end->super, true);
    }
    return ret;
}

/* start_one for a fast_send end (pml_chan_bind.c:mca_pml_chan_connect)
 * with no start outstanding once the last completion Wait/Test reported is
 * consumed: the same steps, with what can not happen left out.  The
 * message is written and done at once, so the request is armed and
 * complete; no lock (no threads), no progress to ask for.  Every other
 * case goes to start_one. */
static inline bool mca_pml_chan_request_fast_ok(const mca_pml_chan_end_t *end)
{
    return end->fast_send &&
           end->nconsumed + (end->pending_report &&
                             OMPI_REQUEST_INACTIVE == end->super.req_state) == end->nstart;
}

/* Message n was written: report() and needs_poll() of start_one reduced
 * to their outcome.  True when ompi_request_complete() must run: a
 * request left COMPLETED by the previous start, set PENDING and completed
 * again, only ends COMPLETED, so that is skipped when no completion
 * callback is there to run. */
static inline bool mca_pml_chan_request_fast_done(mca_pml_chan_end_t *end, uint64_t n)
{
    ompi_request_t *r = &end->super;

    end->nconsumed = n;
    end->nstart = end->nwritten = end->ndone = n + 1;
    end->pending_report = true;
    r->req_state = OMPI_REQUEST_ACTIVE;
    return OPAL_UNLIKELY(NULL != r->req_complete_cb || REQUEST_COMPLETED != r->req_complete);
}

static __opal_attribute_noinline__ int mca_pml_chan_request_fast_complete(ompi_request_t *r)
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
    if (mca_pml_chan_request_fast_done(end, n)) {
        (void) mca_pml_chan_request_fast_complete(&end->super);
    }
    return true;
}

/* start_one for a receive end in the usual case: no threads (no lock), a
 * mapped contiguous ring without credits to report, no start outstanding
 * once the last reported completion is consumed.  The same counters and
 * report(), with one look at the slot (a message may be there already
 * under slack > 1); the end goes to the busy list only when its message
 * is not there yet, as needs_poll() would say.  Every other case goes to
 * start_one. */
static inline bool mca_pml_chan_request_start_recv_fast(mca_pml_chan_end_t *end)
{
    uint64_t n = end->nstart;
    char *slot;

    if (end->is_send || !end->bound || MCA_PML_CHAN_PATH_MAPPED != end->path ||
        !end->contiguous || end->large || end->credits || opal_using_threads() ||
        end->nconsumed + (end->pending_report &&
                          OMPI_REQUEST_INACTIVE == end->super.req_state) != n) {
        return false;
    }
    end->nconsumed = n;                 /* = ndone: every earlier one was reported */
    end->pending_report = false;
    end->nstart = n + 1;
    slot = mca_pml_chan_slot(end->mem, end, n);
    if (mca_common_ompix_atomic_load_acq_64((volatile uint64_t *) (slot + end->seq_off)) ==
        n + 1) {
        mca_pml_chan_copy(mca_pml_chan_user_buf(end, n), slot, end->bytes);
        end->ndone = n + 1;
    }
    if (mca_pml_chan_request_report(end)) {
        ompi_request_complete(&end->super, true);
    } else if (!end->busy) {
        mca_pml_chan_request_make_busy(end);
    }
    return true;
}

/* Out of line, so that the fast path of an MPI_Start saves no registers. */
static __opal_attribute_noinline__ int mca_pml_chan_request_start_all(size_t count,
                                                                      ompi_request_t **requests)
{
    for (size_t i = 0; i < count; ++i) {
        int ret;
        if (mca_pml_chan_request_start_fast((mca_pml_chan_end_t *) requests[i]) ||
            mca_pml_chan_request_start_recv_fast((mca_pml_chan_end_t *) requests[i])) {
            continue;
        }
        ret = mca_pml_chan_request_start_one((mca_pml_chan_end_t *) requests[i]);
        if (OMPI_SUCCESS != ret) {
            /* MPI_Start/MPI_Startall return req_start's error without
             * invoking the error handler. */
            return OMPI_ERRHANDLER_INVOKE(requests[i]->req_mpi_object.comm, ret,
                                          1 == count ? "MPI_Start" : "MPI_Startall");
        }
    }
    return OMPI_SUCCESS;
}

/* MPI_Startall hands us consecutive channel requests at once.  MPI_Start
 * of a fast_send end of a small message is start_fast written out with a
 * copy of fixed size and only tail calls (no stack frame). */
int mca_pml_chan_request_start(size_t count, ompi_request_t **requests)
{
    mca_pml_chan_end_t *end;
    uint64_t n, k;
    char *slot, *src;

    if (OPAL_UNLIKELY(1 != count)) {
        return mca_pml_chan_request_start_all(count, requests);
    }
    end = (mca_pml_chan_end_t *) requests[0];
    if (OPAL_UNLIKELY(!mca_pml_chan_request_fast_ok(end))) {
        return mca_pml_chan_request_start_all(count, requests);
    }
    n = end->nstart;
    k = n & end->slot_mask;             /* fast_send: slack is a power of two */
    slot = end->peer_mem + MCA_PML_CHAN_CTL + k * end->slot_size;
    src = end->buf + (ptrdiff_t) k * end->incr_bytes;
    switch (end->bytes) {
    case 8:
        memcpy(slot, src, 8);
        break;
    case 4:
        memcpy(slot, src, 4);
        break;
    case 16:
        memcpy(slot, src, 16);
        break;
    default:
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
    (void) mca_pml_chan_request_outstanding((mca_pml_chan_end_t *) request);
}

/* The usual wait: no threads (nothing else changes the end meanwhile, no
 * lock), a mapped contiguous receive end with a message outstanding.
 * One acquire load of the awaited slot's word; when it is there, the copy
 * of ring_recv_poll for that one message (later ones wait for the next
 * look or progress).  -1: not that case; 0: not there yet; 1: moved. */
static inline int mca_pml_chan_request_recv_fast(mca_pml_chan_end_t *end)
{
    uint64_t n = end->ndone;
    char *slot;

    if (opal_using_threads() || end->is_send || MCA_PML_CHAN_PATH_MAPPED != end->path ||
        !end->contiguous || end->large || n >= end->nstart) {
        return -1;
    }
    slot = mca_pml_chan_slot(end->mem, end, n);
    if (mca_common_ompix_atomic_load_acq_64((volatile uint64_t *) (slot + end->seq_off)) !=
        n + 1) {
        return 0;
    }
    mca_pml_chan_copy(mca_pml_chan_user_buf(end, n), slot, end->bytes);
    end->ndone = n + 1;
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
        return false;
    case 1:
        if (mca_pml_chan_request_report(end)) {
            ompi_request_complete(r, true);
        }
        return REQUEST_COMPLETE(r);
    default:
        break;
    }
    if (MCA_PML_CHAN_PATH_AM == end->path) {
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

/* The table's wait(): the extension's Wait wrappers, before Open MPI's
 * Wait, which then finds the request complete.  Looking at the end
 * itself detects the message a load after it landed, where Open MPI's
 * Wait would find it only in pml/chan's progress callback, after the
 * selected PML's progress of that sweep; opal_progress still runs every
 * MCA_PML_CHAN_POLLS_PER_PROGRESS looks (MPI's progress rule: other
 * messages, binds, continuations). */
void mca_pml_chan_request_wait(ompi_request_t *request)
{
    mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) request;
    unsigned int looks = 0;

    while (!mca_pml_chan_request_look(end)) {
        if (MCA_PML_CHAN_POLLS_PER_PROGRESS == ++looks) {
            looks = 0;
            opal_progress();
        }
    }
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

/* Moves data of one busy end and arms its request; under c->lock. */
static bool mca_pml_chan_request_poll(mca_pml_chan_end_t *end, bool *complete)
{
    if (opal_using_threads() && 0 != opal_mutex_trylock(&end->lock)) {
        return true;                    /* its thread is starting it: keep it */
    }
    if (end->is_send) {
        (void) mca_pml_chan_ring_send_poll(end);
    } else {
        (void) mca_pml_chan_ring_recv_poll(end);
    }
    *complete = mca_pml_chan_request_report(end);
    bool poll = mca_pml_chan_request_needs_poll(end);
    if (opal_using_threads()) {
        opal_mutex_unlock(&end->lock);
    }
    return poll;
}

int mca_pml_chan_progress(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_chan_end_t *done[MCA_PML_CHAN_PROGRESS_BATCH];
    opal_list_item_t *item, *next;
    int n = 0;

    /* An idle process pays this load. */
    if (0 == c->outstanding) {
        return 0;
    }
    if (opal_using_threads() && 0 != opal_mutex_trylock(&c->lock)) {
        return 0;                       /* another thread is at it */
    }
    if (c->have_put_ends) {
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
