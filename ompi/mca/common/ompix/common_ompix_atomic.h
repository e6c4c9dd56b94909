/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Atomics on words that several processes share (state blocks, meeting
 * lines, slots) with the orderings ompix's protocols need.
 *
 * Open MPI 4.1's atomics (opal/sys/atomic.h) are relaxed read-modify-writes
 * plus fences, on signed types; an acquire or release read-modify-write is
 * the relaxed one with the fence beside it (a release fence before, an
 * acquire fence after), which compiles to the same single locked
 * instruction on x86.  What opal 4.1 can not express is an acquire load or
 * a release store on its own: its read barrier is a full compiler barrier
 * on x86, which makes the compiler reload every value around the polling
 * loops that use these loads.  Those two are compiler builtins, here and
 * nowhere else in ompix.
 */
#ifndef MCA_COMMON_OMPIX_ATOMIC_H
#define MCA_COMMON_OMPIX_ATOMIC_H

#include "opal_config.h"

#include <stdbool.h>
#include <stdint.h>

#include "opal/sys/atomic.h"

BEGIN_C_DECLS

/* Loads and stores ------------------------------------------------------- */

static inline uint64_t mca_common_ompix_atomic_load_acq_64(const volatile uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline uint32_t mca_common_ompix_atomic_load_acq_32(const volatile uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void mca_common_ompix_atomic_store_rel_64(volatile uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline void mca_common_ompix_atomic_store_rel_32(volatile uint32_t *p, uint32_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* A store every later load of any process sees before our later loads. */
static inline void mca_common_ompix_atomic_store_seq_64(volatile uint64_t *p, uint64_t v)
{
    opal_atomic_wmb();
    *p = v;
    opal_atomic_mb();
}

/* Read-modify-writes: acquire and release (acq_rel) unless named ------- */

static inline uint64_t mca_common_ompix_atomic_fetch_add_64(volatile uint64_t *p, uint64_t v)
{
    uint64_t old;
    opal_atomic_wmb();
    old = (uint64_t) opal_atomic_fetch_add_64((volatile int64_t *) p, (int64_t) v);
    opal_atomic_rmb();
    return old;
}

/* Release only: for adds that publish (lock releases, notifications). */
static inline void mca_common_ompix_atomic_add_rel_64(volatile uint64_t *p, uint64_t v)
{
    opal_atomic_wmb();
    (void) opal_atomic_fetch_add_64((volatile int64_t *) p, (int64_t) v);
}

/* Compare-and-swap: true if *p held *expected and now holds desired;
 * otherwise *expected is the value found. */
static inline bool mca_common_ompix_atomic_cswap_64(volatile uint64_t *p, uint64_t *expected,
                                                    uint64_t desired)
{
    bool ok;
    opal_atomic_wmb();
    ok = opal_atomic_compare_exchange_strong_acq_64((volatile int64_t *) p, (int64_t *) expected,
                                                    (int64_t) desired);
    opal_atomic_rmb();
    return ok;
}

static inline bool mca_common_ompix_atomic_cswap_32(volatile uint32_t *p, uint32_t *expected,
                                                    uint32_t desired)
{
    bool ok;
    opal_atomic_wmb();
    ok = opal_atomic_compare_exchange_strong_acq_32((volatile int32_t *) p, (int32_t *) expected,
                                                    (int32_t) desired);
    opal_atomic_rmb();
    return ok;
}

/* Acquire only: taking a lock. */
static inline bool mca_common_ompix_atomic_cswap_acq_64(volatile uint64_t *p, uint64_t *expected,
                                                        uint64_t desired)
{
    return opal_atomic_compare_exchange_strong_acq_64((volatile int64_t *) p,
                                                      (int64_t *) expected, (int64_t) desired);
}

/* Fetching arithmetic on a whole 4- or 8-byte word (accumulate elements). */
typedef enum {
    MCA_COMMON_OMPIX_ATOMIC_ADD,
    MCA_COMMON_OMPIX_ATOMIC_AND,
    MCA_COMMON_OMPIX_ATOMIC_OR,
    MCA_COMMON_OMPIX_ATOMIC_XOR,
    MCA_COMMON_OMPIX_ATOMIC_SWAP,
} mca_common_ompix_atomic_op_t;

static inline uint64_t mca_common_ompix_atomic_fetch_op_64(volatile uint64_t *p,
                                                           mca_common_ompix_atomic_op_t op,
                                                           uint64_t v)
{
    volatile int64_t *w = (volatile int64_t *) p;
    int64_t old;

    opal_atomic_wmb();
    switch (op) {
    case MCA_COMMON_OMPIX_ATOMIC_ADD: old = opal_atomic_fetch_add_64(w, (int64_t) v); break;
    case MCA_COMMON_OMPIX_ATOMIC_AND: old = opal_atomic_fetch_and_64(w, (int64_t) v); break;
    case MCA_COMMON_OMPIX_ATOMIC_OR:  old = opal_atomic_fetch_or_64(w, (int64_t) v); break;
    case MCA_COMMON_OMPIX_ATOMIC_XOR: old = opal_atomic_fetch_xor_64(w, (int64_t) v); break;
    default:                          old = opal_atomic_swap_64(w, (int64_t) v); break;
    }
    opal_atomic_rmb();
    return (uint64_t) old;
}

static inline uint32_t mca_common_ompix_atomic_fetch_op_32(volatile uint32_t *p,
                                                           mca_common_ompix_atomic_op_t op,
                                                           uint32_t v)
{
    volatile int32_t *w = (volatile int32_t *) p;
    int32_t old;

    opal_atomic_wmb();
    switch (op) {
    case MCA_COMMON_OMPIX_ATOMIC_ADD: old = opal_atomic_fetch_add_32(w, (int32_t) v); break;
    case MCA_COMMON_OMPIX_ATOMIC_AND: old = opal_atomic_fetch_and_32(w, (int32_t) v); break;
    case MCA_COMMON_OMPIX_ATOMIC_OR:  old = opal_atomic_fetch_or_32(w, (int32_t) v); break;
    case MCA_COMMON_OMPIX_ATOMIC_XOR: old = opal_atomic_fetch_xor_32(w, (int32_t) v); break;
    default:                          old = opal_atomic_swap_32(w, (int32_t) v); break;
    }
    opal_atomic_rmb();
    return (uint32_t) old;
}

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_ATOMIC_H */
