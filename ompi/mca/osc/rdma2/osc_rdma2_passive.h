/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Passive target: the two-level lock, flush, sync, the accumulate lock.
 */
#ifndef MCA_OSC_RDMA2_PASSIVE_H
#define MCA_OSC_RDMA2_PASSIVE_H

#include "osc_rdma2_peer.h"

BEGIN_C_DECLS

int mca_osc_rdma2_lock(int lock_type, int target, int assert, struct ompi_win_t *win);
int mca_osc_rdma2_unlock(int target, struct ompi_win_t *win);
int mca_osc_rdma2_lock_all(int assert, struct ompi_win_t *win);
int mca_osc_rdma2_unlock_all(struct ompi_win_t *win);
int mca_osc_rdma2_sync(struct ompi_win_t *win);
int mca_osc_rdma2_flush(int target, struct ompi_win_t *win);
int mca_osc_rdma2_flush_all(struct ompi_win_t *win);
int mca_osc_rdma2_flush_local(int target, struct ompi_win_t *win);
int mca_osc_rdma2_flush_local_all(struct ompi_win_t *win);
/* The accumulate lock of the peer's process (osc_rdma2_accumulate.c). */
int mca_osc_rdma2_acc_lock(mca_osc_rdma2_peer_t *peer);
int mca_osc_rdma2_acc_unlock(mca_osc_rdma2_peer_t *peer);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_PASSIVE_H */
