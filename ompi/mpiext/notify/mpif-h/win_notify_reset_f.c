/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Win_notify_reset:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_WIN_NOTIFY_RESET, mpix_win_notify_reset,
                            MPIX_Win_notify_reset, ompix_win_notify_reset_f)

/* old is an INTEGER(KIND=MPI_COUNT_KIND), an MPI_Count. */
void ompix_win_notify_reset_f(MPI_Fint *win, MPI_Fint *id, MPI_Count *old, MPI_Fint *ierr)
{
    mca_common_ompix_f_ierr(ierr, PMPIX_Win_notify_reset(PMPI_Win_f2c(*win), (int) *id, old));
}
