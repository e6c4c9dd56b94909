/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Bundle_init:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_BUNDLE_INIT, mpix_bundle_init, MPIX_Bundle_init,
                            ompix_bundle_init_f)

/* How many members the rounds list (negative counts, which the C function
 * refuses, count none). */
static int ompix_bundle_f_members(MPI_Fint nrounds, const MPI_Fint *round_sizes)
{
    int n = 0;

    for (int r = 0; r < nrounds; ++r) {
        n += round_sizes[r] > 0 ? (int) round_sizes[r] : 0;
    }
    return n;
}

void ompix_bundle_init_f(MPI_Fint *nrounds, MPI_Fint *round_sizes, MPI_Fint *members,
                         MPI_Fint *info, MPI_Fint *bundle, MPI_Fint *ierr)
{
    int n = ompix_bundle_f_members(*nrounds, round_sizes);
    MPI_Request *c_members = mca_common_ompix_f_requests_f2c(n, members, ierr,
                                                             "MPIX_Bundle_init");
    MPI_Request c_bundle = MPI_REQUEST_NULL;
    int rc;

    if (NULL == c_members) {
        return;
    }
    rc = PMPIX_Bundle_init((int) *nrounds, (const int *) round_sizes, c_members,
                           PMPI_Info_f2c(*info), &c_bundle);
    *bundle = PMPI_Request_c2f(c_bundle);
    free(c_members);
    mca_common_ompix_f_ierr(ierr, rc);
}
