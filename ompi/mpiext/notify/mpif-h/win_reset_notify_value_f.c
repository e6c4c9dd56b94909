/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Win_reset_notify_value (the draft's name of
 * MPIX_Win_notify_reset): mpif.h, use mpi and use mpi_f08, PMPIX_ and
 * MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_WIN_RESET_NOTIFY_VALUE, mpix_win_reset_notify_value,
                            MPIX_Win_reset_notify_value, ompix_win_reset_notify_value_f)

/* old is an INTEGER(KIND=MPI_COUNT_KIND), an MPI_Count. */
void ompix_win_reset_notify_value_f(MPI_Fint *win, MPI_Fint *id, MPI_Count *old,
                                    MPI_Fint *ierr)
{
    mca_common_ompix_f_ierr(ierr,
                            PMPIX_Win_reset_notify_value(PMPI_Win_f2c(*win), (int) *id, old));
}
