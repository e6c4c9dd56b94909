/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Bind_slack_channels: binds n persistent requests, each with its slack.
 */

#include "ompi_config.h"

#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Bind_slack_channels = PMPIX_Bind_slack_channels
#endif
#define MPIX_Bind_slack_channels PMPIX_Bind_slack_channels
#endif

static const char FUNC_NAME[] = "MPIX_Bind_slack_channels";

int MPIX_Bind_slack_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                             const int slacks[], MPI_Info infos[])
{
    return ompix_chan_bind_entry(n, reqs_in, reqs_out, slacks, true, infos, false, FUNC_NAME);
}
