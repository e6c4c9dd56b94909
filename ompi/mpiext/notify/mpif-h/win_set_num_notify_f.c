/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Win_set_num_notify:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_WIN_SET_NUM_NOTIFY, mpix_win_set_num_notify,
                            MPIX_Win_set_num_notify, ompix_win_set_num_notify_f)

void ompix_win_set_num_notify_f(MPI_Fint *win, MPI_Fint *info, MPI_Fint *n, MPI_Fint *ierr)
{
    mca_common_ompix_f_ierr(ierr, PMPIX_Win_set_num_notify(PMPI_Win_f2c(*win),
                                                           PMPI_Info_f2c(*info), (int) *n));
}
