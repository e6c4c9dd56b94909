/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Iunbind_channel:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_IUNBIND_CHANNEL, mpix_iunbind_channel,
                            MPIX_Iunbind_channel, ompix_iunbind_channel_f)

/* The single form as the array form of one channel. */
static int ompix_iunbind_channel_one(int n, MPI_Request chans[], MPI_Info infos[])
{
    (void) n;
    return PMPIX_Iunbind_channel(&chans[0], infos[0]);
}

void ompix_iunbind_channel_f(MPI_Fint *chan, MPI_Fint *info, MPI_Fint *ierr)
{
    mpiext_chan_f_unbind(1, chan, info, ompix_iunbind_channel_one, ierr, "MPIX_Iunbind_channel");
}
