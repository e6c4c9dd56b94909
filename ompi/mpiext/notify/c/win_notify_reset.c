/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Win_notify_reset: takes slot id's count (an exchange with 0).
 */

#include "ompi_config.h"

#include "mpiext_notify_entry.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Win_notify_reset = PMPIX_Win_notify_reset
#endif
#define MPIX_Win_notify_reset PMPIX_Win_notify_reset
#endif

static const char FUNC_NAME[] = "MPIX_Win_notify_reset";

int MPIX_Win_notify_reset(MPI_Win win, int id, MPI_Count *old)
{
    int64_t *slot, *local;
    int rc;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
        if (ompi_win_invalid(win)) {
            return ompix_notify_error(MPI_ERR_WIN, win, FUNC_NAME);
        }
        if (NULL == old) {
            return ompix_notify_error(MPI_ERR_ARG, win, FUNC_NAME);
        }
    }
    rc = ompix_notify_slot(ompix_notify_ops(win), win, id, &slot, &local);
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        return ompix_notify_error(rc, win, FUNC_NAME);
    }
    *old = (MPI_Count) ompix_notify_take(slot, local);
    return MPI_SUCCESS;
}
