/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Unbind_channel:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_UNBIND_CHANNEL, mpix_unbind_channel,
                            MPIX_Unbind_channel, ompix_unbind_channel_f)

/* The single form as the array form of one channel. */
static int ompix_unbind_channel_one(int n, MPI_Request chans[], MPI_Info infos[])
{
    (void) n;
    (void) infos;
    return PMPIX_Unbind_channel(&chans[0]);
}

void ompix_unbind_channel_f(MPI_Fint *chan, MPI_Fint *ierr)
{
    mpiext_chan_f_unbind(1, chan, NULL, ompix_unbind_channel_one, ierr, "MPIX_Unbind_channel");
}
