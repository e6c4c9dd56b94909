/*
 * Copyright (c) 2026 The ompix developers.
 *
 * UCX resources of osc/rdma2: our own context and worker (independent of
 * the PML), brought up by common/ompix; the process state block; the
 * progress callback and the progress thread's poll.  The operations
 * themselves are the UCX path's (osc_rdma2_path_ucx.c).
 */
#include "ompi_config.h"

#include <string.h>
#include <unistd.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/mca/common/ompix/common_ompix_thread.h"

#include "osc_rdma2_am.h"
#include "osc_rdma2_component.h"
#include "osc_rdma2_request.h"

/* Open MPI calls this from every opal_progress, including the polling of
 * a rank that waits in a collective or a receive.  There ucp_worker_progress
 * is most of the cost (about 180 of 250 instructions per call, UCX 1.13,
 * shared memory and CMA): a waiting rank polled its own messages 2.3 times
 * less often than under osc sm, and kept the core busier for its peer.
 * Only windows where some peer reaches this process through UCX's
 * emulation (lock mode: TCP, memory that does not map; accumulates by
 * active messages) need our worker from every opal_progress.  With only
 * element-mode windows (every peer maps every block; our own operations
 * never go through UCX and complete in their calls) this callback is a
 * low-priority one (osc_rdma2_window.c:mca_osc_rdma2_progress_rate: every
 * 8th opal_progress) and polls the worker on every
 * MCA_OSC_RDMA2_QUIET_POLL-th call, for what UCX itself still has to do
 * (wire-up, keepalive); our waits progress the worker themselves. */
int mca_osc_rdma2_progress(void)
{
    static unsigned calls;
    int n = 0;

    if (!mca_osc_rdma2_component.ucx_ready) {
        return 0;
    }
    mca_common_ompix_thread_note_progress();
    if (0 != mca_osc_rdma2_component.loud_modules ||
        0 == (++calls % MCA_OSC_RDMA2_QUIET_POLL)) {
        n = (int) ucp_worker_progress(MCA_OSC_RDMA2_UCX->worker);
    }
    n += mca_osc_rdma2_am_drain();
    if (OPAL_UNLIKELY(!opal_lifo_is_empty(&mca_osc_rdma2_component.requests_acc) ||
                      !opal_lifo_is_empty(&mca_osc_rdma2_component.requests_done))) {
        n += mca_osc_rdma2_request_drain();     /* two calls of another file otherwise */
    }
    return n;
}

/* Our progress thread calls into the worker too. */
static bool mca_osc_rdma2_worker_shared(void)
{
    return mca_osc_rdma2_component.enable_mpi_threads ||
           MCA_OSC_RDMA2_THREAD_NEVER != mca_osc_rdma2_component.progress_thread;
}

/* The per-process state block (accumulate lock) lives for the whole run. */
static int mca_osc_rdma2_create_pstate(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;
    void *base = NULL;
    int ret;

    ret = mca_common_ompix_ucx_mem_map(MCA_OSC_RDMA2_UCX, NULL, sizeof(mca_osc_rdma2_pstate_t),
                                       true, &c->pstate_memh, &base);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    c->pstate = (mca_osc_rdma2_pstate_t *) base;
    memset(base, 0, sizeof(mca_osc_rdma2_pstate_t));
    ret = mca_osc_rdma2_ucx_rkey_pack(c->pstate_memh, &c->pstate_rkey, &c->pstate_rkey_len);
    if (OMPI_SUCCESS != ret) {
        ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, c->pstate_memh);
    }
    return ret;
}

/* Called by each window creation (collectively, under the component lock). */
int mca_osc_rdma2_ucx_init(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;
    /* Same-node peers use CPU atomics on the lock words directly; UCX's
     * own atomics on those words must be coherent with them. */
    const mca_common_ompix_ucx_params_t params = {
        .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 |
                    mca_osc_rdma2_am_features(),
        .multi_threaded = mca_osc_rdma2_worker_shared(),
        .cpu_atomics = true,
    };

    if (c->ucx_ready) {
        return OMPI_SUCCESS;
    }
    if (c->ucx_failed) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    c->ucx_failed = true;           /* until proven otherwise: tried once */
    if (OMPI_SUCCESS != mca_common_ompix_ucx_open(MCA_OSC_RDMA2_UCX, "osc/rdma2", &params)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    c->ucx_ready = true;
    c->pid = getpid();
    if (OMPI_SUCCESS != mca_osc_rdma2_create_pstate() || OMPI_SUCCESS != mca_osc_rdma2_am_init()) {
        c->ucx_ready = false;
        mca_common_ompix_ucx_close(MCA_OSC_RDMA2_UCX);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    c->ucx_failed = false;
    MCA_OSC_RDMA2_VERBOSE(10, "UCX context and worker created");
    return OMPI_SUCCESS;
}

/* The worker, and the accumulate state machines its callbacks made due:
 * a request-based accumulate advances while its origin computes outside
 * MPI (its request completes at the origin's next drain). */
static int mca_osc_rdma2_thread_poll(void *ctx)
{
    (void) ctx;
    return (int) ucp_worker_progress(MCA_OSC_RDMA2_UCX->worker) + mca_osc_rdma2_am_drain() +
           mca_osc_rdma2_request_advance(false);
}

void mca_osc_rdma2_ucx_fini(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;

    if (!c->ucx_ready) {
        return;
    }
    if (c->thread_polls) {
        mca_common_ompix_thread_remove(mca_osc_rdma2_thread_poll, NULL);
        c->thread_polls = false;
    }
    mca_osc_rdma2_am_fini();
    ucp_rkey_buffer_release(c->pstate_rkey);
    ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, c->pstate_memh);
    c->ucx_ready = false;
    mca_common_ompix_ucx_close(MCA_OSC_RDMA2_UCX);
}

/* ---------------------------------------------------------------------- */
/* The progress thread                                                     */

bool mca_osc_rdma2_thread_wanted(bool emulated)
{
    switch (mca_osc_rdma2_component.progress_thread) {
    case MCA_OSC_RDMA2_THREAD_NEVER:  return false;
    case MCA_OSC_RDMA2_THREAD_ALWAYS: return true;
    default:                  return emulated;
    }
}

/* Called under the component lock by window creation, collectively. */
int mca_osc_rdma2_thread_start(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;
    int ret;

    if (c->thread_polls) {
        return OMPI_SUCCESS;
    }
    ret = mca_common_ompix_thread_add(mca_osc_rdma2_thread_poll, NULL,
                                      (unsigned) c->thread_max_sleep);
    c->thread_polls = OMPI_SUCCESS == ret;
    MCA_OSC_RDMA2_VERBOSE(10, "progress thread polls our worker");
    return ret;
}

int mca_osc_rdma2_ucx_rkey_pack(ucp_mem_h memh, void **buf, size_t *len)
{
    return UCS_OK == ucp_rkey_pack(MCA_OSC_RDMA2_UCX->context, memh, buf, len) ? OMPI_SUCCESS
                                                                       : OMPI_ERROR;
}
