/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPI_Start/MPI_Startall of a channel (req_start): the general start
 * (start_one: under the end's lock, through the end's path, then
 * report()), and the shortcuts that serve the usual cases without a lock,
 * a call or a stack frame: a mapped ready or standard send's fast start, a
 * receive's start that only counts, a stream's later starts, and, on the
 * AM and TAG paths, the path's start_now.
 */
#include "ompi_config.h"

#include "opal/util/show_help.h"
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/common/ompix/common_ompix_compat_errhandler.h"

#include "pml_chan_path.h"
#include "pml_chan_request.h"

/* A start's own step, the slack checked: the message written (send: as
 * far as the flow control allows) or the receive posted and credited,
 * then what arrived taken; a failed write leaves nstart as it was. */
static inline int mca_pml_chan_request_step(mca_pml_chan_end_t *end)
{
    int ret = OMPI_SUCCESS;

    ++end->nstart;
    if (end->is_send) {
        ret = mca_pml_chan_ring_send(end);
    } else {
        mca_pml_chan_ring_recv_post(end);
        (void) mca_pml_chan_ring_recv_take(end);
    }
    if (OMPI_SUCCESS != ret) {
        --end->nstart;
    }
    return ret;
}

/* The general start: under the end's lock, the slack and (debug_ready)
 * the ready mode checked, the message written (send: as far as credits
 * allow) or the receive posted and credited through the end's path
 * (pml_chan_ring.c), then report(); the end joins the busy list while
 * something is left for progress. */
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
    } else if (end->is_send && MCA_PML_CHAN_MODE_READY == end->spec.req.send_mode &&
               end->credits &&
               !mca_pml_chan_ring_credit_ok(end, end->nstart)) {
        opal_show_help("help-pml-chan.txt", "ready before receive", true,
                       ompi_comm_rank(end->spec.req.comm), end->spec.req.peer,
                       end->spec.req.tag, (unsigned long long) end->nstart);
        ret = MPI_ERR_OTHER;
    } else {
        ret = mca_pml_chan_request_step(end);
        if (OMPI_SUCCESS != ret) {
            ret = MPI_ERR_OTHER;
        } else {
            complete = mca_pml_chan_request_report(end) || complete;
        }
    }
    /* 5.0: an armed request shown ACTIVE once the slack is used up. */
    mca_common_ompix_request_reshow(&end->super, &end->show, mca_pml_chan_request_room(end));
    /* Credits owed (pml_chan_pair.c) go at the latest from progress. */
    poll = mca_pml_chan_request_needs_poll(end) || end->credit_owed;
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
    return OMPI_REQUEST_INACTIVE == mca_pml_chan_request_state(end) &&
           mca_pml_chan_request_idle_counts(end);
}

/* start_one for an idle fast_send end (pml_chan_path_mapped.c's connect):
 * the same steps, with what can not happen left out.  The message is
 * written and done at once, so the request is armed and complete; no lock
 * (no threads), no progress to ask for.  Every other case goes to
 * start_one. */
static inline bool mca_pml_chan_request_fast_ok(mca_pml_chan_end_t *end)
{
    return end->fast_send && mca_pml_chan_request_idle(end) &&
           mca_pml_chan_end_slot_free(end, end->nstart);
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

/* An idle fast_recv or am_recv end (flagged by the mapped, AM or TAG
 * path's connect) still bound. */
static inline bool mca_pml_chan_request_recv_ok(const mca_pml_chan_end_t *end)
{
    return (end->fast_recv || end->am_recv) && end->bound && mca_pml_chan_request_idle(end);
}

/* start_one for a receive end that recv_ok() accepts: no lock (no
 * threads), no recv_post, no credit (such an end has none: a standard
 * channel's flow control is the slot's word, zeroed when the message is
 * taken); report() and needs_poll() reduced to their outcome.  The request is
 * armed (active) and pending, without a look at the slot: on a ready
 * channel message n is sent only after receive n started (MPI's ready
 * mode), so it can not be there yet, and a standard channel's message
 * that came first (an erroneous early one of a ready channel too) is
 * taken by the Wait/Test look or progress all the same.  The end must be in the
 * busy list, where it usually is already (the look or progress that took
 * the previous message left it there: mca_pml_chan_progress_end).  Every
 * call a tail call: no stack frame. */
static inline int mca_pml_chan_request_start_recv(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;
    uint64_t n = end->nstart;

    end->nconsumed = n;                 /* = ndone: every earlier one was reported */
    end->nstart = n + 1;
    mca_common_ompix_request_arm_idle(r, &end->show, mca_pml_chan_request_room(end));
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
 * for one more (under slack K > 1; the caller checked active); a send
 * whose earlier messages are all written and whose slot is free (tested
 * in start_more).  A send is
 * written and done at once, so the request keeps reporting the older one;
 * a receive is only counted (the Wait/Test look or progress moves its
 * data in order; on the TAG path it posts the receive first).  Either way the end stays in
 * the busy list, as start_one would leave it, so that progress presents
 * the next start once the older one is consumed. */
static inline bool mca_pml_chan_request_more_ok(mca_pml_chan_end_t *end)
{
    return end->nstart - end->nconsumed < end->slack &&
           (end->fast_send ? end->nwritten == end->nstart
                           : (end->fast_recv || end->am_recv) && end->bound);
}

/* A start's own error, reported once: by us where the caller (the
 * req_start's return address) does not report req_start's error
 * (common_ompix_compat_request.h). */
static int mca_pml_chan_request_start_failed(ompi_request_t *req, int ret, const void *caller)
{
    return mca_common_ompix_request_start_error(req->req_mpi_object.comm, ret, caller,
                                                "the channel's start failed");
}

/* A stream's later send whose slot is not free yet (a standard channel's
 * message n - K not taken): the general start (written from progress once
 * it is free).  Out of line: start_more's tail call. */
static __opal_attribute_noinline__ int mca_pml_chan_request_start_later(mca_pml_chan_end_t *end,
                                                                        const void *caller)
{
    int ret = mca_pml_chan_request_start_one(end);

    return OMPI_SUCCESS == ret ? ret : mca_pml_chan_request_start_failed(&end->super, ret, caller);
}

/* The end of start_more: message n started (and, a send, written). */
static inline int mca_pml_chan_request_more_done(mca_pml_chan_end_t *end, uint64_t n)
{
    if (end->is_send) {
        end->nwritten = end->ndone = n + 1;
    }
    end->nstart = n + 1;
    /* 5.0: shown ACTIVE once the slack is used up (the next start refused). */
    mca_common_ompix_request_reshow(&end->super, &end->show, mca_pml_chan_request_room(end));
    if (OPAL_UNLIKELY(!end->busy)) {
        return mca_pml_chan_request_make_busy(end);
    }
    return OMPI_SUCCESS;
}

/* start_more's send of a size the small copy does not take: out of line,
 * so that start_more itself calls nothing (no registers to save). */
static __opal_attribute_noinline__ int
mca_pml_chan_request_more_big(mca_pml_chan_end_t *end, uint64_t n, char *slot, const char *src)
{
    memcpy(slot, src, end->bytes);
    mca_common_ompix_atomic_store_rel_64((volatile uint64_t *) (slot + end->seq_off), n + 1);
    return mca_pml_chan_request_more_done(end, n);
}

/* The slot of a send is tested here, where its address is computed for
 * the write anyway (a fast_send end: K slots and slack a power of two, so
 * the slot's index is the buffer's, k); caller: the req_start's return
 * address, for an error's report. */
static __opal_attribute_noinline__ int mca_pml_chan_request_start_more(mca_pml_chan_end_t *end,
                                                                       const void *caller)
{
    uint64_t n = end->nstart;

    if (end->is_send) {
        uint64_t k = n & end->slot_mask;
        char *slot = end->peer_mem + MCA_PML_CHAN_CTL + k * end->slot_size;
        const char *src = end->buf + (ptrdiff_t) k * end->incr_bytes;
        volatile uint64_t *word = (volatile uint64_t *) (slot + end->seq_off);
        if (OPAL_UNLIKELY(!mca_pml_chan_word_free(word))) {
            return mca_pml_chan_request_start_later(end, caller);
        }
        if (OPAL_LIKELY(8 == end->bytes)) {
            memcpy(slot, src, 8);
        } else if (!mca_pml_chan_copy_small(slot, src, end->bytes)) {
            return mca_pml_chan_request_more_big(end, n, slot, src);
        }
        mca_common_ompix_atomic_store_rel_64(word, n + 1);
    }
    return mca_pml_chan_request_more_done(end, n);
}

/* start_one for an idle end (no start outstanding, every completion
 * consumed: a bundle's round, MPI_Startall of a halo) of a process
 * without threads, when no shortcut took it (a synchronous channel, a
 * credited or non-contiguous one, a large one): report()'s count of the
 * consumption written out, the slack not checked (nothing is outstanding)
 * and no lock; the rest as start_one.  Not a ready send under
 * pml_chan_debug_ready (start_one checks its receive). */
static inline bool mca_pml_chan_request_idle_ok(const mca_pml_chan_end_t *end)
{
    return end->bound && !opal_using_threads() && mca_pml_chan_request_idle(end) &&
           !(end->is_send && end->credits && MCA_PML_CHAN_MODE_READY == end->spec.req.send_mode);
}

static int mca_pml_chan_request_start_idle(mca_pml_chan_end_t *end)
{
    bool complete;
    int ret = OMPI_SUCCESS;

    end->nconsumed = end->nstart;
    end->pending_report = false;
    ret = mca_pml_chan_request_step(end);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) {
        return MPI_ERR_OTHER;
    }
    complete = mca_pml_chan_request_report(end);
    mca_common_ompix_request_reshow(&end->super, &end->show, mca_pml_chan_request_room(end));
    if (mca_pml_chan_request_needs_poll(end) || end->credit_owed) {
        (void) mca_pml_chan_request_make_busy(end);
    }
    if (complete) {
        ompi_request_complete(&end->super, true);
    }
    return OMPI_SUCCESS;
}

/* Out of line, so that the fast path of an MPI_Start saves no registers.
 * caller: the req_start's return address (who reports an error). */
static __opal_attribute_noinline__ int mca_pml_chan_request_start_all(size_t count,
                                                                      ompi_request_t **requests,
                                                                      const void *caller)
{
    for (size_t i = 0; i < count; ++i) {
        mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) requests[i];
        int ret;
        if (mca_pml_chan_request_start_fast(end)) {
            continue;
        }
        if (OMPI_REQUEST_ACTIVE == mca_pml_chan_request_state(end) &&
            mca_pml_chan_request_more_ok(end)) {
            ret = mca_pml_chan_request_start_more(end, caller);
            if (OMPI_SUCCESS != ret) {
                return ret;
            }
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
        ret = mca_pml_chan_request_idle_ok(end) ? mca_pml_chan_request_start_idle(end)
                                                : mca_pml_chan_request_start_one(end);
        if (OMPI_SUCCESS != ret) {
            return mca_pml_chan_request_start_failed(requests[i], ret, caller);
        }
    }
    return OMPI_SUCCESS;
}

/* MPI_Start of anything but an idle fast_send end (state: the request's).
 * Inactive: an idle receive end that recv_ok() accepts; active (armed for
 * an older start): a stream's later start.  Only tail calls. */
static inline int mca_pml_chan_request_start_other(mca_pml_chan_end_t *end,
                                                   ompi_request_state_t state,
                                                   ompi_request_t **requests,
                                                   const void *caller)
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
        return mca_pml_chan_request_start_more(end, caller);
    }
    return mca_pml_chan_request_start_all(1, requests, caller);
}

/* 5.0, slack > 1: fast_done may park the request, which asks whose rules
 * apply (mca_pml_chan_request_own, a call); out of line, so that the fast
 * start of a slack-1 channel needs no stack frame (there, a start leaves
 * no room: nothing parks). */
static __opal_attribute_noinline__ int mca_pml_chan_request_fast_parks(mca_pml_chan_end_t *end,
                                                                       uint64_t n)
{
    if (mca_pml_chan_request_fast_done(end, n)) {
        return mca_pml_chan_request_fast_complete(&end->super);
    }
    return OMPI_SUCCESS;
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
    volatile uint64_t *word;

    if (OPAL_UNLIKELY(1 != count)) {
        return mca_pml_chan_request_start_all(count, requests, MCA_COMMON_OMPIX_REQUEST_CALLER());
    }
    end = (mca_pml_chan_end_t *) requests[0];
    /* req_state is volatile: one load for every test of it. */
    state = mca_pml_chan_request_state(end);
    if (OPAL_UNLIKELY(!end->fast_send || OMPI_REQUEST_INACTIVE != state ||
                      !mca_pml_chan_request_idle_counts(end))) {
        return mca_pml_chan_request_start_other(end, state, requests,
                                                MCA_COMMON_OMPIX_REQUEST_CALLER());
    }
    n = end->nstart;
    /* fast_send: slack is a power of two and the receiver's ring has K
     * slots, so the slot's index is the buffer's. */
    k = n & end->slot_mask;
    slot = end->peer_mem + MCA_PML_CHAN_CTL + k * end->slot_size;
    word = (volatile uint64_t *) (slot + end->seq_off);
    if (OPAL_UNLIKELY(!mca_pml_chan_word_free(word))) {
        /* n - K not taken */
        return mca_pml_chan_request_start_all(count, requests, MCA_COMMON_OMPIX_REQUEST_CALLER());
    }
    src = end->buf + (ptrdiff_t) k * end->incr_bytes;
    /* 8 bytes (a double: the usual message) laid out straight through, the
     * other small sizes a jump away. */
    if (OPAL_LIKELY(8 == end->bytes)) {
        memcpy(slot, src, 8);
    } else if (!mca_pml_chan_copy_small(slot, src, end->bytes)) {
        return mca_pml_chan_request_start_all(count, requests, MCA_COMMON_OMPIX_REQUEST_CALLER());
    }
    mca_common_ompix_atomic_store_rel_64(word, n + 1);
    if (OPAL_UNLIKELY(MCA_COMMON_OMPIX_REQUEST_PARKS && 1 != end->slack)) {
        return mca_pml_chan_request_fast_parks(end, n);
    }
    if (mca_pml_chan_request_fast_done(end, n)) {
        return mca_pml_chan_request_fast_complete(&end->super);
    }
    return OMPI_SUCCESS;
}

/* The table's start_round (version 5): a layer's round of channels, each
 * given the layer's completion callback, then started as MPI_Startall
 * starts them (start_all: the shortcuts, start_idle, start_one).  Checked
 * first, so that a request not ours is refused before anything is set. */
int mca_pml_chan_request_start_round(size_t count, ompi_request_t **requests,
                                     int (*cb)(ompi_request_t *chan), void *cb_data)
{
    for (size_t i = 0; i < count; ++i) {
        if (NULL == requests[i] || mca_pml_chan_request_start != requests[i]->req_start) {
            return MPI_ERR_REQUEST;
        }
    }
    for (size_t i = 0; i < count; ++i) {
        requests[i]->req_complete_cb_data = cb_data;
        requests[i]->req_complete_cb = cb;
    }
    return 0 == count ? OMPI_SUCCESS : mca_pml_chan_request_start_all(count, requests,
                                                                  MCA_COMMON_OMPIX_REQUEST_CALLER());
}
