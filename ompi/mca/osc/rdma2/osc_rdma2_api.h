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

#include <stdint.h>
#include <mpi.h>

/* Relative to this header, so that code outside the build tree that
 * includes it (test/common/registry.c) finds it too. */
#include "../../common/ompix/common_ompix_notify_ops.h"

#define MCA_OSC_RDMA2_API_NAME "osc/rdma2"
#define MCA_OSC_RDMA2_API_VERSION 4

/* Every function below that takes a window is called only for a window
 * serves() accepted, with arguments the extension has already checked
 * (valid datatypes and op, counts >= 0, 0 <= id, rank in the window's
 * group or MPI_PROC_NULL filtered out).  They return an MPI error class
 * (MPI_SUCCESS, MPI_ERR_RMA_SYNC without an access epoch to the target,
 * MPI_ERR_RMA_RANGE outside its window, MPI_ERR_ARG for id >= the
 * window's slot count, ...) and do not call the error handler: the
 * extension does, with its function's name. */
typedef struct mca_osc_rdma2_api_t {
    /* Whether osc/rdma2 serves this window. */
    int (*serves)(MPI_Win win);

    /* ---- notified RMA (version 2; 3: notify_slots returns `local`; 4:
     * get_accumulate_notify) ----
     * The seven entries of the contract common/ompix declares once
     * (common_ompix_notify_ops.h, which documents them): notify_slots,
     * read_notify, put_notify, get_notify, accumulate_notify,
     * set_num_notify, get_accumulate_notify.  Remote notifications are added into a process's
     * slots with no action of its owner (truly passive). */
    MCA_COMMON_OMPIX_NOTIFY_OPS
} mca_osc_rdma2_api_t;

#endif /* MCA_OSC_RDMA2_API_H */
