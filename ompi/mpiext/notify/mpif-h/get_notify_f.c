/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Get_notify:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_GET_NOTIFY, mpix_get_notify, MPIX_Get_notify, ompix_get_notify_f)

static int ompix_get_notify_call(const mpiext_notify_f_rma_t *a)
{
    return PMPIX_Get_notify(a->buf, a->count, a->type, a->target_rank, a->target_disp,
                            a->target_count, a->target_type, a->id, a->win);
}

void ompix_get_notify_f(char *origin_addr, MPI_Fint *origin_count, MPI_Fint *origin_type,
                        MPI_Fint *target_rank, MPI_Aint *target_disp, MPI_Fint *target_count,
                        MPI_Fint *target_type, MPI_Fint *id, MPI_Fint *win, MPI_Fint *ierr)
{
    mpiext_notify_f_rma(origin_addr, origin_count, origin_type, target_rank, target_disp,
                        target_count, target_type, NULL, id, win, NULL,
                        ompix_get_notify_call, ierr);
}
