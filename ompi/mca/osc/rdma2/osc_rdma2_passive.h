/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Passive target: the two-level lock, flush, sync, the accumulate lock,
 * and for now the remote atomics on state words and completion.
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
/* Completes UCX operations to one peer / to all peers of the window. */
int mca_osc_rdma2_complete_peer(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer);
int mca_osc_rdma2_complete_all(mca_osc_rdma2_module_t *module);
int mca_osc_rdma2_complete_before_release(mca_osc_rdma2_module_t *module,
                                          mca_osc_rdma2_peer_t *peer, bool release_via_ucx);
/* A posted add to a state word: a lock release or a notification. */
int mca_osc_rdma2_state_post(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_state_mem_t *mem,
                             size_t off, uint64_t value);
int mca_osc_rdma2_acc_lock(mca_osc_rdma2_peer_t *peer);
int mca_osc_rdma2_acc_unlock(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_PASSIVE_H */
