/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The parameter checks of the notified RMA calls: Open MPI's own for
 * MPI_Put, MPI_Get and MPI_Accumulate (ompi/mpi/c/put.c, accumulate.c), in
 * the same order, then the notification id.  The id's upper bound is the
 * table's to check: it knows the window's slot count.  Inline: an
 * out-of-line call with eleven arguments cost as much as the checks.
 */
#ifndef MPIEXT_NOTIFY_CHECK_H
#define MPIEXT_NOTIFY_CHECK_H

#include "ompi_config.h"

#include <stdbool.h>

#include "mpi.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mpi/c/bindings.h"
#include "ompi/op/op.h"
#include "ompi/win/win.h"

BEGIN_C_DECLS

/* mpiext_notify_check.c: MPI_Accumulate's rule for predefined reductions,
 * out of line (accumulate only). */
int ompix_notify_check_op(MPI_Datatype origin_type, MPI_Datatype target_type, MPI_Op op,
                          const char *func_name);

/* MPI_ERR_BUFFER for a NULL origin buffer with data to move, unless the
 * datatype holds absolute addresses (MPI_BOTTOM, which is NULL in Open
 * MPI): the lowest byte it touches is then an address of this process,
 * never in the unmapped first page. */
static inline int ompix_notify_check_buffer(const void *addr, int count, MPI_Datatype type)
{
    ptrdiff_t lb, extent, true_lb, true_extent;
    size_t bytes;

    if (OPAL_LIKELY(NULL != addr) || 0 == count) {
        return MPI_SUCCESS;
    }
    ompi_datatype_type_size(type, &bytes);
    if (0 == bytes) {
        return MPI_SUCCESS;
    }
    ompi_datatype_get_extent(type, &lb, &extent);
    ompi_datatype_get_true_extent(type, &true_lb, &true_extent);
    if (extent < 0) {
        true_lb += (ptrdiff_t) (count - 1) * extent;
    }
    return true_lb < 4096 ? MPI_ERR_BUFFER : MPI_SUCCESS;
}

/* MPI_Put's checks, MPI_Accumulate's when `acc` (then op is checked too),
 * plus the origin buffer.  Returns an MPI error class; the caller reports
 * it with ompix_notify_error.  The id is checked by the caller, always. */
static inline int ompix_notify_check_rma(const void *origin_addr, int origin_count,
                                         MPI_Datatype origin_type,
                                         int target_rank, MPI_Aint target_disp,
                                         int target_count, MPI_Datatype target_type, bool acc,
                                         MPI_Op op, MPI_Win win,
                                         const char *func_name)
{
    int rc = MPI_SUCCESS;

    if (ompi_win_invalid(win)) {
        return MPI_ERR_WIN;
    }
    if (origin_count < 0 || target_count < 0) {
        return MPI_ERR_COUNT;
    }
    if (ompi_win_peer_invalid(win, target_rank) && MPI_PROC_NULL != target_rank) {
        return MPI_ERR_RANK;
    }
    if (NULL == target_type || MPI_DATATYPE_NULL == target_type) {
        return MPI_ERR_TYPE;
    }
    if (acc && (NULL == op || MPI_OP_NULL == op || MPI_NO_OP == op
                || !ompi_op_is_intrinsic(op))) {
        return MPI_ERR_OP;
    }
    if (MPI_WIN_FLAVOR_DYNAMIC != win->w_flavor && target_disp < 0) {
        return MPI_ERR_DISP;
    }
    OMPI_CHECK_DATATYPE_FOR_ONE_SIDED(rc, origin_type, origin_count);
    /* The same type passes the same checks again (both counts are >= 0). */
    if (MPI_SUCCESS == rc && target_type != origin_type) {
        OMPI_CHECK_DATATYPE_FOR_ONE_SIDED(rc, target_type, target_count);
    }
    if (MPI_SUCCESS == rc && acc) {
        rc = ompix_notify_check_op(origin_type, target_type, op, func_name);
    }
    if (MPI_SUCCESS == rc) {
        rc = ompix_notify_check_buffer(origin_addr, origin_count, origin_type);
    }
    return rc;
}

END_C_DECLS

#endif /* MPIEXT_NOTIFY_CHECK_H */
