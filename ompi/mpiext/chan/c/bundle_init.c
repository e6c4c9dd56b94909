/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Bundle_init: a persistent request over rounds of persistent members.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Bundle_init = PMPIX_Bundle_init
#endif
#define MPIX_Bundle_init PMPIX_Bundle_init
#endif

static const char FUNC_NAME[] = "MPIX_Bundle_init";

int MPIX_Bundle_init(int nrounds, const int round_sizes[], MPI_Request members[], MPI_Info info,
                     MPI_Request *bundle)
{
    int rc = ompix_chan_state_check(FUNC_NAME);

    if (MPI_SUCCESS == rc && MPI_PARAM_CHECK) {
        rc = ompix_bundle_check_args(nrounds, round_sizes, members, info, bundle, FUNC_NAME);
    }
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    return ompix_bundle_create(nrounds, round_sizes, members, bundle, FUNC_NAME);
}
