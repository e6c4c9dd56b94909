/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The Open MPI release series ompix is compiled against, for the
 * compatibility headers common_ompix_compat_<concern>.h: they, and only
 * they, test it; components and extensions use what they define.
 *
 * OMPIX_OMPI_SERIES is 41 (Open MPI 4.1.x) or 50 (5.0.x).  The plugin build's
 * configure defines it from ompi_info (config/ompix_ompi.m4); inside an Open
 * MPI source tree it follows that tree's version.  Either way it must agree
 * with the headers compiled against.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_SERIES_H
#define MCA_COMMON_OMPIX_COMPAT_SERIES_H

#include "ompi_config.h"

#define OMPIX_OMPI_SERIES_OF_HEADERS (OMPI_MAJOR_VERSION * 10 + OMPI_MINOR_VERSION)

#ifndef OMPIX_OMPI_SERIES
#define OMPIX_OMPI_SERIES OMPIX_OMPI_SERIES_OF_HEADERS
#endif

#if OMPIX_OMPI_SERIES != OMPIX_OMPI_SERIES_OF_HEADERS
#error "configure detected another Open MPI series than the headers included"
#endif

#if OMPIX_OMPI_SERIES != 41 && OMPIX_OMPI_SERIES != 50
#error "ompix supports the Open MPI 4.1 and 5.0 series"
#endif

#endif /* MCA_COMMON_OMPIX_COMPAT_SERIES_H */
