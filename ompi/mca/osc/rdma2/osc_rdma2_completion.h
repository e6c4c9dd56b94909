/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Completion: when this rank's operations are complete at their targets.
 * Copies (mapped, CMA) and atomics are complete on return; puts and gets
 * through UCX are flagged pending in the window's synchronization object
 * and completed by endpoint or worker flushes; lock releases and
 * notifications are posted adds; fence and PSCW wait on counters in our
 * state block.
 */
#ifndef MCA_OSC_RDMA2_COMPLETION_H
#define MCA_OSC_RDMA2_COMPLETION_H

#include "osc_rdma2_peer.h"

BEGIN_C_DECLS

/* A UCX operation to `peer` was issued, or a request-based accumulate
 * toward it queued: the next flush must complete it.  Only completions
 * that first waited for the peer's accumulates clear the flags, so while
 * one is queued they stay set and no shortcut below skips it. */
static inline void mca_osc_rdma2_completion_issued(mca_osc_rdma2_peer_t *peer)
{
    peer->sync->ucx_pending = true;
    peer->module->sync.ucx_pending = true;
}

/* An accumulate went to `peer` as an active message: the next completion
 * must wait for its acknowledgement (osc_rdma2_am.c). */
static inline void mca_osc_rdma2_completion_am_issued(mca_osc_rdma2_peer_t *peer)
{
    peer->sync->am_pending = true;
    peer->module->sync.am_pending = true;
}

/* The pending flags say whether *some* operation awaits a flush; with
 * several threads, another thread's flush may clear a flag before an
 * operation of ours issued after that flush began is complete (and we may
 * free its buffer).  So under MPI_THREAD_MULTIPLE every completion
 * flushes UCX, and the fence shortcut below is not taken. */
static inline bool mca_osc_rdma2_flags_trusted(void)
{
    return !mca_osc_rdma2_component.enable_mpi_threads;
}

/* Completes our operations to one peer / to every peer of the window. */
int mca_osc_rdma2_complete_peer(mca_osc_rdma2_peer_t *peer);
/* The same, with the common case (nothing of ours pending through UCX or
 * as active messages)
 * inline for flush: a compiler barrier and two loads. */
static inline int mca_osc_rdma2_complete_peer_inline(mca_osc_rdma2_peer_t *peer)
{
    if (OPAL_LIKELY(0 == peer->sync->pending &&
                    (mca_osc_rdma2_flags_trusted() || NULL == peer->ep))) {
        opal_atomic_wmb();
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_complete_peer(peer);
}
int mca_osc_rdma2_complete_all(mca_osc_rdma2_module_t *module);
/* Before notifications that travel behind our UCX operations on the same
 * endpoints (PSCW complete by active messages): a worker fence instead of
 * the flush where UCX is done with every origin buffer and no get is
 * pending, so the notification does not wait for a round trip; after
 * waiting for accumulates the targets apply for us (those no fence
 * orders).  Otherwise as mca_osc_rdma2_complete_all. */
int mca_osc_rdma2_complete_all_ordered(mca_osc_rdma2_module_t *module);
/* Before a release of one of the peer's state words, when that release is
 * a UCX atomic (release_via_ucx): fences instead of flushing and makes the
 * release wait (see mca_osc_rdma2_posted_add). */
int mca_osc_rdma2_complete_before_release(mca_osc_rdma2_peer_t *peer, bool release_via_ucx);
/* MPI_Win_free: our operations, and adds still on their way, complete. */
int mca_osc_rdma2_complete_window(mca_osc_rdma2_module_t *module);
/* Adds to a state word whose result nobody needs (lock releases, PSCW
 * and fence notifications) are not waited for at the target; the caller
 * orders what came before.  Except after mca_osc_rdma2_complete_before_release
 * fenced UCX operations instead of flushing them: waiting for this add
 * then completes them at the target, as unlock must. */
static inline int mca_osc_rdma2_posted_add(mca_osc_rdma2_peer_t *peer,
                                           const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                           uint64_t value)
{
    if (OPAL_UNLIKELY(peer->sync->release_waits)) {
        peer->sync->release_waits = false;
        return mem->path->fadd(peer, mem, off, value, NULL);
    }
    return mem->path->post(peer, mem, off, value);
}
/* Waits until a counter in our own state block, raised by others,
 * reaches value. */
void mca_osc_rdma2_wait_ge(mca_osc_rdma2_module_t *module, volatile uint64_t *word,
                           uint64_t value);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_COMPLETION_H */
