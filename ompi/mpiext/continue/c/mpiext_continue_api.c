/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Continue_init, MPIX_Continue, MPIX_Continueall: argument checking
 * and error reporting.  Errors go through MPI_COMM_WORLD's error handler,
 * as Open MPI's own request functions (MPI_Start, MPI_Request_free) do for
 * requests.
 */

#include "ompi_config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/runtime/mpiruntime.h"

#include "mpiext_continue_internal.h"

#define OMPIX_CONT_ERROR(code, msg) \
    OMPI_ERRHANDLER_INVOKE(MPI_COMM_WORLD, (code), (msg))

static int ompix_cont_check_common(MPIX_Continue_cb_function *cb, int flags,
                                   MPI_Request cont_req, const char **msg)
{
    if (OMPI_MPI_STATE_INIT_COMPLETED != ompi_mpi_state) {
        *msg = "MPIX_Continue: MPI is not initialized";
        return MPI_ERR_OTHER;
    }
    if (NULL == cb) {
        *msg = "MPIX_Continue: the callback is NULL";
        return MPI_ERR_ARG;
    }
    if (0 != (flags & ~(MPIX_CONT_IMMEDIATE | MPIX_CONT_PERSISTENT))) {
        *msg = "MPIX_Continue: unknown bits in flags (allowed: MPIX_CONT_IMMEDIATE, "
               "MPIX_CONT_PERSISTENT)";
        return MPI_ERR_ARG;
    }
    if (NULL == cont_req || MPI_REQUEST_NULL == cont_req
        || !ompix_cont_is_request(cont_req)) {
        *msg = "MPIX_Continue: cont_req is not a continuation request "
               "(create one with MPIX_Continue_init)";
        return MPI_ERR_REQUEST;
    }
    return MPI_SUCCESS;
}

static int ompix_cont_cmp_req(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) *(MPI_Request const *) a;
    uintptr_t y = (uintptr_t) *(MPI_Request const *) b;
    return x < y ? -1 : x > y;
}

/* A request listed twice would get two continuations hooked on it.  Open
 * MPI hands out one shared, already complete request for operations with
 * nothing to do (MPI_PROC_NULL, one-rank barriers), which may appear many
 * times.  Small arrays (the common case) are checked pairwise without
 * allocating. */
static bool ompix_cont_distinct_op(MPI_Request req)
{
    return MPI_REQUEST_NULL != req && &ompi_request_empty != req;
}

static int ompix_cont_check_duplicates(int count, MPI_Request reqs[], const char **msg)
{
    bool dup = false;

    if (count <= 16) {
        for (int i = 0; i < count && !dup; ++i) {
            for (int j = i + 1; j < count && !dup; ++j) {
                dup = ompix_cont_distinct_op(reqs[i]) && reqs[i] == reqs[j];
            }
        }
    } else {
        MPI_Request *sorted = malloc(count * sizeof(*sorted));
        if (NULL == sorted) {
            *msg = "MPIX_Continueall: out of memory";
            return MPI_ERR_NO_MEM;
        }
        memcpy(sorted, reqs, count * sizeof(*sorted));
        qsort(sorted, count, sizeof(*sorted), ompix_cont_cmp_req);
        for (int i = 1; i < count && !dup; ++i) {
            dup = ompix_cont_distinct_op(sorted[i]) && sorted[i] == sorted[i - 1];
        }
        free(sorted);
    }
    if (dup) {
        *msg = "MPIX_Continueall: the same request appears twice in array_of_op_requests";
        return MPI_ERR_REQUEST;
    }
    return MPI_SUCCESS;
}

static int ompix_cont_check_ops(int count, MPI_Request reqs[], int flags,
                                MPI_Request cont_req, const char **msg)
{
    int rc = ompix_cont_check_duplicates(count, reqs, msg);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    for (int i = 0; i < count; ++i) {
        rc = ompix_cont_check_op(reqs[i], 0 != (flags & MPIX_CONT_PERSISTENT),
                                 (ompix_cont_request_t *) cont_req);
        if (MPI_SUCCESS != rc) {
            *msg = "MPIX_Continue: an operation request is invalid: it already has a "
                   "continuation, is an inactive persistent request (allowed only with "
                   "MPIX_CONT_PERSISTENT), or is the continuation request itself";
            return rc;
        }
    }
    return MPI_SUCCESS;
}

int MPIX_Continue_init(MPI_Info info, MPI_Request *cont_req)
{
    ompix_cont_request_t *creq;
    int rc;

    if (OMPI_MPI_STATE_INIT_COMPLETED != ompi_mpi_state) {
        return OMPIX_CONT_ERROR(MPI_ERR_OTHER, "MPIX_Continue_init: MPI is not initialized");
    }
    if (NULL == cont_req) {
        return OMPIX_CONT_ERROR(MPI_ERR_REQUEST, "MPIX_Continue_init: cont_req is NULL");
    }
    if (NULL == info || ompi_info_is_freed(info)) {
        return OMPIX_CONT_ERROR(MPI_ERR_INFO, "MPIX_Continue_init: invalid info object");
    }
    rc = ompix_cont_global_init();
    if (OMPI_SUCCESS != rc) {
        return OMPIX_CONT_ERROR(rc, "MPIX_Continue_init: cannot set up continuations");
    }
    rc = ompix_cont_request_create(info, &creq);
    if (MPI_ERR_INFO_VALUE == rc) {
        return OMPIX_CONT_ERROR(rc, "MPIX_Continue_init: bad info value (mpi_continue_thread "
                                    "takes application or any; mpi_continue_max_poll an integer)");
    }
    if (MPI_SUCCESS != rc) {
        return OMPIX_CONT_ERROR(rc, "MPIX_Continue_init: out of memory");
    }
    *cont_req = &creq->super;
    return MPI_SUCCESS;
}

int MPIX_Continueall(int count, MPI_Request array_of_op_requests[],
                     MPIX_Continue_cb_function *cb, void *cb_data, int flags,
                     MPI_Status array_of_statuses[], MPI_Request cont_req)
{
    const char *msg = NULL;
    int rc = ompix_cont_check_common(cb, flags, cont_req, &msg);

    if (MPI_SUCCESS == rc && count < 0) {
        rc = MPI_ERR_COUNT;
        msg = "MPIX_Continueall: count is negative";
    }
    if (MPI_SUCCESS == rc && count > 0 && NULL == array_of_op_requests) {
        rc = MPI_ERR_REQUEST;
        msg = "MPIX_Continueall: array_of_op_requests is NULL";
    }
    if (MPI_SUCCESS == rc) {
        rc = ompix_cont_check_ops(count, array_of_op_requests, flags, cont_req, &msg);
    }
    if (MPI_SUCCESS != rc) {
        return OMPIX_CONT_ERROR(rc, msg);
    }
    rc = ompix_cont_register((ompix_cont_request_t *) cont_req, count, array_of_op_requests,
                             cb, cb_data, flags,
                             MPI_STATUSES_IGNORE == array_of_statuses ? NULL : array_of_statuses);
    if (MPI_SUCCESS != rc) {
        return OMPIX_CONT_ERROR(rc, "MPIX_Continueall: out of memory");
    }
    return MPI_SUCCESS;
}

int MPIX_Continue(MPI_Request *op_request, MPIX_Continue_cb_function *cb,
                  void *cb_data, int flags, MPI_Status *status,
                  MPI_Request cont_req)
{
    const char *msg = NULL;
    int rc = ompix_cont_check_common(cb, flags, cont_req, &msg);

    if (MPI_SUCCESS == rc && NULL == op_request) {
        rc = MPI_ERR_REQUEST;
        msg = "MPIX_Continue: op_request is NULL";
    }
    if (MPI_SUCCESS == rc) {
        rc = ompix_cont_check_ops(1, op_request, flags, cont_req, &msg);
    }
    if (MPI_SUCCESS != rc) {
        return OMPIX_CONT_ERROR(rc, msg);
    }
    rc = ompix_cont_register((ompix_cont_request_t *) cont_req, 1, op_request, cb, cb_data,
                             flags, MPI_STATUS_IGNORE == status ? NULL : status);
    if (MPI_SUCCESS != rc) {
        return OMPIX_CONT_ERROR(rc, "MPIX_Continue: out of memory");
    }
    return MPI_SUCCESS;
}
