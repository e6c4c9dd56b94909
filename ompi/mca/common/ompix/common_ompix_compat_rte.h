/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: the runtime environment.  4.1 reaches ORTE through the
 * rte framework (ompi/mca/rte/rte.h); 5.0 removed the framework and talks
 * to PMIx/PRRTE from ompi/runtime/ompi_rte.h.  What ompix uses is the same
 * in both: ompi_process_info (nodename, proc_session_dir) and
 * OMPI_PROC_MY_NAME (jobid, vpid).
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_RTE_H
#define MCA_COMMON_OMPIX_COMPAT_RTE_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"

#if OMPIX_OMPI_SERIES >= 50
#include "ompi/runtime/ompi_rte.h"
#else
#include "ompi/mca/rte/rte.h"
#endif

#endif /* MCA_COMMON_OMPIX_COMPAT_RTE_H */
