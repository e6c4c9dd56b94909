/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Passive target: the two-level lock, flush, sync, and the remote atomics
 * on state words they use.
 *
 * Lock words (docs/ARCHITECTURE.md): rank 0's `global` counts lock_all holders
 * in its high half and processes holding (or acquiring) an exclusive lock
 * in its low half; each target's `lock` word has the MCA_OSC_RDMA2_LOCK_EXCL bit
 * and a count of shared holders.  lock_all is one fetch-add on `global`;
 * a shared lock one fetch-add on the target; an exclusive lock a fetch-add
 * on `global` and a compare-and-swap on the target.  Every release is an
 * atomic add of the negated amount, never a store: others may be adding
 * to the same word at that moment.
 */
#include "ompi_config.h"

#include <stddef.h>

#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "osc_rdma2_passive.h"
#include "osc_rdma2_path_ucx.h"

#define MCA_OSC_RDMA2_WORD(field) offsetof(mca_osc_rdma2_state_t, field)
#define MCA_OSC_RDMA2_ACC_LOCK_WORD offsetof(mca_osc_rdma2_pstate_t, acc_lock)

/* ---------------------------------------------------------------------- */
/* Posted adds                                                             */

/* Adds whose answer nobody needs (lock releases, PSCW and fence
 * notifications) are not waited for at the target; the caller orders what
 * came before.  Except after mca_osc_rdma2_complete_before_release fenced
 * UCX operations instead of flushing them: waiting for this add then
 * completes them at the target, as unlock must. */
int mca_osc_rdma2_state_post(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_state_mem_t *mem,
                             size_t off, uint64_t value)
{
    if (OPAL_UNLIKELY(peer->release_waits)) {
        peer->release_waits = false;
        return mem->path->fadd(peer, mem, off, value, NULL);
    }
    return mem->path->post(peer, mem, off, value);
}

/* Waiting for someone else: progress everything (our worker included, so
 * emulated operations others direct at us still complete). */
static void mca_osc_rdma2_backoff(int *spins)
{
    int i, n = *spins < 64 ? ++*spins : 64;
    for (i = 0; i < n; ++i) {
        opal_progress();
    }
}

/* ---------------------------------------------------------------------- */
/* Completion                                                              */

/* The pending flags say whether *some* operation awaits a flush; with
 * several threads, another thread's flush may clear a flag before an
 * operation of ours issued after that flush began is complete (and we may
 * free its buffer).  So under MPI_THREAD_MULTIPLE every completion
 * flushes UCX, and the fence shortcut below is not taken. */
static bool mca_osc_rdma2_flags_trusted(void)
{
    return !mca_osc_rdma2_component.enable_mpi_threads;
}

int mca_osc_rdma2_complete_peer(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
{
    (void) module;
    /* Direct stores are ordered before the atomic release that follows
     * (a full fence is not needed: direct gets are done loads). */
    opal_atomic_wmb();
    if (!peer->ucx_pending && (mca_osc_rdma2_flags_trusted() || NULL == peer->ep)) {
        return OMPI_SUCCESS;
    }
    peer->ucx_pending = false;
    return mca_osc_rdma2_ucx_flush_ep(peer);
}

/* Before releasing a lock word of `peer`: when the release is a UCX atomic
 * and UCX operations are pending, a worker fence plus a release we wait
 * for (UCX completes at the target everything issued before the fence
 * before anything issued after it) costs one round trip where a flush and
 * the release would cost two; with nothing pending the release is posted
 * and costs none.  A CPU-atomic release needs the flush. */
int mca_osc_rdma2_complete_before_release(mca_osc_rdma2_module_t *module,
                                          mca_osc_rdma2_peer_t *peer, bool release_via_ucx)
{
    if (!release_via_ucx || !peer->ucx_pending || !mca_osc_rdma2_flags_trusted()) {
        return mca_osc_rdma2_complete_peer(module, peer);
    }
    peer->ucx_pending = false;
    peer->release_waits = true;
    return mca_osc_rdma2_ucx_fence();
}

int mca_osc_rdma2_complete_all(mca_osc_rdma2_module_t *module)
{
    int i, ret;

    opal_atomic_mb();
    if (!module->ucx_pending_any && mca_osc_rdma2_flags_trusted()) {
        return OMPI_SUCCESS;
    }
    module->ucx_pending_any = false;
    ret = mca_osc_rdma2_ucx_flush_worker();
    for (i = 0; i < module->size_comm; ++i) {
        if (NULL != module->peers[i]) {
            module->peers[i]->ucx_pending = false;
        }
    }
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Lock words                                                              */

static int mca_osc_rdma2_global_acquire(mca_osc_rdma2_module_t *module, uint64_t mine, uint64_t others)
{
    mca_osc_rdma2_peer_t *root;
    uint64_t old;
    int ret, spins = 0;

    ret = mca_osc_rdma2_peer(module, 0, &root);
    while (OMPI_SUCCESS == ret) {
        ret = root->state.path->fadd(root, &root->state, MCA_OSC_RDMA2_WORD(global), mine, &old);
        if (OMPI_SUCCESS != ret || 0 == (old & others)) {
            break;
        }
        /* The other kind holds it: withdraw and retry. */
        ret = root->state.path->fadd(root, &root->state, MCA_OSC_RDMA2_WORD(global), -mine, NULL);
        mca_osc_rdma2_backoff(&spins);
    }
    return ret;
}

static int mca_osc_rdma2_global_release(mca_osc_rdma2_module_t *module, uint64_t mine)
{
    mca_osc_rdma2_peer_t *root;
    int ret = mca_osc_rdma2_peer(module, 0, &root);
    return OMPI_SUCCESS == ret
        ? mca_osc_rdma2_state_post(root, &root->state, MCA_OSC_RDMA2_WORD(global), -mine)
        : ret;
}

static int mca_osc_rdma2_lock_exclusive(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
{
    uint64_t old;
    int ret, spins = 0;

    ret = mca_osc_rdma2_global_acquire(module, 1, ~MCA_OSC_RDMA2_LOW_MASK);
    while (OMPI_SUCCESS == ret) {
        ret = peer->state.path->cswap(peer, &peer->state, MCA_OSC_RDMA2_WORD(lock), 0,
                                      MCA_OSC_RDMA2_LOCK_EXCL, &old);
        if (OMPI_SUCCESS != ret || 0 == old) {
            break;
        }
        mca_osc_rdma2_backoff(&spins);
    }
    return ret;
}

static int mca_osc_rdma2_lock_shared(mca_osc_rdma2_peer_t *peer)
{
    uint64_t old;
    int ret, spins = 0;

    for (;;) {
        ret = peer->state.path->fadd(peer, &peer->state, MCA_OSC_RDMA2_WORD(lock), 1, &old);
        if (OMPI_SUCCESS != ret || 0 == (old & MCA_OSC_RDMA2_LOCK_EXCL)) {
            return ret;
        }
        ret = peer->state.path->fadd(peer, &peer->state, MCA_OSC_RDMA2_WORD(lock), -1, NULL);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        mca_osc_rdma2_backoff(&spins);
    }
}

int mca_osc_rdma2_lock(int lock_type, int target, int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_peer_t *peer;
    int ret;

    if (module->no_locks || module->lock_all || NULL != module->start_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = mca_osc_rdma2_peer(module, target, &peer);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (MCA_OSC_RDMA2_LOCK_NONE != peer->lock_type) {
        return OMPI_ERR_RMA_SYNC;
    }
    if (assert & MPI_MODE_NOCHECK) {
        peer->lock_type = MCA_OSC_RDMA2_LOCK_NOCHECK;
    } else if (MPI_LOCK_EXCLUSIVE == lock_type) {
        ret = mca_osc_rdma2_lock_exclusive(module, peer);
        peer->lock_type = MCA_OSC_RDMA2_LOCK_EXCLUSIVE;
    } else {
        ret = mca_osc_rdma2_lock_shared(peer);
        peer->lock_type = MCA_OSC_RDMA2_LOCK_SHARED;
    }
    if (OMPI_SUCCESS != ret) {
        peer->lock_type = MCA_OSC_RDMA2_LOCK_NONE;
        return ret;
    }
    OPAL_THREAD_ADD_FETCH32(&module->num_locks, 1);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_unlock(int target, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_peer_t *peer = module->peers[target];
    int ret, type;

    if (NULL == peer || MCA_OSC_RDMA2_LOCK_NONE == peer->lock_type) {
        return OMPI_ERR_RMA_SYNC;
    }
    type = peer->lock_type;
    ret = mca_osc_rdma2_complete_before_release(module, peer, MCA_OSC_RDMA2_LOCK_NOCHECK != type &&
                                                              peer->state.path->ucx);
    peer->lock_type = MCA_OSC_RDMA2_LOCK_NONE;
    OPAL_THREAD_ADD_FETCH32(&module->num_locks, -1);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (MCA_OSC_RDMA2_LOCK_SHARED == type) {
        return mca_osc_rdma2_state_post(peer, &peer->state, MCA_OSC_RDMA2_WORD(lock), -1);
    }
    if (MCA_OSC_RDMA2_LOCK_EXCLUSIVE == type) {
        ret = mca_osc_rdma2_state_post(peer, &peer->state, MCA_OSC_RDMA2_WORD(lock),
                                       -MCA_OSC_RDMA2_LOCK_EXCL);
        if (OMPI_SUCCESS == ret) {
            ret = mca_osc_rdma2_global_release(module, 1);
        }
    }
    return ret;
}

int mca_osc_rdma2_lock_all(int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    int ret = OMPI_SUCCESS;

    if (module->no_locks || module->lock_all || module->num_locks > 0 ||
        NULL != module->start_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    module->lock_all_nocheck = 0 != (assert & MPI_MODE_NOCHECK);
    if (!module->lock_all_nocheck) {
        ret = mca_osc_rdma2_global_acquire(module, MCA_OSC_RDMA2_GLOBAL_ALL, MCA_OSC_RDMA2_LOW_MASK);
    }
    module->lock_all = OMPI_SUCCESS == ret;
    return ret;
}

int mca_osc_rdma2_unlock_all(struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    int ret;

    if (!module->lock_all) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = mca_osc_rdma2_complete_all(module);
    module->lock_all = false;
    if (OMPI_SUCCESS == ret && !module->lock_all_nocheck) {
        ret = mca_osc_rdma2_global_release(module, MCA_OSC_RDMA2_GLOBAL_ALL);
    }
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Accumulate lock (per target process, shared by all its windows)         */

int mca_osc_rdma2_acc_lock(mca_osc_rdma2_peer_t *peer)
{
    uint64_t old;
    int ret, spins = 0;

    for (;;) {
        ret = peer->pstate.path->cswap(peer, &peer->pstate, MCA_OSC_RDMA2_ACC_LOCK_WORD, 0, 1,
                                       &old);
        if (OMPI_SUCCESS != ret || 0 == old) {
            return ret;
        }
        mca_osc_rdma2_backoff(&spins);
    }
}

int mca_osc_rdma2_acc_unlock(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
{
    (void) module;
    return mca_osc_rdma2_state_post(peer, &peer->pstate, MCA_OSC_RDMA2_ACC_LOCK_WORD, -1);
}

/* ---------------------------------------------------------------------- */
/* Flush and sync                                                          */

static bool mca_osc_rdma2_passive_target(mca_osc_rdma2_module_t *module, int target)
{
    mca_osc_rdma2_peer_t *peer = module->peers[target];
    return module->lock_all || (NULL != peer && MCA_OSC_RDMA2_LOCK_NONE != peer->lock_type);
}

int mca_osc_rdma2_flush(int target, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_peer_t *peer;
    int ret;

    /* Open MPI 4.1's flush bindings do not check the rank. */
    if (target < 0 || target >= module->size_comm) {
        return MPI_ERR_RANK;
    }
    if (!mca_osc_rdma2_passive_target(module, target)) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = mca_osc_rdma2_peer(module, target, &peer);
    return OMPI_SUCCESS == ret ? mca_osc_rdma2_complete_peer(module, peer) : ret;
}

int mca_osc_rdma2_flush_all(struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);

    if (!module->lock_all && 0 == module->num_locks) {
        return OMPI_ERR_RMA_SYNC;
    }
    return mca_osc_rdma2_complete_all(module);
}

/* UCX has no local-only completion: a put's request completing already
 * means the target has it, so the local forms are the remote ones. */
int mca_osc_rdma2_flush_local(int target, struct ompi_win_t *win)
{
    return mca_osc_rdma2_flush(target, win);
}

int mca_osc_rdma2_flush_local_all(struct ompi_win_t *win)
{
    return mca_osc_rdma2_flush_all(win);
}

int mca_osc_rdma2_sync(struct ompi_win_t *win)
{
    (void) win;
    /* Unified model: public and private copies are one; only order the
     * CPU's own loads and stores. */
    opal_atomic_mb();
    return OMPI_SUCCESS;
}
