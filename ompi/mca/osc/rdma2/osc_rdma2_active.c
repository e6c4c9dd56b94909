/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Active target: fence (complete our operations, then a barrier on the
 * window's private communicator) and post/start/complete/wait/test.
 *
 * PSCW uses monotonically increasing counters, no slots and no retries:
 * a target's post adds 1 to posted[target] in each origin's state block;
 * an origin's start waits until posted[t] exceeds the number of epochs it
 * has started toward t.  complete adds 1 to each target's `complete`
 * word after flushing; wait waits until `complete` reaches the number of
 * origins of all exposure epochs posted so far.  A target can not post
 * epoch e+1 to an origin before that origin completed epoch e, so the
 * counters never run ahead of the epoch they stand for.
 */
#include "ompi_config.h"

#include <stddef.h>

#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"

#include "osc_rdma2.h"

int mca_osc_rdma2_fence(int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);
    ompi_communicator_t *comm = module->comm;
    int ret = OMPI_SUCCESS;

    if (module->lock_all || module->num_locks > 0 || NULL != module->start_group ||
        NULL != module->post_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    /* NOPRECEDE: nothing of ours to complete.  The barrier stays: the
     * targets' own loads and stores of the previous epoch must be done
     * before anyone's operations of the next one land. */
    if (!(assert & MPI_MODE_NOPRECEDE)) {
        ret = mca_osc_rdma2_complete_all(module);
    }
    if (OMPI_SUCCESS == ret) {
        ret = comm->c_coll->coll_barrier(comm, comm->c_coll->coll_barrier_module);
    }
    opal_atomic_mb();
    /* NOSUCCEED: no epoch follows, so operations until the next
     * synchronization are erroneous (MPI_ERR_RMA_SYNC). */
    module->fence_active = !(assert & MPI_MODE_NOSUCCEED);
    return ret;
}

/* Ranks of `group` in the window's communicator. */
static int rdma2_group_ranks(mca_osc_rdma2_module_t *module, ompi_group_t *group, int **ranks)
{
    int n = ompi_group_size(group), i, ret;
    int *in = calloc(n + 1, sizeof(int));

    *ranks = malloc((n + 1) * sizeof(int));
    if (NULL == in || NULL == *ranks) {
        free(in);
        free(*ranks);
        *ranks = NULL;
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (i = 0; i < n; ++i) {
        in[i] = i;
    }
    ret = ompi_group_translate_ranks(group, n, in, module->comm->c_local_group, *ranks);
    free(in);
    for (i = 0; OMPI_SUCCESS == ret && i < n; ++i) {
        if (MPI_UNDEFINED == (*ranks)[i]) {
            ret = MPI_ERR_GROUP;
        }
    }
    if (OMPI_SUCCESS != ret) {
        free(*ranks);
        *ranks = NULL;
    }
    return ret;
}

int mca_osc_rdma2_post(struct ompi_group_t *group, int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);
    mca_osc_rdma2_peer_t *peer;
    int *ranks, n, i, ret;

    if (NULL != module->post_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = rdma2_group_ranks(module, group, &ranks);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    n = ompi_group_size(group);
    OBJ_RETAIN(group);
    module->post_group = group;
    module->complete_expected += n;
    /* Our own stores to the window must be visible before anyone starts. */
    opal_atomic_mb();
    for (i = 0; i < n && OMPI_SUCCESS == ret && !(assert & MPI_MODE_NOCHECK); ++i) {
        ret = mca_osc_rdma2_peer(module, ranks[i], &peer);
        if (OMPI_SUCCESS == ret) {
            ret = mca_osc_rdma2_state_fadd(
                peer, NULL != peer->state_ptr ? &peer->state_ptr->posted[module->my_rank] : NULL,
                peer->state + offsetof(mca_osc_rdma2_state_t, posted) +
                    module->my_rank * sizeof(uint64_t),
                peer->state_rkey, 1, NULL);
        }
    }
    free(ranks);
    return ret;
}

int mca_osc_rdma2_start(struct ompi_group_t *group, int assert, struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);
    mca_osc_rdma2_peer_t *peer;
    int *ranks, n, i, ret;

    if (NULL != module->start_group || module->lock_all || module->num_locks > 0) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = rdma2_group_ranks(module, group, &ranks);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    n = ompi_group_size(group);
    for (i = 0; i < n && OMPI_SUCCESS == ret; ++i) {
        ret = mca_osc_rdma2_peer(module, ranks[i], &peer);
        if (OMPI_SUCCESS != ret) {
            break;
        }
        if (!(assert & MPI_MODE_NOCHECK)) {
            /* posted[] is written by the targets into our own state block. */
            while (module->state->posted[ranks[i]] <= peer->starts) {
                opal_progress();
            }
            peer->starts++;
        }
        peer->starts_open = true;
    }
    if (OMPI_SUCCESS != ret) {
        free(ranks);
        return ret;
    }
    opal_atomic_rmb();
    OBJ_RETAIN(group);
    module->start_group = group;
    module->start_ranks = ranks;
    module->start_count = n;
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_complete(struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);
    int i, ret, ret2;

    if (NULL == module->start_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    ret = mca_osc_rdma2_complete_all(module);
    for (i = 0; i < module->start_count; ++i) {
        mca_osc_rdma2_peer_t *peer = module->peers[module->start_ranks[i]];
        peer->starts_open = false;
        ret2 = mca_osc_rdma2_state_fadd(peer, NULL != peer->state_ptr ? &peer->state_ptr->complete
                                                                      : NULL,
                                        peer->state + offsetof(mca_osc_rdma2_state_t, complete),
                                        peer->state_rkey, 1, NULL);
        ret = OMPI_SUCCESS != ret ? ret : ret2;
    }
    free(module->start_ranks);
    module->start_ranks = NULL;
    module->start_count = 0;
    OBJ_RELEASE(module->start_group);
    module->start_group = NULL;
    return ret;
}

static bool rdma2_exposure_done(mca_osc_rdma2_module_t *module)
{
    return module->state->complete >= module->complete_expected;
}

static void rdma2_exposure_end(mca_osc_rdma2_module_t *module)
{
    opal_atomic_rmb();
    OBJ_RELEASE(module->post_group);
    module->post_group = NULL;
}

int mca_osc_rdma2_wait(struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);

    if (NULL == module->post_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    while (!rdma2_exposure_done(module)) {
        opal_progress();
    }
    rdma2_exposure_end(module);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_test(struct ompi_win_t *win, int *flag)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);

    if (NULL == module->post_group) {
        return OMPI_ERR_RMA_SYNC;
    }
    opal_progress();
    *flag = rdma2_exposure_done(module);
    if (*flag) {
        rdma2_exposure_end(module);
    }
    return OMPI_SUCCESS;
}
