/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Ibind_channels: starts binding n persistent requests.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

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
    int rc = ompix_chan_state_check(FUNC_NAME);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPI_PARAM_CHECK) {
        rc = ompix_chan_check_bind_args(n, reqs_in, reqs_out, NULL, infos, FUNC_NAME);
        if (MPI_SUCCESS != rc) {
            return rc;
        }
    }
    return ompix_chan_bind(n, reqs_in, reqs_out, NULL, infos, true, FUNC_NAME);
}
