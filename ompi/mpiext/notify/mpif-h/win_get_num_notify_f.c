/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Win_get_num_notify:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_WIN_GET_NUM_NOTIFY, mpix_win_get_num_notify,
                            MPIX_Win_get_num_notify, ompix_win_get_num_notify_f)

void ompix_win_get_num_notify_f(MPI_Fint *win, MPI_Fint *n, MPI_Fint *ierr)
{
    int c_n = 0;
    int rc = PMPIX_Win_get_num_notify(PMPI_Win_f2c(*win), &c_n);

    *n = (MPI_Fint) c_n;
    mca_common_ompix_f_ierr(ierr, rc);
}
