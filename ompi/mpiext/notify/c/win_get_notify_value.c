/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Win_get_notify_value: reads slot id's count (an acquire load)
 * without taking it.
 */

#include "ompi_config.h"

#include "mpiext_notify_entry.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Win_get_notify_value = PMPIX_Win_get_notify_value
#endif
#define MPIX_Win_get_notify_value PMPIX_Win_get_notify_value
#endif

static const char FUNC_NAME[] = "MPIX_Win_get_notify_value";

int MPIX_Win_get_notify_value(MPI_Win win, int id, MPI_Count *value)
{
    int64_t *slot = NULL, *local = NULL;
    int rc = ompix_notify_slot_call(win, id, value, &slot, &local, FUNC_NAME);

    if (OPAL_LIKELY(MPI_SUCCESS == rc)) {
        *value = (MPI_Count) ompix_notify_count(slot, local);
    }
    return rc;
}
