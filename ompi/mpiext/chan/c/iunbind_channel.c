/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Iunbind_channel: unbinds a channel; Wait/Test on it completes the unbind and sets it to
 * MPI_REQUEST_NULL.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Iunbind_channel = PMPIX_Iunbind_channel
#endif
#define MPIX_Iunbind_channel PMPIX_Iunbind_channel
#endif

static const char FUNC_NAME[] = "MPIX_Iunbind_channel";

int MPIX_Iunbind_channel(MPI_Request *chan, MPI_Info info)
{
    int rc = ompix_chan_state_check(FUNC_NAME);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPI_PARAM_CHECK) {
        if (NULL == chan) {
            return ompix_chan_error(NULL, MPI_ERR_REQUEST, FUNC_NAME, "chan is NULL");
        }
        if (NULL == info || (MPI_INFO_NULL != info && ompi_info_is_freed(info))) {
            return ompix_chan_error(NULL, MPI_ERR_INFO, FUNC_NAME, "invalid info object");
        }
    }
    (void) rc;
    return ompix_chan_unbind(1, chan, true, FUNC_NAME);
}
