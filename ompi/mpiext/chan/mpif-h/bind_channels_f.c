/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Bind_channels:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_BIND_CHANNELS, mpix_bind_channels,
                            MPIX_Bind_channels, ompix_bind_channels_f)

/* In the shape of the slack form (without slacks). */
static int ompix_bind_channels_shape(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                     const int slacks[], MPI_Info infos[])
{
    (void) slacks;
    return PMPIX_Bind_channels(n, reqs_in, reqs_out, infos);
}

void ompix_bind_channels_f(MPI_Fint *n, MPI_Fint *reqs_in, MPI_Fint *reqs_out, MPI_Fint *infos,
                           MPI_Fint *ierr)
{
    mpiext_chan_f_bind(*n, reqs_in, reqs_out, NULL, infos, ompix_bind_channels_shape, ierr,
                       "MPIX_Bind_channels");
}
