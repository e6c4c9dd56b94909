/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Put and Get.  A transfer is a list of (local, remote) contiguous pieces
 * obtained by walking both datatypes with the convertor's raw iovec
 * interface; each piece goes through the target memory's path
 * (osc_rdma2_path.h): a copy when mapped, a process_vm_writev/readv for
 * other same-node memory, else a ucp_put_nbx / ucp_get_nbx completed by
 * the next flush of that endpoint (or by its own callback for Rput/Rget).
 */
#include "ompi_config.h"

#include <string.h>

#include "opal/datatype/opal_convertor.h"
#include "ompi/mca/common/ompix/common_ompix_datatype.h"
#include "ompi/mca/osc/base/base.h"

#include "osc_rdma2_comm.h"
#include "osc_rdma2_dynamic.h"
#include "osc_rdma2_path_mapped.h"

/* Access rules: an operation needs an epoch that covers its target. */
int mca_osc_rdma2_check_access(mca_osc_rdma2_module_t *module, int target)
{
    return mca_osc_rdma2_sync_covers(&module->sync, target) ? OMPI_SUCCESS : OMPI_ERR_RMA_SYNC;
}

int mca_osc_rdma2_target_range(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                               ptrdiff_t disp, int count, struct ompi_datatype_t *dt,
                               uint64_t *addr, const mca_osc_rdma2_win_mem_t **mem)
{
    bool dynamic = MPI_WIN_FLAVOR_DYNAMIC == module->flavor;
    ptrdiff_t lb, extent, true_lb, true_extent;
    int64_t off = (int64_t) disp * peer->disp_unit, lo, hi;

    /* Dynamic windows: displacements are absolute addresses. */
    *addr = (dynamic ? 0 : peer->win.base) + off;
    *mem = &peer->win;
    if (0 == count) {
        return OMPI_SUCCESS;
    }
    ompi_datatype_get_extent(dt, &lb, &extent);
    ompi_datatype_get_true_extent(dt, &true_lb, &true_extent);
    lo = off + true_lb;
    hi = lo + true_extent;
    if (extent >= 0) {
        hi += (int64_t) (count - 1) * extent;
    } else {
        lo += (int64_t) (count - 1) * extent;
    }
    if (dynamic) {
        return mca_osc_rdma2_dyn_lookup(module, peer, (uint64_t) lo, (uint64_t) (hi - lo), mem);
    }
    if (lo < 0 || hi > (int64_t) peer->win.size) {
        return OMPI_ERR_RMA_RANGE;
    }
    return OMPI_SUCCESS;
}

/* One contiguous piece. */
static inline int mca_osc_rdma2_piece(mca_osc_rdma2_peer_t *peer,
                                      const mca_osc_rdma2_win_mem_t *mem, bool is_put,
                                      mca_osc_rdma2_request_t *req, char *local, uint64_t raddr,
                                      size_t len)
{
    if (0 == len) {
        return OMPI_SUCCESS;
    }
    return is_put ? mem->path->put(peer, mem, req, local, raddr, len)
                  : mem->path->get(peer, mem, req, local, raddr, len);
}

typedef struct mca_osc_rdma2_xfer_ctx_t {
    mca_osc_rdma2_peer_t *peer;
    const mca_osc_rdma2_win_mem_t *mem;
    bool is_put;
    mca_osc_rdma2_request_t *req;
} mca_osc_rdma2_xfer_ctx_t;

static int mca_osc_rdma2_xfer_pair(void *ctx, char *local, char *remote, size_t len)
{
    mca_osc_rdma2_xfer_ctx_t *x = (mca_osc_rdma2_xfer_ctx_t *) ctx;
    return mca_osc_rdma2_piece(x->peer, x->mem, x->is_put, x->req, local,
                               (uint64_t) (uintptr_t) remote, len);
}

static int mca_osc_rdma2_xfer_iov(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                                  bool is_put, mca_osc_rdma2_request_t *req, void *local,
                                  int count, struct ompi_datatype_t *dt, uint64_t raddr,
                                  int tcount, struct ompi_datatype_t *tdt)
{
    mca_osc_rdma2_xfer_ctx_t x = { .peer = peer, .mem = mem, .is_put = is_put, .req = req };
    return mca_common_ompix_datatype_walk_pairs(local, count, dt, (void *) (uintptr_t) raddr,
                                                tcount, tdt, mca_osc_rdma2_xfer_pair, &x);
}

static int mca_osc_rdma2_xfer_any(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                                  bool is_put, mca_osc_rdma2_request_t *req, void *local,
                                  int count, struct ompi_datatype_t *dt, uint64_t raddr,
                                  int tcount, struct ompi_datatype_t *tdt)
{
    ptrdiff_t llb, rlb;
    size_t size;

    if (mca_common_ompix_datatype_contiguous(dt, count, &llb) &&
        mca_common_ompix_datatype_contiguous(tdt, tcount, &rlb)) {
        ompi_datatype_type_size(dt, &size);
        return mca_osc_rdma2_piece(peer, mem, is_put, req, (char *) local + llb, raddr + rlb,
                                   size * (size_t) count);
    }
    return mca_osc_rdma2_xfer_iov(peer, mem, is_put, req, local, count, dt, raddr, tcount, tdt);
}

/* For the accumulate state machines; Put, Get and the blocking paths
 * keep the static one (inlined there). */
int mca_osc_rdma2_xfer_req(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                           bool is_put, mca_osc_rdma2_request_t *req, void *local, int count,
                           struct ompi_datatype_t *dt, uint64_t raddr, int tcount,
                           struct ompi_datatype_t *tdt)
{
    return mca_osc_rdma2_xfer_any(peer, mem, is_put, req, local, count, dt, raddr, tcount, tdt);
}

int mca_osc_rdma2_xfer(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                       bool is_put, void *local, int count, struct ompi_datatype_t *dt,
                       uint64_t raddr, int tcount, struct ompi_datatype_t *tdt)
{
    return mca_osc_rdma2_xfer_any(peer, mem, is_put, NULL, local, count, dt, raddr, tcount, tdt);
}

/* Common checks of Put/Get/accumulates: peer, epoch, matching sizes, range. */
int mca_osc_rdma2_prepare(mca_osc_rdma2_module_t *module, int target, int count,
                          struct ompi_datatype_t *dt, ptrdiff_t disp, int tcount,
                          struct ompi_datatype_t *tdt, mca_osc_rdma2_peer_t **peer,
                          const mca_osc_rdma2_win_mem_t **mem, uint64_t *raddr)
{
    size_t size, tsize;
    int ret;

    ret = mca_osc_rdma2_peer(module, target, peer);
    if (OMPI_SUCCESS != ret) return ret;
    ret = mca_osc_rdma2_check_access(module, target);
    if (OMPI_SUCCESS != ret) return ret;
    ompi_datatype_type_size(dt, &size);
    ompi_datatype_type_size(tdt, &tsize);
    if (size * (size_t) count != tsize * (size_t) tcount) {
        return MPI_ERR_TYPE;
    }
    return mca_osc_rdma2_target_range(module, *peer, disp, tcount, tdt, raddr, mem);
}

/* Put or Get; with `req`, pieces that complete later complete that
 * request (Rput/Rget). */
int mca_osc_rdma2_rdma(mca_osc_rdma2_module_t *module, mca_osc_rdma2_request_t *req, bool is_put,
                       void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt)
{
    const mca_osc_rdma2_win_mem_t *mem;
    mca_osc_rdma2_peer_t *peer;
    uint64_t raddr;
    int ret;

    ret = mca_osc_rdma2_prepare(module, target, origin_count, origin_dt, target_disp,
                                target_count, target_dt, &peer, &mem, &raddr);
    if (OMPI_SUCCESS != ret || 0 == target_count) {
        return ret;
    }
    return mca_osc_rdma2_xfer_any(peer, mem, is_put, req, origin_addr, origin_count, origin_dt,
                                  raddr, target_count, target_dt);
}

/* Same-type contiguous access to a mapped target: one copy; anything
 * else goes through the general path. */
static inline int mca_osc_rdma2_put_get(bool is_put, void *origin_addr, int origin_count,
                                        struct ompi_datatype_t *origin_dt, int target,
                                        ptrdiff_t target_disp, int target_count,
                                        struct ompi_datatype_t *target_dt, struct ompi_win_t *win)
{
    size_t len;
    char *p = mca_osc_rdma2_rdma_fast_target(MCA_OSC_RDMA2_MODULE(win), target, origin_dt,
                                             origin_count, target_dt, target_count, target_disp,
                                             &len);
    if (NULL != p) {
        if (is_put) {
            mca_osc_rdma2_mapped_copy(p, origin_addr, len);
        } else {
            mca_osc_rdma2_mapped_copy(origin_addr, p, len);
        }
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_rdma(MCA_OSC_RDMA2_MODULE(win), NULL, is_put, origin_addr, origin_count,
                              origin_dt, target, target_disp, target_count, target_dt);
}

int mca_osc_rdma2_put(const void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                      int target, ptrdiff_t target_disp, int target_count,
                      struct ompi_datatype_t *target_dt, struct ompi_win_t *win)
{
    return mca_osc_rdma2_put_get(true, (void *) origin_addr, origin_count, origin_dt, target,
                                 target_disp, target_count, target_dt, win);
}

int mca_osc_rdma2_get(void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                      int target, ptrdiff_t target_disp, int target_count,
                      struct ompi_datatype_t *target_dt, struct ompi_win_t *win)
{
    return mca_osc_rdma2_put_get(false, origin_addr, origin_count, origin_dt, target, target_disp,
                                 target_count, target_dt, win);
}
