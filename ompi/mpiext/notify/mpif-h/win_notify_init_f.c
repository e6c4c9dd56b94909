/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Win_notify_init:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_WIN_NOTIFY_INIT, mpix_win_notify_init,
                            MPIX_Win_notify_init, ompix_win_notify_init_f)

void ompix_win_notify_init_f(MPI_Fint *win, MPI_Fint *id, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c_req = MPI_REQUEST_NULL;
    int rc = PMPIX_Win_notify_init(PMPI_Win_f2c(*win), (int) *id, &c_req);

    *request = PMPI_Request_c2f(c_req);
    mca_common_ompix_f_ierr(ierr, rc);
}
