/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: opal's threads.  5.0 made them a framework
 * (opal/mca/threads: pthreads, argobots, qthreads) and moved the headers
 * from opal/threads; the API ompix uses (opal_mutex_t, OPAL_THREAD_LOCK,
 * opal_thread_t, opal_using_threads, wait_sync_update) is the same.  Include this header
 * instead of either path.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_THREADS_H
#define MCA_COMMON_OMPIX_COMPAT_THREADS_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"

#if OMPIX_OMPI_SERIES >= 50
#include "opal/mca/threads/mutex.h"
#include "opal/mca/threads/threads.h"
#include "opal/mca/threads/wait_sync.h"
#else
#include "opal/threads/mutex.h"
#include "opal/threads/threads.h"
#include "opal/threads/wait_sync.h"
#endif

#endif /* MCA_COMMON_OMPIX_COMPAT_THREADS_H */
