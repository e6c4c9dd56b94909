/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Profiling interface of MPI continuations: a tool defines its own
 * MPIX_Continue_init, MPIX_Continue and MPIX_Continueall and forwards to
 * these.  Included from mpiext_continue_c.h, hence from <mpi-ext.h>.
 */

#ifndef PMPIEXT_CONTINUE_C_H
#define PMPIEXT_CONTINUE_C_H

/* C linkage for C++ programs (mpicxx), as Open MPI's own mpi-ext.h
 * does; nested inside its extern "C" in an in-tree build. */
#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

OMPI_DECLSPEC int PMPIX_Continue_init(MPI_Info info, MPI_Request *cont_req);

OMPI_DECLSPEC int PMPIX_Continue(MPI_Request *op_request,
                                 MPIX_Continue_cb_function *cb, void *cb_data,
                                 int flags, MPI_Status *status,
                                 MPI_Request cont_req);

OMPI_DECLSPEC int PMPIX_Continueall(int count, MPI_Request array_of_op_requests[],
                                    MPIX_Continue_cb_function *cb, void *cb_data,
                                    int flags, MPI_Status array_of_statuses[],
                                    MPI_Request cont_req);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMPIEXT_CONTINUE_C_H */
