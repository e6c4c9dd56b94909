/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Ibind_channel: starts binding one persistent request into a channel; req_in completes
 * when the bind does.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

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
    int rc = ompix_chan_state_check(FUNC_NAME);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPI_PARAM_CHECK) {
        rc = ompix_chan_check_bind_args(1, &req_in, req_out, NULL, &info, FUNC_NAME);
        if (MPI_SUCCESS != rc) {
            return rc;
        }
    }
    return ompix_chan_bind(1, &req_in, req_out, NULL, &info, true, FUNC_NAME);
}
