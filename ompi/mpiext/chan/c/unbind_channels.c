/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Unbind_channels: releases n channels.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Unbind_channels = PMPIX_Unbind_channels
#endif
#define MPIX_Unbind_channels PMPIX_Unbind_channels
#endif

static const char FUNC_NAME[] = "MPIX_Unbind_channels";

int MPIX_Unbind_channels(int n, MPI_Request chans[])
{
    int rc = ompix_chan_state_check(FUNC_NAME);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    (void) rc;
    return ompix_chan_unbind(n, chans, false, FUNC_NAME);
}
