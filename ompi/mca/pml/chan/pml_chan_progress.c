/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan's progress callback: drives the busy ends (data to move,
 * completions to present) and, with nothing outstanding, now and then
 * pml/chan's worker.
 */
#include "ompi_config.h"

#include "pml_chan_path.h"
#include "pml_chan_request.h"

#define MCA_PML_CHAN_PROGRESS_BATCH 16

/* Moves data of one busy end and arms its request; under c->lock.  True:
 * keep it listed. */
static bool mca_pml_chan_progress_end(mca_pml_chan_end_t *end, bool *complete)
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

/* The walk over the busy ends.  It must not nest: a credit or "gone"
 * sent on its own (mca_pml_chan_ring_credit_send from a receive end's
 * recv_poll) waits for its active message to leave with
 * opal_common_ucx_wait_request, which over TCP, when the socket did not
 * take it at once, runs opal_progress and so this callback again.  A
 * nested walk removed ends the outer one was about to visit (its `next`),
 * and the outer one then removed them a second time: the list lost ends
 * still marked busy, whose sends (a credit landed, the message done)
 * nobody looked at again, a hang (test/bundle/bundle_dissem.c, 3 ranks
 * over TCP).  The nested call only lets the wait run the worker, which it
 * does itself.  With threads the component's lock (a trylock, not
 * recursive) already keeps a nested call out. */
static int mca_pml_chan_progress_walk(mca_pml_chan_component_t *c)
{
    mca_pml_chan_end_t *done[MCA_PML_CHAN_PROGRESS_BATCH];
    opal_list_item_t *item, *next;
    int n = 0;

    c->walking = true;
    OPAL_LIST_FOREACH_SAFE(item, next, &c->busy, opal_list_item_t) {
        mca_pml_chan_end_t *end = (mca_pml_chan_end_t *)
            ((char *) item - offsetof(mca_pml_chan_end_t, busy_item));
        bool complete = false;
        if (!mca_pml_chan_progress_end(end, &complete)) {
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
    c->walking = false;
    if (opal_using_threads()) {
        opal_mutex_unlock(&c->lock);
    }
    /* Completion callbacks (a bundle starting its next round) may start
     * ends and progress again: the walk is over. */
    for (int i = 0; i < n; ++i) {
        ompi_request_complete(&done[i]->super, true);
    }
    return n;
}

int mca_pml_chan_progress(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    /* An idle process pays this load (and, with ends on UCX, a test). */
    if (0 == c->outstanding) {
        return OPAL_LIKELY(!c->have_worker_ends) ? 0 : mca_pml_chan_progress_idle(c);
    }
    if (opal_using_threads() && 0 != opal_mutex_trylock(&c->lock)) {
        return 0;                       /* another thread is at it */
    }
    if (OPAL_UNLIKELY(c->walking)) {
        return 0;                       /* nested, from a wait inside the walk */
    }
    if (c->have_worker_ends) {
        (void) ucp_worker_progress(c->ucx.worker);
    }
    return mca_pml_chan_progress_walk(c);
}
