/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Win_read_notify: an MPI_Get that increments slot id of the origin
 * (this process) once the data is in origin_addr.
 */

#include "ompi_config.h"

#include "mpiext_notify_entry.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Win_read_notify = PMPIX_Win_read_notify
#endif
#define MPIX_Win_read_notify PMPIX_Win_read_notify
#endif

static const char FUNC_NAME[] = "MPIX_Win_read_notify";

int MPIX_Win_read_notify(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_type, int id, MPI_Win win)
{
    int rc;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(FUNC_NAME);
        rc = ompix_notify_check_rma(origin_addr, origin_count, origin_type, target_rank,
                                    target_disp, target_count, target_type, false, MPI_OP_NULL,
                                    win, FUNC_NAME);
        if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
            return ompix_notify_error(rc, win, FUNC_NAME);
        }
    }
    /* Always, as the ids of the consuming calls: a negative id must never
     * reach a table (the upper bound is the table's). */
    if (OPAL_UNLIKELY(id < 0)) {
        return ompix_notify_error(MPI_ERR_ARG, win, FUNC_NAME);
    }
    /* As MPI_Get: nothing to do, and no notification. */
    if (MPI_PROC_NULL == target_rank) {
        return MPI_SUCCESS;
    }
    rc = ompix_notify_ops(win)->read_notify(origin_addr, origin_count, origin_type, target_rank,
                                            target_disp, target_count, target_type, id, win);
    OMPI_ERRHANDLER_RETURN(rc, win, rc, FUNC_NAME);
}
