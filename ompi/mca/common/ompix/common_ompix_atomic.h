/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Atomics on words that several processes share (state blocks, meeting
 * lines, slots) with the orderings ompix's protocols need.
 *
 * Open MPI 4.1's atomics (opal/sys/atomic.h) are relaxed or acquire-only
 * read-modify-writes and fences, on signed types.  Where that is the
 * ordering a protocol needs, they are used as they are: the acquire
 * compare-and-swap that takes a lock, a release add (lock releases,
 * notifications) after a release fence, a sequentially consistent store
 * between fences.  Acquire loads, release stores and acquire-release
 * read-modify-writes opal 4.1 can only build from compiler barriers around
 * a plain or relaxed access, and on x86 those make the compiler reload
 * every value it keeps around them (measured: 10 more instructions per
 * MPI_Compare_and_swap + flush in osc/rdma2); those are compiler builtins,
 * here and nowhere else in ompix.
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
    return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL);
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
    return __atomic_compare_exchange_n(p, expected, desired, false, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
}

static inline bool mca_common_ompix_atomic_cswap_32(volatile uint32_t *p, uint32_t *expected,
                                                    uint32_t desired)
{
    return __atomic_compare_exchange_n(p, expected, desired, false, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
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

#define MCA_COMMON_OMPIX_ATOMIC_FETCH_OP(p, op, v)                                        \
    (MCA_COMMON_OMPIX_ATOMIC_ADD == (op)   ? __atomic_fetch_add((p), (v), __ATOMIC_ACQ_REL)  \
     : MCA_COMMON_OMPIX_ATOMIC_AND == (op) ? __atomic_fetch_and((p), (v), __ATOMIC_ACQ_REL)  \
     : MCA_COMMON_OMPIX_ATOMIC_OR == (op)  ? __atomic_fetch_or((p), (v), __ATOMIC_ACQ_REL)   \
     : MCA_COMMON_OMPIX_ATOMIC_XOR == (op) ? __atomic_fetch_xor((p), (v), __ATOMIC_ACQ_REL)  \
                                           : __atomic_exchange_n((p), (v), __ATOMIC_ACQ_REL))

static inline uint64_t mca_common_ompix_atomic_fetch_op_64(volatile uint64_t *p,
                                                           mca_common_ompix_atomic_op_t op,
                                                           uint64_t v)
{
    return MCA_COMMON_OMPIX_ATOMIC_FETCH_OP(p, op, v);
}

static inline uint32_t mca_common_ompix_atomic_fetch_op_32(volatile uint32_t *p,
                                                           mca_common_ompix_atomic_op_t op,
                                                           uint32_t v)
{
    return MCA_COMMON_OMPIX_ATOMIC_FETCH_OP(p, op, v);
}

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_ATOMIC_H */
