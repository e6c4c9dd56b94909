/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The out-of-line part of the notified RMA calls' parameter checks
 * (mpiext_notify_check.h): MPI_Accumulate's datatype/op rule, and
 * MPI_Get_accumulate's checks.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "mpiext_notify_check.h"
#include "mpiext_notify_rma.h"

/* MPI_Accumulate's rule for predefined reductions: both datatypes built
 * from one predefined type the op supports.  MPI_REPLACE takes anything. */
int ompix_notify_check_op(MPI_Datatype origin_type, MPI_Datatype target_type, MPI_Op op,
                          const char *func_name)
{
    ompi_datatype_t *origin_dt, *target_dt;
    char *msg = NULL;
    bool valid;

    if (&ompi_mpi_op_replace.op == op) {
        return MPI_SUCCESS;
    }
    origin_dt = ompi_datatype_get_single_predefined_type_from_args(origin_type);
    target_dt = ompi_datatype_get_single_predefined_type_from_args(target_type);
    if (NULL == target_dt || origin_dt != target_dt) {
        return MPI_ERR_ARG;
    }
    valid = ompi_op_is_valid(op, target_dt, &msg, func_name);
    free(msg);
    return valid ? MPI_SUCCESS : MPI_ERR_OP;
}

/* MPI_Get_accumulate's checks (ompi/mpi/c/get_accumulate.c), in its
 * order: the origin side only when the op reads it (not MPI_NO_OP). */
int ompix_notify_check_get_acc(const ompix_notify_rma_args_t *a, MPI_Win win,
                               const char *func_name)
{
    bool reads_origin = (MPI_NO_OP != a->op);
    int rc = MPI_SUCCESS;

    if (ompi_win_invalid(win)) {
        return MPI_ERR_WIN;
    }
    if (a->origin_count < 0 || a->result_count < 0 || a->target_count < 0) {
        return MPI_ERR_COUNT;
    }
    if (ompi_win_peer_invalid(win, a->target_rank) && MPI_PROC_NULL != a->target_rank) {
        return MPI_ERR_RANK;
    }
    if (NULL == a->op || MPI_OP_NULL == a->op || !ompi_op_is_intrinsic(a->op)) {
        return MPI_ERR_OP;
    }
    if (MPI_WIN_FLAVOR_DYNAMIC != win->w_flavor && a->target_disp < 0) {
        return MPI_ERR_DISP;
    }
    if (reads_origin) {
        OMPI_CHECK_DATATYPE_FOR_ONE_SIDED(rc, a->origin_type, a->origin_count);
    }
    if (MPI_SUCCESS == rc) {
        OMPI_CHECK_DATATYPE_FOR_ONE_SIDED(rc, a->result_type, a->result_count);
    }
    if (MPI_SUCCESS == rc) {
        OMPI_CHECK_DATATYPE_FOR_ONE_SIDED(rc, a->target_type, a->target_count);
    }
    if (MPI_SUCCESS == rc && reads_origin) {
        rc = ompix_notify_check_op(a->origin_type, a->target_type, a->op, func_name);
    }
    if (MPI_SUCCESS == rc && reads_origin) {
        rc = ompix_notify_check_buffer(a->origin_addr, a->origin_count, a->origin_type);
    }
    if (MPI_SUCCESS == rc) {
        rc = ompix_notify_check_buffer(a->result_addr, a->result_count, a->result_type);
    }
    return rc;
}
