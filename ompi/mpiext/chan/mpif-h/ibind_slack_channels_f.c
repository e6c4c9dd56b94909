/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Ibind_slack_channels:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.  The channel
 * handle is stored when the bind completes (mpiext_chan_f_ibind).
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_IBIND_SLACK_CHANNELS, mpix_ibind_slack_channels,
                            MPIX_Ibind_slack_channels, ompix_ibind_slack_channels_f)

void ompix_ibind_slack_channels_f(MPI_Fint *n, MPI_Fint *reqs_in, MPI_Fint *reqs_out,
                                  MPI_Fint *slacks, MPI_Fint *infos, MPI_Fint *ierr)
{
    mpiext_chan_f_ibind(*n, reqs_in, reqs_out, slacks, true, infos, ierr,
                        "MPIX_Ibind_slack_channels");
}
