/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Grequest_persistent_init: a persistent generalized request.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Grequest_persistent_init = PMPIX_Grequest_persistent_init
#endif
#define MPIX_Grequest_persistent_init PMPIX_Grequest_persistent_init
#endif

static const char FUNC_NAME[] = "MPIX_Grequest_persistent_init";

int MPIX_Grequest_persistent_init(MPIX_Grequest_start_function *start_fn,
                                  MPIX_Grequest_poll_function *poll_fn,
                                  MPI_Grequest_free_function *free_fn, void *extra_state,
                                  MPI_Request *request)
{
    int rc = ompix_chan_state_check(FUNC_NAME);

    if (MPI_SUCCESS == rc && MPI_PARAM_CHECK && (NULL == poll_fn || NULL == request)) {
        rc = ompix_chan_error(NULL, MPI_ERR_ARG, FUNC_NAME, "poll_fn or request is NULL");
    }
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = ompix_bundle_greq_create(start_fn, poll_fn, free_fn, extra_state, request);
    if (MPI_SUCCESS != rc) {
        return ompix_chan_error(NULL, rc, FUNC_NAME, "cannot allocate the request");
    }
    return MPI_SUCCESS;
}
