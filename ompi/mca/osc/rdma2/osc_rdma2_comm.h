/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Put and Get, and what the other operations share with them: the checks
 * of an access and the transfer of (count, datatype) layouts.
 */
#ifndef MCA_OSC_RDMA2_COMM_H
#define MCA_OSC_RDMA2_COMM_H

#include "ompi/datatype/ompi_datatype.h"

#include "osc_rdma2_peer.h"
#include "osc_rdma2_request.h"

BEGIN_C_DECLS

/* disp x disp_unit, false when the product overflows (no window holds it). */
static inline bool mca_osc_rdma2_disp_offset(ptrdiff_t disp, int disp_unit, int64_t *off)
{
    return !__builtin_mul_overflow((int64_t) disp, (int64_t) disp_unit, off);
}

/* Whether a NULL (MPI_BOTTOM) buffer for count x dt would have its first
 * byte in page 0 or below, where nothing is ever mapped: no valid buffer
 * (MPI_ERR_BUFFER).  MPI_BOTTOM with absolute addresses passes. */
bool mca_osc_rdma2_null_buffer_bad(int count, struct ompi_datatype_t *dt);
static inline bool mca_osc_rdma2_bad_buffer(const void *buf, int count,
                                            struct ompi_datatype_t *dt)
{
    return OPAL_UNLIKELY(NULL == buf) && mca_osc_rdma2_null_buffer_bad(count, dt);
}

/* Checks that [disp, disp + count x dt) lies in the target's window (in
 * one attached region of a dynamic window) and returns the remote address
 * of disp and the memory holding it (0-count accesses always pass). */
int mca_osc_rdma2_target_range(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                               ptrdiff_t disp, int count, struct ompi_datatype_t *dt,
                               uint64_t *addr, const mca_osc_rdma2_win_mem_t **mem);
int mca_osc_rdma2_check_access(mca_osc_rdma2_module_t *module, int target);
/* Peer, epoch, matching type signatures and range of one operation. */
int mca_osc_rdma2_prepare(mca_osc_rdma2_module_t *module, int target, int count,
                          struct ompi_datatype_t *dt, ptrdiff_t disp, int tcount,
                          struct ompi_datatype_t *tdt, mca_osc_rdma2_peer_t **peer,
                          const mca_osc_rdma2_win_mem_t **mem, uint64_t *raddr);
/* Copies between local memory laid out as (count, dt) and remote memory
 * laid out as (tcount, tdt) at raddr in `mem`, through its path. */
int mca_osc_rdma2_xfer(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                       bool is_put, void *local, int count, struct ompi_datatype_t *dt,
                       uint64_t raddr, int tcount, struct ompi_datatype_t *tdt);
/* The same; with `req`, pieces that complete later complete that request. */
int mca_osc_rdma2_xfer_req(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                           bool is_put, mca_osc_rdma2_request_t *req, void *local, int count,
                           struct ompi_datatype_t *dt, uint64_t raddr, int tcount,
                           struct ompi_datatype_t *tdt);
/* Put or Get; with `req`, UCX pieces complete that request (Rput/Rget). */
int mca_osc_rdma2_rdma(mca_osc_rdma2_module_t *module, mca_osc_rdma2_request_t *req, bool is_put,
                       void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt);

/* The common case in a few dozen instructions: same predefined type on
 * both sides, a target we already mapped, inside its window.  Returns the
 * target address, or NULL to take the general path (which also reports
 * any error).  Put/Get and the notified operations use it. */
static inline char *mca_osc_rdma2_rdma_fast_target(mca_osc_rdma2_module_t *module, int target,
                                                   struct ompi_datatype_t *dt, int count,
                                                   struct ompi_datatype_t *tdt, int tcount,
                                                   ptrdiff_t disp, size_t *len)
{
    mca_osc_rdma2_peer_t *peer = module->peers[target];
    int64_t off;

    if (NULL == peer || NULL == peer->win.ptr || dt != tdt || count != tcount || count <= 0 ||
        MPI_WIN_FLAVOR_DYNAMIC == module->flavor || !ompi_datatype_is_predefined(dt) ||
        !mca_osc_rdma2_sync_covers(&module->sync, target)) {
        return NULL;
    }
    *len = dt->super.size * (size_t) count;
    if (!mca_osc_rdma2_disp_offset(disp, peer->disp_unit, &off) || off < 0 ||
        (uint64_t) off + *len > peer->win.size) {
        return NULL;
    }
    return peer->win.ptr + off;
}

int mca_osc_rdma2_put(const void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                      int target, ptrdiff_t target_disp, int target_count,
                      struct ompi_datatype_t *target_dt, struct ompi_win_t *win);
int mca_osc_rdma2_get(void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                      int target, ptrdiff_t target_disp, int target_count,
                      struct ompi_datatype_t *target_dt, struct ompi_win_t *win);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_COMM_H */
