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
/* Remote atomics on a peer's state words (direct CPU atomics when mapped). */
int mca_osc_rdma2_state_fadd(mca_osc_rdma2_peer_t *peer, volatile uint64_t *local_word,
                             uint64_t raddr, ucp_rkey_h rkey, uint64_t value, uint64_t *old);
int mca_osc_rdma2_state_post(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                             volatile uint64_t *local_word,
                             uint64_t raddr, ucp_rkey_h rkey, uint64_t value);
int mca_osc_rdma2_state_cswap(mca_osc_rdma2_peer_t *peer, volatile uint64_t *local_word,
                              uint64_t raddr, ucp_rkey_h rkey, uint64_t compare, uint64_t swap,
                              uint64_t *old);
int mca_osc_rdma2_acc_lock(mca_osc_rdma2_peer_t *peer);
int mca_osc_rdma2_acc_unlock(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_PASSIVE_H */
