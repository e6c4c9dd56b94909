/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Continueall: attaches one continuation to a set of operation
 * requests.
 */

#include "ompi_config.h"

#include "ompi/runtime/params.h"

#include "mpiext_continue_internal.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Continueall = PMPIX_Continueall
#endif
#define MPIX_Continueall PMPIX_Continueall
#endif

static const char FUNC_NAME[] = "MPIX_Continueall";

/* The whole call for one count; MPIX_Continueall instantiates it for two
 * requests, the common case, so that its loops unroll. */
static inline __opal_attribute_always_inline__ int
ompix_cont_continueall(int count, MPI_Request reqs[], MPIX_Continue_cb_function *cb,
                       void *cb_data, int flags, MPI_Status statuses[], MPI_Request cont_req)
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
        if (MPI_SUCCESS == rc && count < 0) {
            rc = MPI_ERR_COUNT;
            why = "count is negative";
        }
        if (MPI_SUCCESS == rc && count > 0 && NULL == reqs) {
            rc = MPI_ERR_REQUEST;
            why = "array_of_op_requests is NULL";
        }
        if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
            return ompix_cont_error(rc, FUNC_NAME, why);
        }
    }
    rc = ompix_cont_check_ops(count, reqs, cont_req, flags, MPI_PARAM_CHECK, &plain, &why);
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        mca_common_ompix_request_show_release(count, reqs);
        return ompix_cont_error(rc, FUNC_NAME, why);
    }

    if (MPI_STATUSES_IGNORE == statuses) {
        statuses = NULL;
    }
    /* Without persistent requests (the common case) the lean path. */
    if (OPAL_LIKELY(plain)) {
        rc = ompix_cont_register_plain((ompix_cont_request_t *) cont_req, count, reqs, cb,
                                       cb_data, flags, statuses);
    } else {
        rc = ompix_cont_register((ompix_cont_request_t *) cont_req, count, reqs, cb, cb_data,
                                 flags, statuses);
        mca_common_ompix_request_show_release(count, reqs);
    }
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        return ompix_cont_error(rc, FUNC_NAME, "out of memory");
    }
    return MPI_SUCCESS;
}

int MPIX_Continueall(int count, MPI_Request array_of_op_requests[],
                     MPIX_Continue_cb_function *cb, void *cb_data, int flags,
                     MPI_Status array_of_statuses[], MPI_Request cont_req)
{
    if (2 == count) {
        return ompix_cont_continueall(2, array_of_op_requests, cb, cb_data, flags,
                                      array_of_statuses, cont_req);
    }
    return ompix_cont_continueall(count, array_of_op_requests, cb, cb_data, flags,
                                  array_of_statuses, cont_req);
}
