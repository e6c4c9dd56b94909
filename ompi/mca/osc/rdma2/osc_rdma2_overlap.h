/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Accumulate atomicity across windows that overlap the same memory.
 */
#ifndef MCA_OSC_RDMA2_OVERLAP_H
#define MCA_OSC_RDMA2_OVERLAP_H

#include "osc_rdma2_module.h"

BEGIN_C_DECLS

void mca_osc_rdma2_overlap_init(void);
void mca_osc_rdma2_overlap_fini(void);
int mca_osc_rdma2_overlap_add_element(mca_osc_rdma2_module_t *module);
void mca_osc_rdma2_overlap_remove_element(mca_osc_rdma2_module_t *module);
/* Lock-mode memory [base, base + len) of this process: marks every
 * element-mode window whose local memory it overlaps as mixed. */
void mca_osc_rdma2_overlap_claim(const void *base, size_t len);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_OVERLAP_H */
