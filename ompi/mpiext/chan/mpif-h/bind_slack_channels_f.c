/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Bind_slack_channels:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_BIND_SLACK_CHANNELS, mpix_bind_slack_channels,
                            MPIX_Bind_slack_channels, ompix_bind_slack_channels_f)

void ompix_bind_slack_channels_f(MPI_Fint *n, MPI_Fint *reqs_in, MPI_Fint *reqs_out,
                                 MPI_Fint *slacks, MPI_Fint *infos, MPI_Fint *ierr)
{
    mpiext_chan_f_bind(*n, reqs_in, reqs_out, slacks, infos, PMPIX_Bind_slack_channels, ierr,
                       "MPIX_Bind_slack_channels");
}
