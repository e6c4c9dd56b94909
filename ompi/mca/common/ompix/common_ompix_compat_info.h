/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: info subscriptions.  5.0's opal_key_interest_callback_t
 * takes and returns const strings (4.1: char *).  A callback is declared
 *
 *     static ompix_info_str_t *cb(opal_infosubscriber_t *obj,
 *                                 ompix_info_str_t *key, ompix_info_str_t *value);
 *
 * and compiles against either.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_INFO_H
#define MCA_COMMON_OMPIX_COMPAT_INFO_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"
#include "opal/util/info_subscriber.h"

#if OMPIX_OMPI_SERIES >= 50
typedef const char ompix_info_str_t;
#else
typedef char ompix_info_str_t;
#endif

#endif /* MCA_COMMON_OMPIX_COMPAT_INFO_H */
