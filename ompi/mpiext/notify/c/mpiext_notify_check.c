/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The out-of-line part of the notified RMA calls' parameter checks
 * (mpiext_notify_check.h): MPI_Accumulate's datatype/op rule.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "mpiext_notify_check.h"

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
