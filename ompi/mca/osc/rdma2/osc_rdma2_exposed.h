/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The memory of this process that peers may name in active messages
 * (osc_rdma2_am.c): every window's memory and state block, its
 * notification slots, and the regions attached to dynamic windows.  A
 * message carries a raw address; the target applies it only inside one
 * of these ranges, so a corrupted or overflowing address from the wire is
 * refused instead of written to.
 */
#ifndef MCA_OSC_RDMA2_EXPOSED_H
#define MCA_OSC_RDMA2_EXPOSED_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

BEGIN_C_DECLS

void mca_osc_rdma2_exposed_init(void);
void mca_osc_rdma2_exposed_fini(void);
/* [base, base + len) of `owner` (a window module or its slots) is exposed
 * (len 0: nothing). */
int mca_osc_rdma2_exposed_add(const void *owner, const void *base, size_t len);
/* No longer exposed: the range of `owner` at `base`, or with base NULL
 * every range of `owner`. */
void mca_osc_rdma2_exposed_remove(const void *owner, const void *base);
/* [addr, addr + len) lies inside one exposed range. */
bool mca_osc_rdma2_exposed_holds(uint64_t addr, size_t len);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_EXPOSED_H */
