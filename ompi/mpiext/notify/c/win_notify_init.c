/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Win_notify_init: creates a notification request: persistent,
 * inactive; each MPI_Start arms it, and it completes once slot id is
 * non-zero, taking the count.
 */

#include "ompi_config.h"

#include "mpiext_notify_entry.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Win_notify_init = PMPIX_Win_notify_init
#endif
#define MPIX_Win_notify_init PMPIX_Win_notify_init
#endif

static const char FUNC_NAME[] = "MPIX_Win_notify_init";

int MPIX_Win_notify_init(MPI_Win win, int id, MPI_Request *request)
{
    int rc;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
        if (ompi_win_invalid(win)) {
            return ompix_notify_error(MPI_ERR_WIN, win, FUNC_NAME);
        }
        if (NULL == request) {
            return ompix_notify_error(MPI_ERR_REQUEST, win, FUNC_NAME);
        }
    }
    rc = ompix_notify_request_create(ompix_notify_ops(win), win, id, request);
    OMPI_ERRHANDLER_RETURN(rc, win, rc, FUNC_NAME);
}
