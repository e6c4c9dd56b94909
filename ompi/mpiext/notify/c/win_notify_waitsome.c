/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Win_notify_waitsome: waits until a slot in [first, first+num)
 * is non-zero (without taking its count) or timeout_ms has passed.
 */

#include "ompi_config.h"

#include "mpiext_notify_entry.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Win_notify_waitsome = PMPIX_Win_notify_waitsome
#endif
#define MPIX_Win_notify_waitsome PMPIX_Win_notify_waitsome
#endif

static const char FUNC_NAME[] = "MPIX_Win_notify_waitsome";

int MPIX_Win_notify_waitsome(MPI_Win win, int first, int num, int timeout_ms, int *id)
{
    int rc;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
        if (ompi_win_invalid(win)) {
            return ompix_notify_error(MPI_ERR_WIN, win, FUNC_NAME);
        }
        if (NULL == id || timeout_ms < MPIX_NOTIFY_BLOCK) {
            return ompix_notify_error(MPI_ERR_ARG, win, FUNC_NAME);
        }
    }
    /* Checked always: the range is then read without further checks. */
    if (OPAL_UNLIKELY(first < 0 || num < 1)) {
        return ompix_notify_error(MPI_ERR_ARG, win, FUNC_NAME);
    }
    rc = ompix_notify_waitsome(ompix_notify_ops(win), win, first, num, timeout_ms, id);
    OMPI_ERRHANDLER_RETURN(rc, win, rc, FUNC_NAME);
}
