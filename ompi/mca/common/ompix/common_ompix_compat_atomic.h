/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: opal's atomic lock.  4.1's opal_atomic_lock_t is a struct
 * (a union holding the lock word); 5.0's is the word itself, or a C11
 * atomic_flag, and 5.0 names its static initializer OPAL_ATOMIC_LOCK_INIT.
 * OMPIX_ATOMIC_LOCK_INITIALIZER initializes a static lock in either.  The
 * operations (opal_atomic_lock_init, opal_atomic_lock, opal_atomic_unlock)
 * are the same.
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

#endif /* MCA_COMMON_OMPIX_COMPAT_ATOMIC_H */
