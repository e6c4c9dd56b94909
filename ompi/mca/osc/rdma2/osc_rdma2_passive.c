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

#define MCA_OSC_RDMA2_STATE_ADDR(peer, field) \
    ((peer)->state + offsetof(mca_osc_rdma2_state_t, field))

/* ---------------------------------------------------------------------- */
/* Atomics on state words: CPU atomics when mapped, else UCX.              */

int mca_osc_rdma2_state_fadd(mca_osc_rdma2_peer_t *peer, volatile uint64_t *local_word,
                             uint64_t raddr, ucp_rkey_h rkey, uint64_t value, uint64_t *old)
{
    uint64_t prev;
    if (NULL != local_word) {
        prev = mca_common_ompix_atomic_fetch_add_64(local_word, value);
        if (NULL != old) *old = prev;
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_ucx_atomic(peer->ep, UCP_ATOMIC_OP_ADD, value, old, 8, raddr, rkey);
}

/* Adds whose answer nobody needs (lock releases, PSCW notifications) are
 * not waited for at the target; the caller orders what came before. */
int mca_osc_rdma2_state_post(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                             volatile uint64_t *local_word, uint64_t raddr, ucp_rkey_h rkey,
                             uint64_t value)
{
    if (NULL != local_word) {
        mca_common_ompix_atomic_add_rel_64(local_word, value);
        return OMPI_SUCCESS;
    }
    if (peer->release_waits) {
        /* Operations before it were only fenced: waiting for this one
         * completes them at the target, as unlock must. */
        peer->release_waits = false;
        return mca_osc_rdma2_ucx_atomic(peer->ep, UCP_ATOMIC_OP_ADD, value, NULL, 8, raddr,
                                        rkey);
    }
    /* Not complete at the target yet: MPI_Win_free waits for it, or it
     * could land on freed memory.  Flushes need not (no answer is due). */
    module->posts_pending = true;
    return mca_osc_rdma2_ucx_atomic_post(peer->ep, value, raddr, rkey);
}

int mca_osc_rdma2_state_cswap(mca_osc_rdma2_peer_t *peer, volatile uint64_t *local_word,
                              uint64_t raddr, ucp_rkey_h rkey, uint64_t compare, uint64_t swap,
                              uint64_t *old)
{
    if (NULL != local_word) {
        uint64_t expected = compare;
        (void) mca_common_ompix_atomic_cswap_64(local_word, &expected, swap);
        *old = expected;
        return OMPI_SUCCESS;
    }
    *old = swap;
    return mca_osc_rdma2_ucx_cswap(peer->ep, compare, old, 8, raddr, rkey);
}

#define MCA_OSC_RDMA2_FADD(peer, field, value, old)                                          \
    mca_osc_rdma2_state_fadd((peer), NULL != (peer)->state_ptr ? &(peer)->state_ptr->field \
                                                               : NULL,                \
                             MCA_OSC_RDMA2_STATE_ADDR(peer, field), (peer)->state_rkey, (value), (old))

#define MCA_OSC_RDMA2_POST(module, peer, field, value)                                       \
    mca_osc_rdma2_state_post((module), (peer), NULL != (peer)->state_ptr ? &(peer)->state_ptr->field \
                                                                  : NULL,              \
                                MCA_OSC_RDMA2_STATE_ADDR(peer, field), (peer)->state_rkey, (value))

#define MCA_OSC_RDMA2_CSWAP(peer, field, compare, swap, old)                                  \
    mca_osc_rdma2_state_cswap((peer), NULL != (peer)->state_ptr ? &(peer)->state_ptr->field \
                                                                : NULL,               \
                              MCA_OSC_RDMA2_STATE_ADDR(peer, field), (peer)->state_rkey,      \
                              (compare), (swap), (old))

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
    return mca_osc_rdma2_ucx_flush_ep(peer->ep);
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
    return UCS_OK == ucp_worker_fence(MCA_OSC_RDMA2_UCX->worker) ? OMPI_SUCCESS
                                                                         : OMPI_ERROR;
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
        ret = MCA_OSC_RDMA2_FADD(root, global, mine, &old);
        if (OMPI_SUCCESS != ret || 0 == (old & others)) {
            break;
        }
        /* The other kind holds it: withdraw and retry. */
        ret = MCA_OSC_RDMA2_FADD(root, global, -mine, NULL);
        mca_osc_rdma2_backoff(&spins);
    }
    return ret;
}

static int mca_osc_rdma2_global_release(mca_osc_rdma2_module_t *module, uint64_t mine)
{
    mca_osc_rdma2_peer_t *root;
    int ret = mca_osc_rdma2_peer(module, 0, &root);
    return OMPI_SUCCESS == ret ? MCA_OSC_RDMA2_POST(module, root, global, -mine) : ret;
}

static int mca_osc_rdma2_lock_exclusive(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
{
    uint64_t old;
    int ret, spins = 0;

    ret = mca_osc_rdma2_global_acquire(module, 1, ~MCA_OSC_RDMA2_LOW_MASK);
    while (OMPI_SUCCESS == ret) {
        ret = MCA_OSC_RDMA2_CSWAP(peer, lock, 0, MCA_OSC_RDMA2_LOCK_EXCL, &old);
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
        ret = MCA_OSC_RDMA2_FADD(peer, lock, 1, &old);
        if (OMPI_SUCCESS != ret || 0 == (old & MCA_OSC_RDMA2_LOCK_EXCL)) {
            return ret;
        }
        ret = MCA_OSC_RDMA2_FADD(peer, lock, -1, NULL);
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
                                                              NULL == peer->state_ptr);
    peer->lock_type = MCA_OSC_RDMA2_LOCK_NONE;
    OPAL_THREAD_ADD_FETCH32(&module->num_locks, -1);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (MCA_OSC_RDMA2_LOCK_SHARED == type) {
        return MCA_OSC_RDMA2_POST(module, peer, lock, -1);
    }
    if (MCA_OSC_RDMA2_LOCK_EXCLUSIVE == type) {
        ret = MCA_OSC_RDMA2_POST(module, peer, lock, -MCA_OSC_RDMA2_LOCK_EXCL);
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
        if (NULL != peer->pstate_ptr) {
            old = 0;
            if (mca_common_ompix_atomic_cswap_acq_64(&peer->pstate_ptr->acc_lock, &old, 1)) {
                return OMPI_SUCCESS;
            }
        } else {
            old = 1;
            ret = mca_osc_rdma2_ucx_cswap(peer->ep, 0, &old, 8, peer->pstate, peer->pstate_rkey);
            if (OMPI_SUCCESS != ret || 0 == old) {
                return ret;
            }
        }
        mca_osc_rdma2_backoff(&spins);
    }
}

int mca_osc_rdma2_acc_unlock(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
{
    return mca_osc_rdma2_state_post(module, peer, NULL != peer->pstate_ptr
                                                 ? &peer->pstate_ptr->acc_lock : NULL,
                                       peer->pstate, peer->pstate_rkey, -1);
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
