/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Continueall:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_continue_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_CONTINUEALL, mpix_continueall, MPIX_Continueall,
                            ompix_continueall_f)

/* The requests are in and out: those taken over become MPI_REQUEST_NULL. */
void ompix_continueall_f(MPI_Fint *count, MPI_Fint *array_of_op_requests,
                         MPIX_Continue_cb_function *cb, MPI_Aint *cb_data, MPI_Fint *flags,
                         MPI_Fint *array_of_statuses, MPI_Fint *cont_req, MPI_Fint *ierr)
{
    int n = (int) *count;
    MPI_Request *reqs = mca_common_ompix_f_requests_f2c(n, array_of_op_requests, ierr,
                                                        "MPIX_Continueall");
    int rc;

    if (NULL == reqs) {
        return;
    }
    rc = PMPIX_Continueall(n, reqs, cb, (void *) *cb_data, (int) *flags,
                           mca_common_ompix_f_statuses(array_of_statuses),
                           PMPI_Request_f2c(*cont_req));
    mca_common_ompix_f_requests_c2f(n, reqs, array_of_op_requests);
    free(reqs);
    mca_common_ompix_f_ierr(ierr, rc);
}
