/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Continue: attaches a continuation to one operation request.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

#include "mpiext_continue_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Continue = PMPIX_Continue
#endif
#define MPIX_Continue PMPIX_Continue
#endif

static const char FUNC_NAME[] = "MPIX_Continue";

int MPIX_Continue(MPI_Request *op_request, MPIX_Continue_cb_function *cb,
                  void *cb_data, int flags, MPI_Status *status,
                  MPI_Request cont_req)
{
    const char *why = NULL;
    bool plain;
    int rc;

    rc = ompix_cont_check_mpi_state(&why);
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        return ompix_cont_error(rc, FUNC_NAME, why);
    }
    if (MPI_PARAM_CHECK) {
        rc = ompix_cont_check_args(cb, flags, cont_req, &why);
        if (MPI_SUCCESS == rc && NULL == op_request) {
            rc = MPI_ERR_REQUEST;
            why = "op_request is NULL";
        }
        if (MPI_SUCCESS != rc) {
            return ompix_cont_error(rc, FUNC_NAME, why);
        }
    }
    rc = ompix_cont_check_ops(1, op_request, cont_req, flags, MPI_PARAM_CHECK, &plain, &why);
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        mca_common_ompix_request_show_release(1, op_request);
        return ompix_cont_error(rc, FUNC_NAME, why);
    }

    if (MPI_STATUS_IGNORE == status) {
        status = NULL;
    }
    /* Without persistent requests (the common case) the lean path. */
    if (OPAL_LIKELY(plain)) {
        rc = ompix_cont_register_plain((ompix_cont_request_t *) cont_req, 1, op_request, cb,
                                       cb_data, flags, status);
    } else {
        rc = ompix_cont_register((ompix_cont_request_t *) cont_req, 1, op_request, cb, cb_data,
                                 flags, status);
        mca_common_ompix_request_show_release(1, op_request);
    }
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        return ompix_cont_error(rc, FUNC_NAME, "out of memory");
    }
    return MPI_SUCCESS;
}
