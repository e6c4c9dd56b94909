/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Win_notify_waitsome:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_WIN_NOTIFY_WAITSOME, mpix_win_notify_waitsome,
                            MPIX_Win_notify_waitsome, ompix_win_notify_waitsome_f)

void ompix_win_notify_waitsome_f(MPI_Fint *win, MPI_Fint *first, MPI_Fint *num,
                                 MPI_Fint *timeout_ms, MPI_Fint *id, MPI_Fint *ierr)
{
    int c_id = MPIX_NOTIFY_NONE;
    int rc = PMPIX_Win_notify_waitsome(PMPI_Win_f2c(*win), (int) *first, (int) *num,
                                       (int) *timeout_ms, &c_id);

    *id = (MPI_Fint) c_id;
    mca_common_ompix_f_ierr(ierr, rc);
}
