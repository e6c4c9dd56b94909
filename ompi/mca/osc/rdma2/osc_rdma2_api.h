/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What osc/rdma2 offers to MPI extensions, through common/ompix's registry
 * (ompi/mca/common/ompix/common_ompix_registry.h): an extension looks the
 * table up by name and version, and takes its generic path when the
 * lookup finds nothing (rdma2 not loaded, turned off, or from another
 * build).  Only <mpi.h> types here, so any extension can include it.
 * Bump the version on every change of the table.
 */
#ifndef MCA_OSC_RDMA2_API_H
#define MCA_OSC_RDMA2_API_H

#include <mpi.h>

#define MCA_OSC_RDMA2_API_NAME "osc/rdma2"
#define MCA_OSC_RDMA2_API_VERSION 1

typedef struct mca_osc_rdma2_api_t {
    /* Whether osc/rdma2 serves this window. */
    int (*serves)(MPI_Win win);
} mca_osc_rdma2_api_t;

#endif /* MCA_OSC_RDMA2_API_H */
