/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Continue_init:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_continue_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_CONTINUE_INIT, mpix_continue_init, MPIX_Continue_init,
                            ompix_continue_init_f)

void ompix_continue_init_f(MPI_Fint *info, MPI_Fint *cont_req, MPI_Fint *ierr)
{
    MPI_Request c_req = MPI_REQUEST_NULL;
    int rc = PMPIX_Continue_init(PMPI_Info_f2c(*info), &c_req);

    *cont_req = PMPI_Request_c2f(c_req);
    mca_common_ompix_f_ierr(ierr, rc);
}
