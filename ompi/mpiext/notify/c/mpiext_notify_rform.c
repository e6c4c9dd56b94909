/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The request forms of the target-notified calls (MPIX_Rput_notify, ...):
 * the call, then a local flush of the target, then a request that is
 * complete.  Like MPI_Rput they are allowed only in passive-target epochs,
 * where MPI_Win_flush_local is too; it is what MPI_Wait on an RMA request
 * does anyway (the origin buffer is reusable, a get's data is there), done
 * before returning instead.  The notification itself still arrives at the
 * target on its own, as for the plain calls.
 */

#include "ompi_config.h"

#include "ompi/errhandler/errcode-internal.h"

#include "mpiext_notify_rma.h"

int ompix_notify_rform_done(int rc, int target_rank, MPI_Win win, MPI_Request *request,
                            const char *func_name)
{
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        *request = MPI_REQUEST_NULL;    /* the call reported it */
        return rc;
    }
    /* MPI_PROC_NULL: nothing was issued, like MPI_Rput's empty request. */
    if (MPI_PROC_NULL != target_rank) {
        rc = win->w_osc_module->osc_flush_local(target_rank, win);
        if (OPAL_UNLIKELY(OMPI_SUCCESS != rc)) {
            *request = MPI_REQUEST_NULL;
            return OMPI_ERRHANDLER_INVOKE(win, ompi_errcode_get_mpi_code(rc), func_name);
        }
    }
    *request = &ompi_request_empty;
    return MPI_SUCCESS;
}
