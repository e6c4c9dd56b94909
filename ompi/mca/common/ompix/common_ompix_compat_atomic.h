/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: opal's atomic lock.  4.1's opal_atomic_lock_t is a struct
 * (a union holding the lock word); 5.0's is the word itself, or a C11
 * atomic_flag, and 5.0 names its static initializer OPAL_ATOMIC_LOCK_INIT.
 * OMPIX_ATOMIC_LOCK_INITIALIZER initializes a static lock in either.  The
 * operations (opal_atomic_lock_init, opal_atomic_lock, opal_atomic_unlock)
 * are the same.  opal_atomic_swap_ptr is a macro over void pointers in 4.1
 * and a function over opal_atomic_intptr_t (which 4.1 lacks) in 5.0:
 * mca_common_ompix_atomic_swap_ptr swaps a pointer in either.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_ATOMIC_H
#define MCA_COMMON_OMPIX_COMPAT_ATOMIC_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"
#include "opal/sys/atomic.h"

#if OMPIX_OMPI_SERIES >= 50
#define OMPIX_ATOMIC_LOCK_INITIALIZER OPAL_ATOMIC_LOCK_INIT
#else
#define OMPIX_ATOMIC_LOCK_INITIALIZER {.u = {.lock = OPAL_ATOMIC_LOCK_UNLOCKED}}
#endif

/* Stores `value` at `addr`; returns what was there. */
static inline void *mca_common_ompix_atomic_swap_ptr(void *volatile *addr, void *value)
{
#if OMPIX_OMPI_SERIES >= 50
    return (void *) opal_atomic_swap_ptr((opal_atomic_intptr_t *) addr, (intptr_t) value);
#else
    return opal_atomic_swap_ptr(addr, value);
#endif
}

#endif /* MCA_COMMON_OMPIX_COMPAT_ATOMIC_H */
