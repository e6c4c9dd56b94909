/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Win_notify_threshold:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_WIN_NOTIFY_THRESHOLD, mpix_win_notify_threshold,
                            MPIX_Win_notify_threshold, ompix_win_notify_threshold_f)

/* threshold and value are INTEGER(KIND=MPI_COUNT_KIND), MPI_Counts. */
void ompix_win_notify_threshold_f(MPI_Fint *win, MPI_Fint *id, MPI_Count *threshold,
                                  MPI_Fint *timeout_ms, MPI_Count *value, MPI_Fint *ierr)
{
    mca_common_ompix_f_ierr(ierr, PMPIX_Win_notify_threshold(PMPI_Win_f2c(*win), (int) *id,
                                                             *threshold, (int) *timeout_ms,
                                                             value));
}
