/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Ibind_channels: starts binding n persistent requests.
 */

#include "ompi_config.h"

#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Ibind_channels = PMPIX_Ibind_channels
#endif
#define MPIX_Ibind_channels PMPIX_Ibind_channels
#endif

static const char FUNC_NAME[] = "MPIX_Ibind_channels";

int MPIX_Ibind_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[], MPI_Info infos[])
{
    return ompix_chan_bind_entry(n, reqs_in, reqs_out, NULL, false, infos, true, FUNC_NAME);
}
