/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Win_set_num_notify: collective over the window's group: every
 * process gets n zeroed slots.
 */

#include "ompi_config.h"

#include "ompi/info/info.h"

#include "mpiext_notify_entry.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Win_set_num_notify = PMPIX_Win_set_num_notify
#endif
#define MPIX_Win_set_num_notify PMPIX_Win_set_num_notify
#endif

static const char FUNC_NAME[] = "MPIX_Win_set_num_notify";

int MPIX_Win_set_num_notify(MPI_Win win, MPI_Info info, int n)
{
    int rc;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
        if (ompi_win_invalid(win)) {
            return ompix_notify_error(MPI_ERR_WIN, win, FUNC_NAME);
        }
        /* No info key is defined yet; MPI_INFO_NULL is a valid info. */
        if (NULL == info || ompi_info_is_freed(info)) {
            return ompix_notify_error(MPI_ERR_INFO, win, FUNC_NAME);
        }
    }
    if (OPAL_UNLIKELY(n < 1)) {
        return ompix_notify_error(MPI_ERR_ARG, win, FUNC_NAME);
    }
    rc = ompix_notify_set_num(ompix_notify_ops(win), win, n);
    OMPI_ERRHANDLER_RETURN(rc, win, rc, FUNC_NAME);
}
