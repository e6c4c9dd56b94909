/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Rget_notify:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_RGET_NOTIFY, mpix_rget_notify,
                            MPIX_Rget_notify, ompix_rget_notify_f)

static int ompix_rget_notify_call(const mpiext_notify_f_rma_t *a)
{
    return PMPIX_Rget_notify(a->buf, a->count, a->type, a->target_rank, a->target_disp,
                             a->target_count, a->target_type, a->id, a->win, a->request);
}

void ompix_rget_notify_f(char *origin_addr, MPI_Fint *origin_count, MPI_Fint *origin_type,
                         MPI_Fint *target_rank, MPI_Aint *target_disp, MPI_Fint *target_count,
                         MPI_Fint *target_type, MPI_Fint *id, MPI_Fint *win, MPI_Fint *request,
                         MPI_Fint *ierr)
{
    mpiext_notify_f_rma(origin_addr, origin_count, origin_type, target_rank, target_disp,
                        target_count, target_type, NULL, id, win, request,
                        ompix_rget_notify_call, ierr);
}
