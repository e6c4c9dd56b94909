/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Win_notify_threshold: waits until slot id's count reaches a
 * threshold (the MPI Forum draft's MPI_Win_notify_threshold, as a
 * blocking call with waitsome's timeout); the count is read, never taken.
 */

#include "ompi_config.h"

#include "mpiext_notify_entry.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Win_notify_threshold = PMPIX_Win_notify_threshold
#endif
#define MPIX_Win_notify_threshold PMPIX_Win_notify_threshold
#endif

static const char FUNC_NAME[] = "MPIX_Win_notify_threshold";

int MPIX_Win_notify_threshold(MPI_Win win, int id, MPI_Count threshold, int timeout_ms,
                              MPI_Count *value)
{
    int64_t *slot = NULL, *local = NULL;
    int rc = ompix_notify_slot_call(win, id, value, &slot, &local, FUNC_NAME);

    if (OPAL_UNLIKELY(MPI_SUCCESS == rc && timeout_ms < MPIX_NOTIFY_BLOCK)) {
        return ompix_notify_error(MPI_ERR_ARG, win, FUNC_NAME);
    }
    if (OPAL_LIKELY(MPI_SUCCESS == rc)) {
        *value = (MPI_Count) ompix_notify_wait_threshold(slot, local, (int64_t) threshold,
                                                         timeout_ms);
    }
    return rc;
}
