/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Dynamic windows: attach/detach (the region table in our state block)
 * and the origin's copy of each target's table.
 */
#ifndef MCA_OSC_RDMA2_DYNAMIC_H
#define MCA_OSC_RDMA2_DYNAMIC_H

#include "osc_rdma2_peer.h"

BEGIN_C_DECLS

/* What the origin keeps about one peer's regions. */
typedef struct mca_osc_rdma2_dyn_cache_t {
    uint64_t gen;                   /* generation the copy below is from; 1 = none */
    uint64_t count;
    mca_osc_rdma2_region_t *region; /* copy of the peer's table (max_attach entries) */
    mca_osc_rdma2_win_mem_t *mem;   /* per entry: key, mapping and path, set up on first use
                                     * (path NULL until then) */
} mca_osc_rdma2_dyn_cache_t;

int mca_osc_rdma2_attach(struct ompi_win_t *win, void *base, size_t len);
int mca_osc_rdma2_detach(struct ompi_win_t *win, const void *base);
void mca_osc_rdma2_dyn_release_local(mca_osc_rdma2_module_t *module);
void mca_osc_rdma2_dyn_release_peer(mca_osc_rdma2_peer_t *peer);
/* The attached region of the peer holding [addr, addr + len). */
int mca_osc_rdma2_dyn_lookup(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                             uint64_t addr, uint64_t len, const mca_osc_rdma2_win_mem_t **mem);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_DYNAMIC_H */
