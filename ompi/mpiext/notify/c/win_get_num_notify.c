/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Win_get_num_notify: the number of slots each process has on win.
 */

#include "ompi_config.h"

#include "mpiext_notify_entry.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Win_get_num_notify = PMPIX_Win_get_num_notify
#endif
#define MPIX_Win_get_num_notify PMPIX_Win_get_num_notify
#endif

static const char FUNC_NAME[] = "MPIX_Win_get_num_notify";

int MPIX_Win_get_num_notify(MPI_Win win, int *n)
{
    int64_t *slots, *local;
    int rc;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
        if (ompi_win_invalid(win)) {
            return ompix_notify_error(MPI_ERR_WIN, win, FUNC_NAME);
        }
        if (NULL == n) {
            return ompix_notify_error(MPI_ERR_ARG, win, FUNC_NAME);
        }
    }
    rc = ompix_notify_ops(win)->notify_slots(win, &slots, &local, n);
    OMPI_ERRHANDLER_RETURN(rc, win, rc, FUNC_NAME);
}
