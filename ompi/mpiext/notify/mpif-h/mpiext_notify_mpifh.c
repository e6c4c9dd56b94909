/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What the Fortran bindings of the notified RMA calls share: their
 * arguments converted to C once (handles with MPI's f2c functions,
 * Fortran's MPI_BOTTOM to C's), then the call; the request forms' request
 * handed back as a Fortran handle (MPI_REQUEST_NULL's after a failure, as
 * the C call leaves it).
 */

#include "mpiext_notify_mpifh_prototypes.h"

void mpiext_notify_f_rma(char *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *target_rank,
                         MPI_Aint *target_disp, MPI_Fint *target_count, MPI_Fint *target_type,
                         MPI_Fint *op, MPI_Fint *id, MPI_Fint *win, MPI_Fint *request,
                         mpiext_notify_f_rma_fn_t *fn, MPI_Fint *ierr)
{
    MPI_Request creq = MPI_REQUEST_NULL;
    mpiext_notify_f_rma_t a = {
        .buf = mca_common_ompix_f_buffer(buf),
        .count = (int) *count,
        .type = PMPI_Type_f2c(*type),
        .target_rank = (int) *target_rank,
        .target_disp = *target_disp,
        .target_count = (int) *target_count,
        .target_type = PMPI_Type_f2c(*target_type),
        .op = NULL == op ? MPI_OP_NULL : PMPI_Op_f2c(*op),
        .id = (int) *id,
        .win = PMPI_Win_f2c(*win),
        .request = &creq,
    };

    mca_common_ompix_f_ierr(ierr, fn(&a));
    if (NULL != request) {
        *request = PMPI_Request_c2f(creq);
    }
}
