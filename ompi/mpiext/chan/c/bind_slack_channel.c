/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Bind_slack_channel: binds one persistent request into a channel with up to slack starts
 * outstanding.
 */

#include "ompi_config.h"

#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Bind_slack_channel = PMPIX_Bind_slack_channel
#endif
#define MPIX_Bind_slack_channel PMPIX_Bind_slack_channel
#endif

static const char FUNC_NAME[] = "MPIX_Bind_slack_channel";

int MPIX_Bind_slack_channel(MPI_Request req_in, MPI_Request *req_out, int slack, MPI_Info info)
{
    return ompix_chan_bind_entry(1, &req_in, req_out, &slack, false, &info, false, FUNC_NAME);
}
