/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Iunbind_channels:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_IUNBIND_CHANNELS, mpix_iunbind_channels,
                            MPIX_Iunbind_channels, ompix_iunbind_channels_f)

void ompix_iunbind_channels_f(MPI_Fint *n, MPI_Fint *chans, MPI_Fint *infos, MPI_Fint *ierr)
{
    mpiext_chan_f_unbind(*n, chans, infos, PMPIX_Iunbind_channels, ierr, "MPIX_Iunbind_channels");
}
