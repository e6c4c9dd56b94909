/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Ibind_channel: starts binding one persistent request into a channel; req_in completes
 * when the bind does.
 */

#include "ompi_config.h"

#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Ibind_channel = PMPIX_Ibind_channel
#endif
#define MPIX_Ibind_channel PMPIX_Ibind_channel
#endif

static const char FUNC_NAME[] = "MPIX_Ibind_channel";

int MPIX_Ibind_channel(MPI_Request req_in, MPI_Request *req_out, MPI_Info info)
{
    return ompix_chan_bind_entry(1, &req_in, req_out, NULL, false, &info, true, FUNC_NAME);
}
