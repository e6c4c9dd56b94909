/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: communicators.  5.0 gave communicators an extended
 * (128-bit) context id for its PMLs and renamed the process-local index
 * ompi_comm_get_local_cid (4.1: ompi_comm_get_cid, the only id).  ompix
 * needs the local one: it names this process's objects of a communicator.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_COMM_H
#define MCA_COMMON_OMPIX_COMPAT_COMM_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"
#include "ompi/communicator/communicator.h"

/* The communicator's index in this process. */
static inline uint32_t mca_common_ompix_comm_local_cid(ompi_communicator_t *comm)
{
#if OMPIX_OMPI_SERIES >= 50
    return ompi_comm_get_local_cid(comm);
#else
    return ompi_comm_get_cid(comm);
#endif
}

#endif /* MCA_COMMON_OMPIX_COMPAT_COMM_H */
