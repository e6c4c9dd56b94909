/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The C functions behind the Fortran bindings of continuations (one per
 * MPIX_ function, exported under its mpif.h, use mpi and mpi_f08 names by
 * common_ompix_fortran.h's MCA_COMMON_OMPIX_F_BINDINGS).  Arguments are by
 * reference, as Fortran passes them; ierr may be NULL (mpi_f08 without
 * ierror).  The callback is the user's bind(C) procedure itself, called
 * by the C layer with C's arguments: the statuses in place (a Fortran
 * status is a C one here) and cb_data by value.
 */

#ifndef MPIEXT_CONTINUE_MPIFH_PROTOTYPES_H
#define MPIEXT_CONTINUE_MPIFH_PROTOTYPES_H

#include "ompi_config.h"
#include "mpi.h"
#include "ompi/mca/common/ompix/common_ompix_fortran.h"
#include "ompi/mpiext/continue/c/mpiext_continue_c.h"

void ompix_continue_init_f(MPI_Fint *info, MPI_Fint *cont_req, MPI_Fint *ierr);
void ompix_continue_f(MPI_Fint *op_request, MPIX_Continue_cb_function *cb, MPI_Aint *cb_data,
                      MPI_Fint *flags, MPI_Fint *status, MPI_Fint *cont_req, MPI_Fint *ierr);
void ompix_continueall_f(MPI_Fint *count, MPI_Fint *array_of_op_requests,
                         MPIX_Continue_cb_function *cb, MPI_Aint *cb_data, MPI_Fint *flags,
                         MPI_Fint *array_of_statuses, MPI_Fint *cont_req, MPI_Fint *ierr);

#endif /* MPIEXT_CONTINUE_MPIFH_PROTOTYPES_H */
