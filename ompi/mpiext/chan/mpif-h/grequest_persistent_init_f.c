/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Grequest_persistent_init:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.  The callbacks
 * are the user's bind(C) functions, called by the C layer as C ones
 * (extra_state by value).
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_GREQUEST_PERSISTENT_INIT, mpix_grequest_persistent_init,
                            MPIX_Grequest_persistent_init, ompix_grequest_persistent_init_f)

void ompix_grequest_persistent_init_f(MPIX_Grequest_start_function *start_fn,
                                      MPIX_Grequest_poll_function *poll_fn,
                                      MPI_Grequest_free_function *free_fn, MPI_Aint *extra_state,
                                      MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c_req = MPI_REQUEST_NULL;
    int rc = PMPIX_Grequest_persistent_init(start_fn, poll_fn, free_fn, (void *) *extra_state,
                                            &c_req);

    *request = PMPI_Request_c2f(c_req);
    mca_common_ompix_f_ierr(ierr, rc);
}
