/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Passive target: the two-level lock, the accumulate lock, flush and sync.
 *
 * Lock words (docs/ARCHITECTURE.md): rank 0's `global` counts lock_all
 * holders in its high half and processes holding (or acquiring) an
 * exclusive lock in its low half; each target's `lock` word has the
 * MCA_OSC_RDMA2_LOCK_EXCL bit and a count of shared holders.  lock_all is
 * one fetch-add on `global`; a shared lock one fetch-add on the target; an
 * exclusive lock a fetch-add on `global` and a compare-and-swap on the
 * target.  Every release is an atomic add of the negated amount, never a
 * store: others may be adding to the same word at that moment.  The words
 * are reached through the peer's state-word path (osc_rdma2_path.h); the
 * epochs are kept in the window's synchronization object.
 */
#include "ompi_config.h"

#include <stddef.h>

#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"

#include "osc_rdma2_completion.h"
#include "osc_rdma2_passive.h"
#include "osc_rdma2_path_mapped.h"

#define MCA_OSC_RDMA2_WORD(field) offsetof(mca_osc_rdma2_state_t, field)
#define MCA_OSC_RDMA2_ACC_LOCK_WORD offsetof(mca_osc_rdma2_pstate_t, acc_lock)

/* Waiting for someone else: progress everything (our worker included, so
 * emulated operations others direct at us still complete).  The first
 * backoff of an acquisition counts one lock wait (MPI_T, osc_rdma2_mpit.c):
 * only a busy lock pays for it.  It takes the peer whose lock is busy,
 * which the caller keeps anyway (passing the window kept one more register
 * alive through the uncontended path). */
static __opal_attribute_noinline__ void mca_osc_rdma2_backoff(mca_osc_rdma2_peer_t *peer,
                                                              int *spins)
{
    int i, n;

    if (0 == *spins) {
        opal_atomic_add_fetch_64(&peer->module->mpit.lock_waits, 1);
    }
    n = *spins < 64 ? ++*spins : 64;
    for (i = 0; i < n; ++i) {
        opal_progress();
    }
}

/* ---------------------------------------------------------------------- */
/* Lock words                                                              */

static int mca_osc_rdma2_global_acquire(mca_osc_rdma2_module_t *module, uint64_t mine,
                                        uint64_t others)
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
        mca_osc_rdma2_backoff(root, &spins);
    }
    return ret;
}

static int mca_osc_rdma2_global_release(mca_osc_rdma2_module_t *module, uint64_t mine)
{
    mca_osc_rdma2_peer_t *root;
    int ret = mca_osc_rdma2_peer(module, 0, &root);

    return OMPI_SUCCESS == ret
        ? mca_osc_rdma2_posted_add(root, &root->state, MCA_OSC_RDMA2_WORD(global), -mine)
        : ret;
}

static __opal_attribute_noinline__ int
mca_osc_rdma2_lock_exclusive(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
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
        mca_osc_rdma2_backoff(peer, &spins);
    }
    return ret;
}

/* A fetch-add on one of the peer's lock words: inline when they are
 * mapped (the indirect call would cost about what the CPU atomic does). */
static inline int mca_osc_rdma2_lock_word_fadd(mca_osc_rdma2_peer_t *peer, size_t off,
                                               uint64_t value, uint64_t *old)
{
    if (OPAL_LIKELY(NULL != peer->state.ptr)) {
        *old = mca_common_ompix_atomic_fetch_add_64(mca_osc_rdma2_mapped_word(&peer->state, off),
                                                    value);
        return OMPI_SUCCESS;
    }
    return peer->state.path->fadd(peer, &peer->state, off, value, old);
}

static int mca_osc_rdma2_lock_shared(mca_osc_rdma2_peer_t *peer)
{
    uint64_t old;
    int ret, spins = 0;

    for (;;) {
        ret = mca_osc_rdma2_lock_word_fadd(peer, MCA_OSC_RDMA2_WORD(lock), 1, &old);
        if (OMPI_SUCCESS != ret || 0 == (old & MCA_OSC_RDMA2_LOCK_EXCL)) {
            return ret;
        }
        ret = peer->state.path->fadd(peer, &peer->state, MCA_OSC_RDMA2_WORD(lock), -1, NULL);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        mca_osc_rdma2_backoff(peer, &spins);
    }
}

/* The release of what `access` took on the peer's lock words. */
static int mca_osc_rdma2_lock_release(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                      int access)
{
    int ret;

    switch (access) {
    case MCA_OSC_RDMA2_ACCESS_SHARED:
        return mca_osc_rdma2_posted_add(peer, &peer->state, MCA_OSC_RDMA2_WORD(lock), -1);
    case MCA_OSC_RDMA2_ACCESS_EXCLUSIVE:
        ret = mca_osc_rdma2_posted_add(peer, &peer->state, MCA_OSC_RDMA2_WORD(lock),
                                       -MCA_OSC_RDMA2_LOCK_EXCL);
        return OMPI_SUCCESS == ret ? mca_osc_rdma2_global_release(module, 1) : ret;
    default:                        /* NOCHECK: nothing was taken */
        return OMPI_SUCCESS;
    }
}

int mca_osc_rdma2_lock(int lock_type, int target, int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_sync_t *sync = &module->sync;
    mca_osc_rdma2_sync_target_t *t = &sync->target[target];
    mca_osc_rdma2_peer_t *peer;
    int ret, access;

    if (module->no_locks || MCA_OSC_RDMA2_SYNC_NONE != sync->type ||
        mca_osc_rdma2_sync_fence_access(sync)) {
        return OMPI_ERR_RMA_SYNC;       /* lock_all, a PSCW or a fence access epoch is open */
    }
    ret = mca_osc_rdma2_peer(module, target, &peer);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (MCA_OSC_RDMA2_ACCESS_NONE != t->access) {
        return OMPI_ERR_RMA_SYNC;
    }
    if (assert & MPI_MODE_NOCHECK) {
        access = MCA_OSC_RDMA2_ACCESS_NOCHECK;
    } else if (MPI_LOCK_EXCLUSIVE == lock_type) {
        access = MCA_OSC_RDMA2_ACCESS_EXCLUSIVE;
        ret = mca_osc_rdma2_lock_exclusive(module, peer);
    } else {
        access = MCA_OSC_RDMA2_ACCESS_SHARED;
        ret = mca_osc_rdma2_lock_shared(peer);
    }
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    t->access = (uint8_t) access;
    OPAL_THREAD_ADD_FETCH32(&sync->num_locks, 1);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_unlock(int target, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_sync_t *sync = &module->sync;
    mca_osc_rdma2_peer_t *peer = module->peers[target];
    int ret, access;

    if (!mca_osc_rdma2_sync_locked(sync, target)) {
        return OMPI_ERR_RMA_SYNC;
    }
    access = sync->target[target].access;
    if (OPAL_LIKELY(MCA_OSC_RDMA2_ACCESS_SHARED == access && NULL != peer->state.ptr &&
                    !peer->sync->release_waits)) {
        /* Mapped lock word: complete, then one release add, inline. */
        ret = mca_osc_rdma2_complete_peer_inline(peer);
        sync->target[target].access = MCA_OSC_RDMA2_ACCESS_NONE;
        OPAL_THREAD_ADD_FETCH32(&sync->num_locks, -1);
        if (OMPI_SUCCESS == ret) {
            mca_common_ompix_atomic_add_rel_64(
                mca_osc_rdma2_mapped_word(&peer->state, MCA_OSC_RDMA2_WORD(lock)), (uint64_t) -1);
        }
        return ret;
    }
    ret = mca_osc_rdma2_complete_before_release(peer, MCA_OSC_RDMA2_ACCESS_NOCHECK != access &&
                                                          peer->state.path->ucx);
    sync->target[target].access = MCA_OSC_RDMA2_ACCESS_NONE;
    OPAL_THREAD_ADD_FETCH32(&sync->num_locks, -1);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    return mca_osc_rdma2_lock_release(module, peer, access);
}

int mca_osc_rdma2_lock_all(int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_sync_t *sync = &module->sync;
    int ret = OMPI_SUCCESS;

    if (module->no_locks || mca_osc_rdma2_sync_open(sync) ||
        mca_osc_rdma2_sync_fence_access(sync)) {
        return OMPI_ERR_RMA_SYNC;
    }
    sync->nocheck = 0 != (assert & MPI_MODE_NOCHECK);
    if (!sync->nocheck) {
        ret = mca_osc_rdma2_global_acquire(module, MCA_OSC_RDMA2_GLOBAL_ALL,
                                           MCA_OSC_RDMA2_LOW_MASK);
    }
    if (OMPI_SUCCESS == ret) {
        sync->type = MCA_OSC_RDMA2_SYNC_LOCK_ALL;
    }
    return ret;
}

int mca_osc_rdma2_unlock_all(struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_sync_t *sync = &module->sync;
    int ret;

    if (MCA_OSC_RDMA2_SYNC_LOCK_ALL != sync->type) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = mca_osc_rdma2_complete_all(module);
    sync->type = MCA_OSC_RDMA2_SYNC_NONE;
    if (OMPI_SUCCESS == ret && !sync->nocheck) {
        ret = mca_osc_rdma2_global_release(module, MCA_OSC_RDMA2_GLOBAL_ALL);
    }
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Accumulate lock (per target process, shared by all its windows)         */

/* Our threads take turns before contending for a process's accumulate
 * lock: one of them at a time tries the word, the others sleep on a
 * mutex.  Without turns, under MPI_THREAD_MULTIPLE every thread of every
 * origin retried its compare-and-swap with a backoff of up to 64
 * opal_progress calls, each fighting the others for the worker's lock:
 * the word was free most of the time while all waiters sat in their
 * backoff, and the holder's own flush and release waited for the
 * worker's lock behind them (rma_threads np=2 over TCP: 20-40 s per 480
 * accumulates, past the test's timeout now and then). */
static opal_mutex_t *mca_osc_rdma2_acc_turn(const mca_osc_rdma2_peer_t *peer)
{
    ompi_proc_t *proc = ompi_comm_peer_lookup(peer->module->comm, peer->rank);

    return &mca_osc_rdma2_component.acc_turn[proc->super.proc_name.vpid %
                                             MCA_OSC_RDMA2_ACC_TURNS];
}

int mca_osc_rdma2_acc_lock(mca_osc_rdma2_peer_t *peer)
{
    opal_mutex_t *turn = mca_osc_rdma2_acc_turn(peer);
    uint64_t old;
    int ret, spins = 0;

    /* Accumulates we sent it as active messages come first (MPI's
     * accumulate ordering), before our turn: waiting for their
     * acknowledgements progresses our worker, which must not wait for the
     * turn of another thread of ours. */
    if (NULL != peer->acc) {
        ret = peer->acc->complete(peer);
        if (OMPI_SUCCESS != ret) return ret;
    }
    OPAL_THREAD_LOCK(turn);
    for (;;) {
        ret = peer->pstate.path->cswap(peer, &peer->pstate, MCA_OSC_RDMA2_ACC_LOCK_WORD, 0, 1,
                                       &old);
        if (OMPI_SUCCESS != ret || 0 == old) {
            break;
        }
        mca_osc_rdma2_backoff(peer, &spins);
    }
    if (OMPI_SUCCESS != ret) {
        OPAL_THREAD_UNLOCK(turn);
    }
    return ret;
}

int mca_osc_rdma2_acc_unlock(mca_osc_rdma2_peer_t *peer)
{
    int ret = mca_osc_rdma2_posted_add(peer, &peer->pstate, MCA_OSC_RDMA2_ACC_LOCK_WORD, -1);

    OPAL_THREAD_UNLOCK(mca_osc_rdma2_acc_turn(peer));
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Flush and sync                                                          */

int mca_osc_rdma2_flush(int target, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_peer_t *peer;
    int ret;

    /* Open MPI 4.1's flush bindings do not check the rank. */
    if (target < 0 || target >= module->size_comm) {
        return MPI_ERR_RANK;
    }
    if (!mca_osc_rdma2_sync_passive(&module->sync, target)) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = mca_osc_rdma2_peer(module, target, &peer);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != ret)) return ret;
    return mca_osc_rdma2_complete_peer_inline(peer);
}

int mca_osc_rdma2_flush_all(struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_sync_t *sync = &module->sync;

    if (MCA_OSC_RDMA2_SYNC_LOCK_ALL != sync->type && 0 == sync->num_locks) {
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
