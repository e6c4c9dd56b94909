/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran binding of MPIX_Ibind_channel:
 * mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.  The channel
 * handle is stored when the bind completes (mpiext_chan_f_ibind).
 */

#include "mpiext_chan_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_IBIND_CHANNEL, mpix_ibind_channel, MPIX_Ibind_channel,
                            ompix_ibind_channel_f)

void ompix_ibind_channel_f(MPI_Fint *req_in, MPI_Fint *req_out, MPI_Fint *info, MPI_Fint *ierr)
{
    mpiext_chan_f_ibind(1, req_in, req_out, NULL, false, info, ierr, "MPIX_Ibind_channel");
}
