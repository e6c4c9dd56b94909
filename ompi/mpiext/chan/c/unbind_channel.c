/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Unbind_channel: releases a channel with no start outstanding.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Unbind_channel = PMPIX_Unbind_channel
#endif
#define MPIX_Unbind_channel PMPIX_Unbind_channel
#endif

static const char FUNC_NAME[] = "MPIX_Unbind_channel";

int MPIX_Unbind_channel(MPI_Request *chan)
{
    int rc = ompix_chan_state_check(FUNC_NAME);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPI_PARAM_CHECK && NULL == chan) {
        return ompix_chan_error(NULL, MPI_ERR_REQUEST, FUNC_NAME, "chan is NULL");
    }
    (void) rc;
    return ompix_chan_unbind(1, chan, false, FUNC_NAME);
}
