/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: keyvals the user may read but not set, delete or free
 * (Open MPI's OMPI_KEYVAL_PREDEFINED).  4.1's ompi_attr_create_keyval
 * allocates the key of a predefined keyval as of any other; 5.0's takes it
 * from the caller (its own predefined keys are fixed numbers) and
 * allocates only for the others.  So on 5.0 ompix names its keys from the
 * top of the key space, where the allocator (first free bit of a bitmap
 * growing from 0) never gets; `slot` numbers ompix's keyvals (0, 1, ...).
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_ATTR_H
#define MCA_COMMON_OMPIX_COMPAT_ATTR_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"

#include <limits.h>

#include "ompi/attribute/attribute.h"

/* Keys below INT_MAX reserved on 5.0 for ompix's predefined keyvals. */
#define MCA_COMMON_OMPIX_ATTR_KEYS 64

static inline int mca_common_ompix_attr_create_predefined(ompi_attribute_type_t type,
                                                          ompi_attribute_fn_ptr_union_t copy_fn,
                                                          ompi_attribute_fn_ptr_union_t del_fn,
                                                          int slot, int *key)
{
#if OMPIX_OMPI_SERIES >= 50
    if (slot < 0 || slot >= MCA_COMMON_OMPIX_ATTR_KEYS) {
        return OMPI_ERR_BAD_PARAM;
    }
    *key = INT_MAX - MCA_COMMON_OMPIX_ATTR_KEYS + slot;
#else
    (void) slot;
#endif
    return ompi_attr_create_keyval(type, copy_fn, del_fn, key, NULL, OMPI_KEYVAL_PREDEFINED,
                                   NULL);
}

#endif /* MCA_COMMON_OMPIX_COMPAT_ATTR_H */
