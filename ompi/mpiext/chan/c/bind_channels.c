/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Bind_channels: binds n persistent requests, with any partners, in any order.
 */

#include "ompi_config.h"

#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Bind_channels = PMPIX_Bind_channels
#endif
#define MPIX_Bind_channels PMPIX_Bind_channels
#endif

static const char FUNC_NAME[] = "MPIX_Bind_channels";

int MPIX_Bind_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[], MPI_Info infos[])
{
    return ompix_chan_bind_entry(n, reqs_in, reqs_out, NULL, false, infos, false, FUNC_NAME);
}
