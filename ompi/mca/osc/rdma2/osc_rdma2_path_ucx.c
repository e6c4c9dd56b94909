/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The UCX path: ucp_put_nbx/ucp_get_nbx and UCX atomics on the peer's
 * endpoint (opal's common/ucx for the fetching atomics and flushes,
 * common/ompix's posted add).  Puts and gets are released at once and
 * completed by the next flush of the endpoint (never of the worker: see
 * osc_rdma2_path_ucx.h), or, for Rput/Rget, by their own callback.  Over transports without RMA (TCP,
 * registered memory on one node) UCX 1.13 emulates all of this with
 * active messages that the target's worker must progress.
 */
#include "ompi_config.h"

#include <string.h>

#include "osc_rdma2_component.h"
#include "osc_rdma2_completion.h"
#include "osc_rdma2_path_ucx.h"
#include "osc_rdma2_peer.h"
#include "osc_rdma2_request.h"

#define MCA_OSC_RDMA2_WORKER (MCA_OSC_RDMA2_UCX->worker)

static int mca_osc_rdma2_ucx_rma(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                                 mca_osc_rdma2_request_t *req, bool is_put, void *local,
                                 uint64_t raddr, size_t len)
{
    ucp_request_param_t param;
    ucs_status_ptr_t sp;

    memset(&param, 0, sizeof(param));
    if (NULL != req) {
        /* Rput/Rget: the piece's own callback completes the request. */
        param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
        param.cb.send = mca_osc_rdma2_request_piece_cb;
        param.user_data = req;
        opal_atomic_add_fetch_32(&req->outstanding, 1);
    }
    sp = is_put ? ucp_put_nbx(peer->ep, local, len, raddr, mem->rkey, &param)
                : ucp_get_nbx(peer->ep, local, len, raddr, mem->rkey, &param);
    mca_osc_rdma2_completion_issued(peer);
    if (!is_put || UCS_PTR_IS_PTR(sp)) {
        /* A fence orders it but does not complete it here. */
        peer->module->sync.ucx_waiting = true;
    }
    if (NULL != req) {
        if (UCS_PTR_IS_PTR(sp)) {
            return OMPI_SUCCESS;            /* the callback frees it */
        }
        opal_atomic_add_fetch_32(&req->outstanding, -1);
        return UCS_PTR_IS_ERR(sp) ? OMPI_ERROR : OMPI_SUCCESS;
    }
    return mca_common_ompix_ucx_release(sp);
}

static int mca_osc_rdma2_ucx_put(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                                 mca_osc_rdma2_request_t *req, const void *local, uint64_t raddr,
                                 size_t len)
{
    return mca_osc_rdma2_ucx_rma(peer, mem, req, true, (void *) local, raddr, len);
}

static int mca_osc_rdma2_ucx_get(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                                 mca_osc_rdma2_request_t *req, void *local, uint64_t raddr,
                                 size_t len)
{
    return mca_osc_rdma2_ucx_rma(peer, mem, req, false, local, raddr, len);
}

/* ---------------------------------------------------------------------- */
/* Atomics (waited for: the caller needs the old value)                    */

static ucp_atomic_fetch_op_t mca_osc_rdma2_ucx_fetch_opcode(mca_common_ompix_atomic_op_t op)
{
    switch (op) {
    case MCA_COMMON_OMPIX_ATOMIC_SWAP: return UCP_ATOMIC_FETCH_OP_SWAP;
    case MCA_COMMON_OMPIX_ATOMIC_AND:  return UCP_ATOMIC_FETCH_OP_FAND;
    case MCA_COMMON_OMPIX_ATOMIC_OR:   return UCP_ATOMIC_FETCH_OP_FOR;
    case MCA_COMMON_OMPIX_ATOMIC_XOR:  return UCP_ATOMIC_FETCH_OP_FXOR;
    default:                           return UCP_ATOMIC_FETCH_OP_FADD;
    }
}

/* A fetching atomic of 4 or 8 bytes; old may be NULL (the result is still
 * waited for, so the caller sees the operation complete). */
static int mca_osc_rdma2_ucx_fetch(mca_osc_rdma2_peer_t *peer, ucp_atomic_fetch_op_t opcode,
                                   uint64_t value, uint64_t *old, size_t size, uint64_t raddr,
                                   ucp_rkey_h rkey)
{
    uint64_t r64 = 0;
    uint32_t r32 = 0;
    int ret;

    ret = opal_common_ucx_atomic_fetch(peer->ep, opcode, value,
                                       8 == size ? (void *) &r64 : (void *) &r32, size, raddr,
                                       rkey, MCA_OSC_RDMA2_WORKER);
    if (NULL != old) {
        *old = 8 == size ? r64 : r32;
    }
    return ret;
}

static int mca_osc_rdma2_ucx_cas(mca_osc_rdma2_peer_t *peer, uint64_t compare, uint64_t swap,
                                 uint64_t *old, size_t size, uint64_t raddr, ucp_rkey_h rkey)
{
    uint64_t r64 = 0;
    uint32_t r32 = 0;
    int ret;

    ret = opal_common_ucx_atomic_cswap(peer->ep, compare, swap,
                                       8 == size ? (void *) &r64 : (void *) &r32, size, raddr,
                                       rkey, MCA_OSC_RDMA2_WORKER);
    *old = 8 == size ? r64 : r32;
    return ret;
}

int mca_osc_rdma2_ucx_fetch_op(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                               mca_common_ompix_atomic_op_t op, uint64_t value, uint64_t *old,
                               size_t wsize, uint64_t raddr)
{
    return mca_osc_rdma2_ucx_fetch(peer, mca_osc_rdma2_ucx_fetch_opcode(op), value, old, wsize,
                                   raddr, mem->rkey);
}

/* An atomic read: fetch-add of zero. */
int mca_osc_rdma2_ucx_load(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                           uint64_t *value, size_t wsize, uint64_t raddr)
{
    return mca_osc_rdma2_ucx_fetch(peer, UCP_ATOMIC_FETCH_OP_FADD, 0, value, wsize, raddr,
                                   mem->rkey);
}

int mca_osc_rdma2_ucx_cswap(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                            uint64_t compare, uint64_t swap, uint64_t *old, size_t wsize,
                            uint64_t raddr)
{
    return mca_osc_rdma2_ucx_cas(peer, compare, swap, old, wsize, raddr, mem->rkey);
}

static char *mca_osc_rdma2_ucx_direct(const mca_osc_rdma2_win_mem_t *mem, uint64_t raddr)
{
    (void) mem; (void) raddr;
    return NULL;
}

const mca_osc_rdma2_win_path_t mca_osc_rdma2_win_path_ucx = {
    .name = "through UCX",
    .put = mca_osc_rdma2_ucx_put,
    .get = mca_osc_rdma2_ucx_get,
    .fetch_op = mca_osc_rdma2_ucx_fetch_op,
    .load = mca_osc_rdma2_ucx_load,
    .cswap = mca_osc_rdma2_ucx_cswap,
    .direct = mca_osc_rdma2_ucx_direct,
};

/* ---------------------------------------------------------------------- */
/* State words                                                             */

static int mca_osc_rdma2_ucx_state_fadd(mca_osc_rdma2_peer_t *peer,
                                        const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                        uint64_t value, uint64_t *old)
{
    return mca_osc_rdma2_ucx_fetch(peer, UCP_ATOMIC_FETCH_OP_FADD, value, old, 8,
                                   mem->base + off, mem->rkey);
}

static int mca_osc_rdma2_ucx_state_post(mca_osc_rdma2_peer_t *peer,
                                        const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                        uint64_t value)
{
    /* Not complete at the target yet: MPI_Win_free waits for it, or it
     * could land on freed memory.  Flushes need not (no answer is due). */
    peer->module->sync.posts_pending = true;
    return mca_common_ompix_ucx_atomic_post(MCA_OSC_RDMA2_UCX, peer->ep, value, mem->base + off,
                                            mem->rkey);
}

static int mca_osc_rdma2_ucx_state_cswap(mca_osc_rdma2_peer_t *peer,
                                         const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                         uint64_t compare, uint64_t swap, uint64_t *old)
{
    return mca_osc_rdma2_ucx_cas(peer, compare, swap, old, 8, mem->base + off, mem->rkey);
}

static int mca_osc_rdma2_ucx_state_load(mca_osc_rdma2_peer_t *peer,
                                        const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                        uint64_t *value)
{
    return mca_osc_rdma2_ucx_fetch(peer, UCP_ATOMIC_FETCH_OP_FADD, 0, value, 8, mem->base + off,
                                   mem->rkey);
}

static int mca_osc_rdma2_ucx_state_read(mca_osc_rdma2_peer_t *peer,
                                        const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                        void *buf, size_t len)
{
    ucp_request_param_t param;
    int ret;

    memset(&param, 0, sizeof(param));
    ret = mca_common_ompix_ucx_release(ucp_get_nbx(peer->ep, buf, len, mem->base + off,
                                                   mem->rkey, &param));
    mca_osc_rdma2_completion_issued(peer);
    return OMPI_SUCCESS == ret ? mca_osc_rdma2_complete_peer(peer) : ret;
}

const mca_osc_rdma2_state_path_t mca_osc_rdma2_state_path_ucx = {
    .name = "through UCX",
    .ucx = true,
    .fadd = mca_osc_rdma2_ucx_state_fadd,
    .post = mca_osc_rdma2_ucx_state_post,
    .cswap = mca_osc_rdma2_ucx_state_cswap,
    .load = mca_osc_rdma2_ucx_state_load,
    .read = mca_osc_rdma2_ucx_state_read,
};

/* ---------------------------------------------------------------------- */
/* Flushes                                                                 */

int mca_osc_rdma2_ucx_flush_ep(mca_osc_rdma2_peer_t *peer)
{
    return opal_common_ucx_ep_flush(peer->ep, MCA_OSC_RDMA2_WORKER);
}

int mca_osc_rdma2_ucx_flush_wait(mca_osc_rdma2_ucx_flushes_t *flushes)
{
    int i, ret;

    for (i = 0; i < flushes->count; ++i) {
        ret = opal_common_ucx_wait_request(flushes->requests[i], MCA_OSC_RDMA2_WORKER,
                                           "ucp_ep_flush_nbx");
        flushes->ret = OMPI_SUCCESS != flushes->ret ? flushes->ret : ret;
    }
    flushes->count = 0;
    return flushes->ret;
}

void mca_osc_rdma2_ucx_flush_start(mca_osc_rdma2_ucx_flushes_t *flushes,
                                   mca_osc_rdma2_peer_t *peer)
{
    ucp_request_param_t param;

    if (MCA_OSC_RDMA2_UCX_FLUSHES == flushes->count) {
        (void) mca_osc_rdma2_ucx_flush_wait(flushes);
    }
    memset(&param, 0, sizeof(param));
    flushes->requests[flushes->count++] = ucp_ep_flush_nbx(peer->ep, &param);
}

int mca_osc_rdma2_ucx_fence(void)
{
    return UCS_OK == ucp_worker_fence(MCA_OSC_RDMA2_WORKER) ? OMPI_SUCCESS : OMPI_ERROR;
}
