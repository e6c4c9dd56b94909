/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Win_reset_notify_value: the MPI Forum draft's name of
 * MPIX_Win_notify_reset (same arguments, same call).
 */

#include "ompi_config.h"

#include "mpiext_notify_entry.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Win_reset_notify_value = PMPIX_Win_reset_notify_value
#endif
#define MPIX_Win_reset_notify_value PMPIX_Win_reset_notify_value
#endif

static const char FUNC_NAME[] = "MPIX_Win_reset_notify_value";

int MPIX_Win_reset_notify_value(MPI_Win win, int id, MPI_Count *old)
{
    return ompix_notify_reset(win, id, old, FUNC_NAME);
}
