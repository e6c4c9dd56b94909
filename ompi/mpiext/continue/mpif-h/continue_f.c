/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Continue:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_continue_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_CONTINUE, mpix_continue, MPIX_Continue, ompix_continue_f)

/* op_request is in and out: a non-persistent request taken over becomes
 * MPI_REQUEST_NULL. */
void ompix_continue_f(MPI_Fint *op_request, MPIX_Continue_cb_function *cb, MPI_Aint *cb_data,
                      MPI_Fint *flags, MPI_Fint *status, MPI_Fint *cont_req, MPI_Fint *ierr)
{
    MPI_Request c_req = PMPI_Request_f2c(*op_request);
    int rc = PMPIX_Continue(&c_req, cb, (void *) *cb_data, (int) *flags,
                            mca_common_ompix_f_status(status), PMPI_Request_f2c(*cont_req));

    *op_request = PMPI_Request_c2f(c_req);
    mca_common_ompix_f_ierr(ierr, rc);
}
