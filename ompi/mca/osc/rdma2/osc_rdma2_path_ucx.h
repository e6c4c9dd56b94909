/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The UCX path's entry points used outside its table: its atomics (the
 * CMA path has none of its own) and the flushes completion uses.
 */
#ifndef MCA_OSC_RDMA2_PATH_UCX_H
#define MCA_OSC_RDMA2_PATH_UCX_H

#include "osc_rdma2_path.h"

BEGIN_C_DECLS

int mca_osc_rdma2_ucx_fetch_op(struct mca_osc_rdma2_peer_t *peer,
                               const mca_osc_rdma2_win_mem_t *mem, mca_common_ompix_atomic_op_t op,
                               uint64_t value, uint64_t *old, size_t wsize, uint64_t raddr);
int mca_osc_rdma2_ucx_load(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                           uint64_t *value, size_t wsize, uint64_t raddr);
int mca_osc_rdma2_ucx_cswap(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                            uint64_t compare, uint64_t swap, uint64_t *old, size_t wsize,
                            uint64_t raddr);

/* Completes at its target every UCX operation issued to the peer. */
int mca_osc_rdma2_ucx_flush_ep(struct mca_osc_rdma2_peer_t *peer);

/* Endpoint flushes of several peers, issued together so that their round
 * trips overlap, then waited for.  Not a worker flush: UCX 1.13's
 * (ucp_worker_flush_nbx) returns done when no sent fragment awaits its
 * acknowledgement and the interfaces are flushed, while a put emulated by
 * active messages may still wait, unsent, in an endpoint's pending queue
 * (shared memory FIFO full) and read its origin buffer later. */
#define MCA_OSC_RDMA2_UCX_FLUSHES 32
typedef struct mca_osc_rdma2_ucx_flushes_t {
    int count;
    int ret;
    ucs_status_ptr_t requests[MCA_OSC_RDMA2_UCX_FLUSHES];
} mca_osc_rdma2_ucx_flushes_t;

void mca_osc_rdma2_ucx_flush_start(mca_osc_rdma2_ucx_flushes_t *flushes,
                                   struct mca_osc_rdma2_peer_t *peer);
int mca_osc_rdma2_ucx_flush_wait(mca_osc_rdma2_ucx_flushes_t *flushes);
/* UCX operations issued before it complete at their targets before those
 * issued after it. */
int mca_osc_rdma2_ucx_fence(void);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_PATH_UCX_H */
