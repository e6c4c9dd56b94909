/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Accumulate_notify:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_ACCUMULATE_NOTIFY, mpix_accumulate_notify,
                            MPIX_Accumulate_notify, ompix_accumulate_notify_f)

static int ompix_accumulate_notify_call(const mpiext_notify_f_rma_t *a)
{
    return PMPIX_Accumulate_notify(a->buf, a->count, a->type, a->target_rank, a->target_disp,
                                   a->target_count, a->target_type, a->op, a->id, a->win);
}

void ompix_accumulate_notify_f(char *origin_addr, MPI_Fint *origin_count, MPI_Fint *origin_type,
                               MPI_Fint *target_rank, MPI_Aint *target_disp,
                               MPI_Fint *target_count, MPI_Fint *target_type, MPI_Fint *op,
                               MPI_Fint *id, MPI_Fint *win, MPI_Fint *ierr)
{
    mpiext_notify_f_rma(origin_addr, origin_count, origin_type, target_rank, target_disp,
                        target_count, target_type, op, id, win, NULL, ompix_accumulate_notify_call,
                        ierr);
}
