/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Unbind_channels:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_UNBIND_CHANNELS, mpix_unbind_channels,
                            MPIX_Unbind_channels, ompix_unbind_channels_f)

/* In the shape of the info form (without infos). */
static int ompix_unbind_channels_shape(int n, MPI_Request chans[], MPI_Info infos[])
{
    (void) infos;
    return PMPIX_Unbind_channels(n, chans);
}

void ompix_unbind_channels_f(MPI_Fint *n, MPI_Fint *chans, MPI_Fint *ierr)
{
    mpiext_chan_f_unbind(*n, chans, NULL, ompix_unbind_channels_shape, ierr,
                         "MPIX_Unbind_channels");
}
