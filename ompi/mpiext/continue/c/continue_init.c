/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Continue_init: creates a continuation request.
 */

#include "ompi_config.h"

#include "ompi/info/info.h"
#include "ompi/runtime/params.h"

#include "mpiext_continue_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Continue_init = PMPIX_Continue_init
#endif
#define MPIX_Continue_init PMPIX_Continue_init
#endif

static const char FUNC_NAME[] = "MPIX_Continue_init";

int MPIX_Continue_init(MPI_Info info, MPI_Request *cont_req)
{
    ompix_cont_request_t *creq;
    const char *why = NULL;
    int rc;

    rc = ompix_cont_check_mpi_state(&why);
    if (MPI_SUCCESS != rc) {
        return ompix_cont_error(rc, FUNC_NAME, why);
    }
    if (MPI_PARAM_CHECK) {
        if (NULL == cont_req) {
            return ompix_cont_error(MPI_ERR_REQUEST, FUNC_NAME, "cont_req is NULL");
        }
        if (NULL == info || ompi_info_is_freed(info)) {
            return ompix_cont_error(MPI_ERR_INFO, FUNC_NAME, "invalid info object");
        }
    }

    rc = ompix_cont_global_init();
    if (OMPI_SUCCESS != rc) {
        return ompix_cont_error(rc, FUNC_NAME, "cannot set up continuations");
    }
    rc = ompix_cont_request_create(info, &creq);
    if (MPI_ERR_INFO_VALUE == rc) {
        return ompix_cont_error(rc, FUNC_NAME, "bad info value (mpi_continue_thread takes "
                                "application or any; mpi_continue_max_poll an integer)");
    }
    if (MPI_SUCCESS != rc) {
        return ompix_cont_error(rc, FUNC_NAME, "out of memory");
    }
    *cont_req = &creq->super;
    return MPI_SUCCESS;
}
