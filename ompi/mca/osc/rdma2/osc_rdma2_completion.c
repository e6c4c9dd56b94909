/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Completion of this rank's operations (osc_rdma2_completion.h): flushes
 * of one peer or of all, completion before a release (and, inline in the
 * header, the posted adds that follow), and the waits for counters others
 * raise in our state block.
 */
#include "ompi_config.h"

#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"

#include "osc_rdma2_accumulate.h"
#include "osc_rdma2_am.h"
#include "osc_rdma2_completion.h"
#include "osc_rdma2_path_ucx.h"

/* The parts that reach UCX are out of line, so that the shortcuts need
 * no stack frame.  A request-based accumulate keeps its target's and its
 * window's ucx_pending set (mca_osc_rdma2_completion_issued): those parts
 * finish it before they flush. */
static __opal_attribute_noinline__ int mca_osc_rdma2_complete_peer_ucx(mca_osc_rdma2_peer_t *peer)
{
    if (OPAL_UNLIKELY(NULL != peer->sync->acc_running)) {
        mca_osc_rdma2_acc_wait_peer(peer);
    }
    peer->sync->ucx_pending = false;
    return mca_osc_rdma2_ucx_flush_ep(peer);
}

/* Accumulates the peer applies from our active messages: wait for their
 * acknowledgements (flags are not trusted with several threads). */
static int mca_osc_rdma2_complete_am(mca_osc_rdma2_peer_t *peer)
{
    mca_osc_rdma2_sync_target_t *t = peer->sync;

    if (NULL == peer->acc || (!t->am_pending && mca_osc_rdma2_flags_trusted())) {
        return OMPI_SUCCESS;
    }
    t->am_pending = false;
    return peer->acc->complete(peer);
}

int mca_osc_rdma2_complete_peer(mca_osc_rdma2_peer_t *peer)
{
    mca_osc_rdma2_sync_target_t *t = peer->sync;
    int ret;

    /* Direct stores are ordered before the atomic release that follows
     * (a full fence is not needed: direct gets are done loads). */
    opal_atomic_wmb();
    ret = mca_osc_rdma2_complete_am(peer);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (!t->ucx_pending && (mca_osc_rdma2_flags_trusted() || NULL == peer->ep)) {
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_complete_peer_ucx(peer);
}

static __opal_attribute_noinline__ int
mca_osc_rdma2_fence_before_release(mca_osc_rdma2_peer_t *peer)
{
    if (OPAL_UNLIKELY(NULL != peer->sync->acc_running)) {
        mca_osc_rdma2_acc_wait_peer(peer);
    }
    peer->sync->ucx_pending = false;
    peer->sync->release_waits = true;
    return mca_osc_rdma2_ucx_fence();
}

/* Before releasing a lock word of `peer`: when the release is a UCX atomic
 * and UCX operations are pending, a worker fence plus a release we wait
 * for (UCX completes at the target everything issued before the fence
 * before anything issued after it) costs one round trip where a flush and
 * the release would cost two; with nothing pending the release is posted
 * and costs none.  A CPU-atomic release needs the flush. */
int mca_osc_rdma2_complete_before_release(mca_osc_rdma2_peer_t *peer, bool release_via_ucx)
{
    mca_osc_rdma2_sync_target_t *t = peer->sync;
    int ret;

    /* Active messages are applied by the target, not ordered by a fence. */
    ret = mca_osc_rdma2_complete_am(peer);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (!release_via_ucx || !t->ucx_pending || !mca_osc_rdma2_flags_trusted()) {
        return mca_osc_rdma2_complete_peer(peer);
    }
    return mca_osc_rdma2_fence_before_release(peer);
}

/* Flushes the endpoint of every peer with UCX operations pending (of
 * every peer that has one, when `all`), not the worker: see
 * osc_rdma2_path_ucx.h for why a worker flush of UCX 1.13 does not do. */
static int mca_osc_rdma2_complete_eps(mca_osc_rdma2_module_t *module, bool all)
{
    mca_osc_rdma2_ucx_flushes_t flushes = { .count = 0, .ret = OMPI_SUCCESS };
    mca_osc_rdma2_peer_t *peer;
    int i;

    for (i = 0; i < module->size_comm; ++i) {
        bool pending = module->sync.target[i].ucx_pending;

        module->sync.target[i].ucx_pending = false;
        peer = module->peers[i];
        if (NULL != peer && NULL != peer->ep && (all || pending)) {
            mca_osc_rdma2_ucx_flush_start(&flushes, peer);
        }
    }
    return mca_osc_rdma2_ucx_flush_wait(&flushes);
}

/* Accumulates others apply for us: state machines first (one queued
 * behind active messages waits for their acknowledgements before it locks,
 * mca_osc_rdma2_acc_op_step), then the active messages' acknowledgements
 * (flags are not trusted with several threads).  No fence orders these. */
static int mca_osc_rdma2_complete_applied(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_sync_t *sync = &module->sync;
    int i, ret = OMPI_SUCCESS;

    if (OPAL_UNLIKELY(0 != sync->acc_running)) {
        mca_osc_rdma2_acc_wait_all(module);
    }
    opal_atomic_mb();
    if (sync->am_pending || !mca_osc_rdma2_flags_trusted()) {
        sync->am_pending = false;
        ret = mca_osc_rdma2_am_complete_all(module);
        for (i = 0; i < module->size_comm; ++i) {
            sync->target[i].am_pending = false;
        }
    }
    return ret;
}

static __opal_attribute_noinline__ int mca_osc_rdma2_complete_all_ucx(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_sync_t *sync = &module->sync;
    int ret = mca_osc_rdma2_complete_applied(module);

    if (OMPI_SUCCESS != ret || (!sync->ucx_pending && mca_osc_rdma2_flags_trusted())) {
        return ret;
    }
    sync->ucx_pending = false;
    sync->ucx_waiting = false;
    return mca_osc_rdma2_complete_eps(module, !mca_osc_rdma2_flags_trusted());
}

int mca_osc_rdma2_complete_all(mca_osc_rdma2_module_t *module)
{
    opal_atomic_mb();
    if (!module->sync.ucx_pending && !module->sync.am_pending && mca_osc_rdma2_flags_trusted()) {
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_complete_all_ucx(module);
}

int mca_osc_rdma2_complete_all_ordered(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_sync_t *sync = &module->sync;
    int ret;

    opal_atomic_mb();
    if (!sync->ucx_pending || sync->ucx_waiting || !mca_osc_rdma2_flags_trusted()) {
        return mca_osc_rdma2_complete_all(module);
    }
    ret = mca_osc_rdma2_complete_applied(module);
    /* The pending flags stay: the operations are ordered, not complete,
     * and the next flush must still complete them. */
    return OMPI_SUCCESS == ret ? mca_osc_rdma2_ucx_fence() : ret;
}

int mca_osc_rdma2_complete_window(mca_osc_rdma2_module_t *module)
{
    int ret = mca_osc_rdma2_complete_all(module);

    /* Posted adds are not complete at the target yet: they could land on
     * memory freed after this.  Flushes need not wait for them (no answer
     * is due), so only free does. */
    if (OMPI_SUCCESS == ret && module->sync.posts_pending) {
        ret = mca_osc_rdma2_complete_eps(module, true);
    }
    return ret;
}

/* Plain loads see direct peers' stores; a progress call now and then
 * serves peers that reach us through UCX and the rest of MPI (a peer may
 * wait in the PML for us).  A progress call costs a few hundred ns, the
 * arrival it delays too, so when every peer is mapped (element mode)
 * progress is rare; in lock mode our worker is the arrival. */
void mca_osc_rdma2_wait_ge(mca_osc_rdma2_module_t *module, volatile uint64_t *word,
                           uint64_t value)
{
    const int spins = MCA_OSC_RDMA2_ACC_ELEMENT == module->acc_mode ? 1 << 14 : 256;
    int i;

    if (MCA_OSC_RDMA2_ACC_LOCK == module->acc_mode) {
        /* Some peer's notifications reach us through UCX: they land only
         * when our worker progresses, so poll it on every turn (loads in
         * between would only wait), and the rest of MPI now and then. */
        for (i = 0; *word < value; ++i) {
            if (0 == (i & 63)) {
                opal_progress();
            } else {
                ucp_worker_progress(MCA_OSC_RDMA2_UCX->worker);
                mca_osc_rdma2_am_drain();
            }
        }
        opal_atomic_rmb();
        return;
    }
    while (*word < value) {
        for (i = 0; i < spins && *word < value; ++i) {
        }
        if (*word < value) {
            opal_progress();
        }
    }
    opal_atomic_rmb();
}
