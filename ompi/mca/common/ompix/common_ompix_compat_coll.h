/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: the coll framework.  The module and component structures
 * are the same between the series but for their versioned names (module
 * 2.3.0 in 4.1, 2.4.0 in 5.0, which adds the fault-tolerant agreement slots
 * and drops ft_event); components use the unversioned typedefs
 * (mca_coll_base_module_t, mca_coll_base_component_t) and this header's
 * framework version.  The persistent-collective slots (coll_*_init) are
 * the same: 4.1 reaches them through its MPIX_*_init extension (pcollreq),
 * 5.0 through the standard MPI_*_init (and pcollreq's MPIX_ names).
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_COLL_H
#define MCA_COMMON_OMPIX_COMPAT_COLL_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"
#include "ompi/mca/coll/coll.h"

#if OMPIX_OMPI_SERIES >= 50
#define OMPIX_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_4_0
#else
#define OMPIX_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_0_0
#endif

#endif /* MCA_COMMON_OMPIX_COMPAT_COLL_H */
