/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: info subscriptions.  5.0's opal_key_interest_callback_t
 * takes and returns const strings (4.1: char *).  A callback is declared
 *
 *     static ompix_info_str_t *cb(opal_infosubscriber_t *obj,
 *                                 ompix_info_str_t *key, ompix_info_str_t *value);
 *
 * and compiles against either.  ompi_info_get copies the value into the
 * caller's buffer in 4.1 and returns a reference-counted opal_cstring_t in
 * 5.0: mca_common_ompix_info_get keeps 4.1's form for both.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_INFO_H
#define MCA_COMMON_OMPIX_COMPAT_INFO_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"
#include <string.h>

#include "opal/util/info_subscriber.h"
#include "ompi/info/info.h"

#if OMPIX_OMPI_SERIES >= 50
typedef const char ompix_info_str_t;
#else
typedef char ompix_info_str_t;
#endif

/* The value of `key` in `info`, at most `valuelen` characters and a NUL
 * into `value` (valuelen + 1 bytes); *flag says whether the key is set. */
static inline int mca_common_ompix_info_get(ompi_info_t *info, const char *key, int valuelen,
                                            char *value, int *flag)
{
#if OMPIX_OMPI_SERIES >= 50
    opal_cstring_t *str = NULL;
    int rc = ompi_info_get(info, key, &str, flag);
    size_t n;

    if (OMPI_SUCCESS != rc || !*flag) {
        return rc;
    }
    n = str->length < (size_t) valuelen ? str->length : (size_t) valuelen;
    memcpy(value, str->string, n);
    value[n] = '\0';
    OBJ_RELEASE(str);
    return OMPI_SUCCESS;
#else
    return ompi_info_get(info, key, valuelen, value, flag);
#endif
}

#endif /* MCA_COMMON_OMPIX_COMPAT_INFO_H */
