/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Iunbind_channels: unbinds n channels, each completed by Wait/Test.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Iunbind_channels = PMPIX_Iunbind_channels
#endif
#define MPIX_Iunbind_channels PMPIX_Iunbind_channels
#endif

static const char FUNC_NAME[] = "MPIX_Iunbind_channels";

int MPIX_Iunbind_channels(int n, MPI_Request chans[], MPI_Info infos[])
{
    int rc = ompix_chan_state_check(FUNC_NAME);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPI_PARAM_CHECK && NULL != infos) {
        for (int i = 0; i < n; ++i) {
            if (NULL == infos[i] || (MPI_INFO_NULL != infos[i] && ompi_info_is_freed(infos[i]))) {
                return ompix_chan_error(NULL, MPI_ERR_INFO, FUNC_NAME, "invalid info object");
            }
        }
    }
    (void) rc;
    return ompix_chan_unbind(n, chans, true, FUNC_NAME);
}
