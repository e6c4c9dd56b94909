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
#include "opal/util/sys_limits.h"
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

/* The bytes [*lo, *hi) that count x dt at byte offset `off` cover, false
 * when a bound is not representable: every step is overflow-checked, so a
 * huge displacement, count or extent can not wrap into a window. */
static inline bool mca_osc_rdma2_span(int64_t off, int count, struct ompi_datatype_t *dt,
                                      int64_t *lo, int64_t *hi)
{
    ptrdiff_t lb, extent, true_lb, true_extent;
    int64_t step;

    *lo = *hi = off;
    if (count <= 0) {
        return 0 == count;
    }
    ompi_datatype_get_extent(dt, &lb, &extent);
    ompi_datatype_get_true_extent(dt, &true_lb, &true_extent);
    if (__builtin_add_overflow(off, (int64_t) true_lb, lo) ||
        __builtin_add_overflow(*lo, (int64_t) true_extent, hi) ||
        __builtin_mul_overflow((int64_t) (count - 1), (int64_t) extent, &step)) {
        return false;
    }
    return extent >= 0 ? !__builtin_add_overflow(*hi, step, hi)
                       : !__builtin_add_overflow(*lo, step, lo);
}

bool mca_osc_rdma2_null_buffer_bad(int count, struct ompi_datatype_t *dt)
{
    ptrdiff_t true_lb, true_extent;

    if (count <= 0 || 0 == dt->super.size) {
        return false;
    }
    ompi_datatype_get_true_extent(dt, &true_lb, &true_extent);
    return true_lb < (ptrdiff_t) opal_getpagesize();
}

int mca_osc_rdma2_target_range(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                               ptrdiff_t disp, int count, struct ompi_datatype_t *dt,
                               uint64_t *addr, const mca_osc_rdma2_win_mem_t **mem)
{
    bool dynamic = MPI_WIN_FLAVOR_DYNAMIC == module->flavor;
    int64_t off, lo, hi;

    /* Dynamic windows: displacements are absolute addresses. */
    *mem = &peer->win;
    if (0 == count) {           /* touches nothing: any displacement will do */
        *addr = (dynamic ? 0 : peer->win.base) + (uint64_t) disp * (uint64_t) peer->disp_unit;
        return OMPI_SUCCESS;
    }
    if (!mca_osc_rdma2_disp_offset(disp, peer->disp_unit, &off) ||
        !mca_osc_rdma2_span(off, count, dt, &lo, &hi) || lo < 0) {
        return OMPI_ERR_RMA_RANGE;
    }
    *addr = (dynamic ? 0 : peer->win.base) + (uint64_t) off;
    if (dynamic) {
        return mca_osc_rdma2_dyn_lookup(module, peer, (uint64_t) lo, (uint64_t) (hi - lo), mem);
    }
    if (hi > (int64_t) peer->win.size) {
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
    /* what the bindings check unless mpi_param_check is off */
    if (count < 0 || tcount < 0) {
        return MPI_ERR_COUNT;
    }
    if (&ompi_mpi_datatype_null.dt == dt || &ompi_mpi_datatype_null.dt == tdt) {
        return MPI_ERR_TYPE;
    }
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
    if (mca_osc_rdma2_bad_buffer(origin_addr, origin_count, origin_dt)) {
        return MPI_ERR_BUFFER;
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
    if (NULL != p && OPAL_LIKELY(NULL != origin_addr)) {
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
