/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Dynamic windows: attach/detach (our region table, in a block that grows
 * by doubling) and the origin's copy of each target's table.
 */
#ifndef MCA_OSC_RDMA2_DYNAMIC_H
#define MCA_OSC_RDMA2_DYNAMIC_H

#include "osc_rdma2_peer.h"

BEGIN_C_DECLS

/* What the owner keeps about its own regions (osc_rdma2_dynamic.c). */
typedef struct mca_osc_rdma2_dyn_local_t mca_osc_rdma2_dyn_local_t;

/* What the origin keeps about one peer's regions. */
typedef struct mca_osc_rdma2_dyn_cache_t {
    uint64_t gen;                   /* generation the copy below is from; 1 = none */
    size_t count;
    size_t entry_size;              /* of the copy */
    char *region;                   /* copy of the used entries of the peer's table */
    mca_osc_rdma2_win_mem_t *mem;   /* per entry: key, mapping and path, set up on first use
                                     * (path NULL until then) */
    char *next_region;              /* where the next copy is read, then swapped in */
    mca_osc_rdma2_win_mem_t *next_mem;
    size_t region_bytes, mem_alloc; /* what the arrays above hold (each pair alike) */
    mca_osc_rdma2_state_mem_t table;        /* the peer's current table block */
    uint64_t capacity;              /* its entries, */
    size_t table_entry_size;        /* of this size */
} mca_osc_rdma2_dyn_cache_t;

/* Window creation: our descriptor, zeroed in our state block. */
int mca_osc_rdma2_dyn_init_local(mca_osc_rdma2_module_t *module, mca_osc_rdma2_regions_t *desc);
int mca_osc_rdma2_attach(struct ompi_win_t *win, void *base, size_t len);
int mca_osc_rdma2_detach(struct ompi_win_t *win, const void *base);
void mca_osc_rdma2_dyn_release_local(mca_osc_rdma2_module_t *module);
void mca_osc_rdma2_dyn_release_peer(mca_osc_rdma2_peer_t *peer);
/* The attached region of the peer holding [addr, addr + len). */
int mca_osc_rdma2_dyn_lookup(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                             uint64_t addr, uint64_t len, const mca_osc_rdma2_win_mem_t **mem);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_DYNAMIC_H */
