/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: the pml framework.  5.0's framework is version 2.1.0 (4.1:
 * 2.0.0) and its module structure gains pml_revoke_comm and
 * pml_get_transports and loses ft_event; the point-to-point entries ompix
 * wraps (isend_init, irecv_init) are the same.  Components use the
 * unversioned typedefs (mca_pml_base_module_t, mca_pml_base_component_t)
 * and this header's framework version.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_PML_H
#define MCA_COMMON_OMPIX_COMPAT_PML_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"
#include "ompi/mca/pml/pml.h"

#if OMPIX_OMPI_SERIES >= 50
#define OMPIX_PML_BASE_VERSION MCA_PML_BASE_VERSION_2_1_0
#else
#define OMPIX_PML_BASE_VERSION MCA_PML_BASE_VERSION_2_0_0
#endif

#endif /* MCA_COMMON_OMPIX_COMPAT_PML_H */
