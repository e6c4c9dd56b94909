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
    return ompix_notify_reset(win, id, old, FUNC_NAME);
}
