/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Bind_channel:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_BIND_CHANNEL, mpix_bind_channel,
                            MPIX_Bind_channel, ompix_bind_channel_f)

/* The single form as the array form of one request. */
static int ompix_bind_channel_one(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                  const int slacks[], MPI_Info infos[])
{
    (void) n;
    (void) slacks;
    return PMPIX_Bind_channel(reqs_in[0], &reqs_out[0], infos[0]);
}

void ompix_bind_channel_f(MPI_Fint *req_in, MPI_Fint *req_out, MPI_Fint *info, MPI_Fint *ierr)
{
    mpiext_chan_f_bind(1, req_in, req_out, NULL, info, ompix_bind_channel_one, ierr,
                       "MPIX_Bind_channel");
}
