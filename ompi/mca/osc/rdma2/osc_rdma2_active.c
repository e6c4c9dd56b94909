/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Active target: fence (complete our operations, then a barrier over
 * words in the state blocks) and post/start/complete/wait/test.
 *
 * PSCW uses monotonically increasing counters, no slots and no retries:
 * a target's post adds 1 to posted[target] in each origin's state block;
 * an origin's start waits until posted[t] exceeds the number of epochs it
 * has started toward t.  complete adds 1 to each target's `complete`
 * word after flushing (or, when every target is notified by active
 * messages, after a fence: the message follows the puts on the same
 * endpoint); wait waits until `complete` reaches the number of
 * origins of all exposure epochs posted so far.  A target can not post
 * epoch e+1 to an origin before that origin completed epoch e, so the
 * counters never run ahead of the epoch they stand for.  The epochs
 * themselves are kept in the window's synchronization object.
 */
#include "ompi_config.h"

#include <stddef.h>

#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "osc_rdma2_active.h"
#include "osc_rdma2_am.h"
#include "osc_rdma2_completion.h"

#define MCA_OSC_RDMA2_WORD(field) offsetof(mca_osc_rdma2_state_t, field)

/* Dissemination barrier: in round k each rank raises round k's counter of
 * rank + 2^k and waits for its own to reach the number of fences entered.
 * Only rank - 2^k raises a rank's round-k counter, once per fence, so the
 * counters never need resetting and a rank already in the next fence can
 * only make a wait succeed that its own previous increment satisfied.
 * A CPU atomic add (release order) on one node; a posted UCX add otherwise
 * (ordered after the flush that precedes it). */
static int mca_osc_rdma2_fence_barrier(mca_osc_rdma2_module_t *module)
{
    int p = module->size_comm, me = module->my_rank, k, d, ret = OMPI_SUCCESS;
    uint64_t epoch = ++module->sync.fence_epoch;
    mca_osc_rdma2_peer_t *peer;

    for (k = 0, d = 1; d < p && OMPI_SUCCESS == ret; ++k, d <<= 1) {
        ret = mca_osc_rdma2_peer(module, (me + d) % p, &peer);
        if (OMPI_SUCCESS == ret) {
            ret = mca_osc_rdma2_posted_add(peer, &peer->state,
                                           MCA_OSC_RDMA2_WORD(fence_round) +
                                               k * sizeof(uint64_t), 1);
        }
        if (OMPI_SUCCESS == ret) {
            mca_osc_rdma2_wait_ge(module, &module->state->fence_round[k], epoch);
        }
    }
    return ret;
}

/* When every peer is mapped and the ranks fit in one cache line, they
 * meet on rank 0's meeting line instead: each stores the number of fences
 * it entered into its word, then waits for every word to reach it.  A rank
 * sees everybody with one line transfer, where dissemination moves the
 * line of each counter both ways and takes a locked add (put + fence
 * ping-pong on 2 ranks here: 0.22 against 0.49 us).  Words only grow, and
 * a rank already in the next fence has a larger one, so no reset is needed. */
static void mca_osc_rdma2_fence_meet(mca_osc_rdma2_module_t *module)
{
    uint64_t epoch = ++module->sync.fence_epoch;

    mca_common_ompix_atomic_store_rel_64(&module->fence_meet[module->my_rank], epoch);
    for (int j = 0; j < module->size_comm; ++j) {
        mca_osc_rdma2_wait_ge(module, &module->fence_meet[j], epoch);
    }
}

int mca_osc_rdma2_fence(int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_sync_t *sync = &module->sync;
    int ret = OMPI_SUCCESS;

    if (mca_osc_rdma2_sync_open(sync) || NULL != sync->post_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    /* NOPRECEDE: nothing of ours to complete.  The barrier stays: the
     * targets' own loads and stores of the previous epoch must be done
     * before anyone's operations of the next one land. */
    if (!(assert & MPI_MODE_NOPRECEDE)) {
        ret = mca_osc_rdma2_complete_all(module);
    }
    if (OMPI_SUCCESS == ret && NULL != module->fence_meet) {
        mca_osc_rdma2_fence_meet(module);
    } else if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_fence_barrier(module);
    }
    opal_atomic_mb();
    /* NOSUCCEED: no epoch follows, so operations until the next
     * synchronization are erroneous (MPI_ERR_RMA_SYNC). */
    sync->fence = !(assert & MPI_MODE_NOSUCCEED);
    sync->fence_used = false;
    return ret;
}

/* A PSCW notification to `peer`: an active message its handler turns into
 * the add where UCX would emulate the atomic (one message instead of an
 * exchange), else a posted add on the state path. */
static int mca_osc_rdma2_pscw_notify(mca_osc_rdma2_peer_t *peer, int which, size_t off)
{
    if (0 != peer->notify_addr[0]) {
        return mca_osc_rdma2_am_notify(peer, which);
    }
    return mca_osc_rdma2_posted_add(peer, &peer->state, off, 1);
}

/* Ranks of `group` in the window's communicator, translated once per
 * group and kept in `cache` while the same group comes again. */
static int mca_osc_rdma2_group_ranks(mca_osc_rdma2_module_t *module,
                                     mca_osc_rdma2_group_cache_t *cache, ompi_group_t *group,
                                     int **ranks)
{
    int n = ompi_group_size(group), i, ret;
    int *in, *out;

    if (cache->group == group) {
        *ranks = cache->ranks;
        return OMPI_SUCCESS;
    }
    in = calloc(n + 1, sizeof(int));
    out = malloc((n + 1) * sizeof(int));
    if (NULL == in || NULL == out) {
        free(in);
        free(out);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (i = 0; i < n; ++i) {
        in[i] = i;
    }
    ret = ompi_group_translate_ranks(group, n, in, module->comm->c_local_group, out);
    free(in);
    for (i = 0; OMPI_SUCCESS == ret && i < n; ++i) {
        if (MPI_UNDEFINED == out[i]) {
            ret = MPI_ERR_GROUP;
        }
    }
    if (OMPI_SUCCESS != ret) {
        free(out);
        return ret;
    }
    mca_osc_rdma2_group_cache_clear(cache);
    OBJ_RETAIN(group);
    cache->group = group;
    cache->ranks = *ranks = out;
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_post(struct ompi_group_t *group, int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_sync_t *sync = &module->sync;
    mca_osc_rdma2_peer_t *peer;
    int *ranks, n, i, ret;

    if (NULL != sync->post_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = mca_osc_rdma2_group_ranks(module, &sync->post_cache, group, &ranks);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    n = ompi_group_size(group);
    OBJ_RETAIN(group);
    sync->post_group = group;
    sync->complete_expected += n;
    /* Our own stores to the window must be visible before anyone starts. */
    opal_atomic_mb();
    for (i = 0; i < n && OMPI_SUCCESS == ret && !(assert & MPI_MODE_NOCHECK); ++i) {
        ret = mca_osc_rdma2_peer(module, ranks[i], &peer);
        if (OMPI_SUCCESS == ret) {
            ret = mca_osc_rdma2_pscw_notify(peer, MCA_OSC_RDMA2_AM_NOTIFY_POSTED,
                                            module->layout.posted +
                                                module->my_rank * sizeof(uint64_t));
        }
    }
    return ret;
}

int mca_osc_rdma2_start(struct ompi_group_t *group, int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_sync_t *sync = &module->sync;
    mca_osc_rdma2_sync_target_t *t;
    mca_osc_rdma2_peer_t *peer;
    int *ranks, n, i, ret;

    if (mca_osc_rdma2_sync_open(sync)) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = mca_osc_rdma2_group_ranks(module, &sync->start_cache, group, &ranks);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    n = ompi_group_size(group);
    sync->start_by_am = true;
    for (i = 0; i < n && OMPI_SUCCESS == ret; ++i) {
        ret = mca_osc_rdma2_peer(module, ranks[i], &peer);
        if (OMPI_SUCCESS != ret) {
            break;
        }
        sync->start_by_am = sync->start_by_am && 0 != peer->notify_addr[0];
        t = &sync->target[ranks[i]];
        if (!(assert & MPI_MODE_NOCHECK)) {
            /* posted[] is written by the targets into our own state block. */
            mca_osc_rdma2_wait_ge(module, &module->posted[ranks[i]], ++t->starts);
        }
        t->access = MCA_OSC_RDMA2_ACCESS_PSCW;
    }
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    opal_atomic_rmb();
    OBJ_RETAIN(group);
    sync->start_group = group;
    sync->start_ranks = ranks;
    sync->start_count = n;
    sync->type = MCA_OSC_RDMA2_SYNC_PSCW;
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_complete(struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_sync_t *sync = &module->sync;
    int i, ret, ret2;

    if (MCA_OSC_RDMA2_SYNC_PSCW != sync->type) {
        return OMPI_ERR_RMA_SYNC;
    }
    /* Every target notified by active messages: each message goes behind
     * our puts to its target on one endpoint, so ordering them suffices.
     * A CPU add (mapped state words) needs the puts complete first. */
    ret = sync->start_by_am ? mca_osc_rdma2_complete_all_ordered(module)
                            : mca_osc_rdma2_complete_all(module);
    for (i = 0; i < sync->start_count; ++i) {
        mca_osc_rdma2_peer_t *peer = module->peers[sync->start_ranks[i]];
        sync->target[sync->start_ranks[i]].access = MCA_OSC_RDMA2_ACCESS_NONE;
        ret2 = mca_osc_rdma2_pscw_notify(peer, MCA_OSC_RDMA2_AM_NOTIFY_COMPLETE,
                                         MCA_OSC_RDMA2_WORD(complete));
        ret = OMPI_SUCCESS != ret ? ret : ret2;
    }
    sync->start_ranks = NULL;       /* owned by start_cache */
    sync->start_count = 0;
    OBJ_RELEASE(sync->start_group);
    sync->start_group = NULL;
    sync->type = MCA_OSC_RDMA2_SYNC_NONE;
    return ret;
}

static bool mca_osc_rdma2_exposure_done(mca_osc_rdma2_module_t *module)
{
    return module->state->complete >= module->sync.complete_expected;
}

static void mca_osc_rdma2_exposure_end(mca_osc_rdma2_module_t *module)
{
    opal_atomic_rmb();
    OBJ_RELEASE(module->sync.post_group);
    module->sync.post_group = NULL;
}

int mca_osc_rdma2_wait(struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);

    if (NULL == module->sync.post_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    mca_osc_rdma2_wait_ge(module, &module->state->complete, module->sync.complete_expected);
    mca_osc_rdma2_exposure_end(module);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_test(struct ompi_win_t *win, int *flag)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);

    if (NULL == module->sync.post_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    opal_progress();
    *flag = mca_osc_rdma2_exposure_done(module);
    if (*flag) {
        mca_osc_rdma2_exposure_end(module);
    }
    return OMPI_SUCCESS;
}
