/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The mapped path's operations on window memory, inline: the table in
 * osc_rdma2_path_mapped.c calls them, and so do the fast paths, which
 * reach mapped peers without an indirect call.
 */
#ifndef MCA_OSC_RDMA2_PATH_MAPPED_H
#define MCA_OSC_RDMA2_PATH_MAPPED_H

#include <string.h>

#include "osc_rdma2_path.h"

BEGIN_C_DECLS

/* Only a self target can overlap the origin buffer; memcpy is faster
 * than memmove's direction check for everything else.  A word goes
 * through a register (overlap-safe, and no call into libc). */
static inline void mca_osc_rdma2_mapped_copy(void *dst, const void *src, size_t len)
{
    if (8 == len) {
        uint64_t v;
        memcpy(&v, src, 8);
        memcpy(dst, &v, 8);
    } else if (4 == len) {
        uint32_t v;
        memcpy(&v, src, 4);
        memcpy(dst, &v, 4);
    } else if ((const char *) src + len <= (char *) dst || (char *) dst + len <= (const char *) src) {
        memcpy(dst, src, len);
    } else {
        memmove(dst, src, len);
    }
}

static inline char *mca_osc_rdma2_mapped_addr(const mca_osc_rdma2_win_mem_t *mem,
                                              uint64_t raddr)
{
    return mem->ptr + (raddr - mem->base);
}

/* A mapped state word (lock words, counters). */
static inline volatile uint64_t *mca_osc_rdma2_mapped_word(const mca_osc_rdma2_state_mem_t *mem,
                                                           size_t off)
{
    return (volatile uint64_t *) (mem->ptr + off);
}

static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_mapped_fetch_op(struct mca_osc_rdma2_peer_t *peer,
                              const mca_osc_rdma2_win_mem_t *mem,
                              mca_common_ompix_atomic_op_t op, uint64_t value,
                              uint64_t *old, size_t wsize, uint64_t raddr)
{
    volatile void *w = mca_osc_rdma2_mapped_addr(mem, raddr);

    (void) peer;
    *old = 8 == wsize ? mca_common_ompix_atomic_fetch_op_64((volatile uint64_t *) w, op, value)
                      : mca_common_ompix_atomic_fetch_op_32((volatile uint32_t *) w, op,
                                                            (uint32_t) value);
    return OMPI_SUCCESS;
}

static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_mapped_load(struct mca_osc_rdma2_peer_t *peer,
                          const mca_osc_rdma2_win_mem_t *mem, uint64_t *value,
                          size_t wsize, uint64_t raddr)
{
    volatile void *w = mca_osc_rdma2_mapped_addr(mem, raddr);

    (void) peer;
    *value = 8 == wsize ? mca_common_ompix_atomic_load_acq_64((volatile uint64_t *) w)
                        : mca_common_ompix_atomic_load_acq_32((volatile uint32_t *) w);
    return OMPI_SUCCESS;
}

static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_mapped_cswap(struct mca_osc_rdma2_peer_t *peer,
                           const mca_osc_rdma2_win_mem_t *mem,
                           uint64_t compare, uint64_t swap, uint64_t *old,
                           size_t wsize, uint64_t raddr)
{
    volatile void *w = mca_osc_rdma2_mapped_addr(mem, raddr);

    (void) peer;
    if (8 == wsize) {
        *old = compare;
        (void) mca_common_ompix_atomic_cswap_64((volatile uint64_t *) w, old, swap);
    } else {
        uint32_t c32 = (uint32_t) compare;
        (void) mca_common_ompix_atomic_cswap_32((volatile uint32_t *) w, &c32, (uint32_t) swap);
        *old = c32;
    }
    return OMPI_SUCCESS;
}

END_C_DECLS

#endif /* MCA_OSC_RDMA2_PATH_MAPPED_H */
