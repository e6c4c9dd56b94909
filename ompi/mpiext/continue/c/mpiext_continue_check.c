/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Argument checks and error reporting of the MPIX_ entry points
 * (continue_init.c, continue.c, continueall.c); the checks of the
 * registration path are inline in mpiext_continue_internal.h.
 *
 * Two kinds of checks.  Parameter checks look at the arguments only and
 * run inside "if (MPI_PARAM_CHECK)", so --mca mpi_param_check 0 skips them
 * as it does for every MPI function.  State rules protect ompix's own
 * invariants (MPI is up, a request carries at most one continuation, a
 * continuation can complete) and always run.  Errors go through
 * MPI_COMM_WORLD's error handler, as Open MPI's own request functions
 * (MPI_Start, MPI_Request_free) do for requests.
 */

#include "ompi_config.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/runtime/mpiruntime.h"

#include "mpiext_continue_internal.h"

int ompix_cont_error(int rc, const char *func_name, const char *why)
{
    char msg[MPI_MAX_ERROR_STRING];

    snprintf(msg, sizeof(msg), "%s: %s", func_name, why);
    return mca_common_ompix_errhandler_nohandle(rc, msg);
}

static int ompix_cont_cmp_req(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) *(MPI_Request const *) a;
    uintptr_t y = (uintptr_t) *(MPI_Request const *) b;
    return x < y ? -1 : x > y;
}

/* Open MPI hands out shared, already complete requests that live in a
 * library's static storage: ompi_request_empty for operations with nothing
 * to do (MPI_PROC_NULL, one-rank barriers), and pml ucx's
 * completed_send_req (inside its module, ompi_pml_ucx) for every send UCX
 * finished inline.  Both may appear many times in one array and are then
 * no duplicate: a complete request is recorded at registration and never
 * carries our callback, and their free only clears the handle.  Every
 * other request comes from a free list or the heap, outside any loaded
 * object, so dladdr() (asked only when two entries are equal) tells them
 * apart without knowing each component's layout. */
bool ompix_cont_shared_static(MPI_Request req)
{
    Dl_info info;

    if (&ompi_request_empty == req) {
        return true;
    }
    return REQUEST_COMPLETE(req) && !req->req_persistent && 0 != dladdr(req, &info);
}

static bool ompix_cont_distinct_op(MPI_Request req)
{
    return MPI_REQUEST_NULL != req && !ompix_cont_shared_static(req);
}

/* A request listed twice would get two continuations hooked on it.  Small
 * arrays are checked pairwise without allocating (two requests inline, see
 * ompix_cont_check_ops). */
int ompix_cont_check_duplicates(int count, MPI_Request reqs[], const char **why)
{
    bool dup = false;

    if (count <= 16) {
        for (int i = 0; i < count && !dup; ++i) {
            for (int j = i + 1; j < count && !dup; ++j) {
                dup = reqs[i] == reqs[j] && ompix_cont_distinct_op(reqs[i]);
            }
        }
    } else {
        MPI_Request *sorted = malloc(count * sizeof(*sorted));
        if (NULL == sorted) {
            *why = "out of memory";
            return MPI_ERR_NO_MEM;
        }
        memcpy(sorted, reqs, count * sizeof(*sorted));
        qsort(sorted, count, sizeof(*sorted), ompix_cont_cmp_req);
        for (int i = 1; i < count && !dup; ++i) {
            dup = sorted[i] == sorted[i - 1] && ompix_cont_distinct_op(sorted[i]);
        }
        free(sorted);
    }
    if (dup) {
        *why = "the same request appears twice in the operation requests";
        return MPI_ERR_REQUEST;
    }
    return MPI_SUCCESS;
}
