/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Get_notify: an MPI_Get that increments slot id of the target
 * once the data has been read there.
 */

#include "ompi_config.h"

#include "mpiext_notify_rma.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Get_notify = PMPIX_Get_notify
#endif
#define MPIX_Get_notify PMPIX_Get_notify
#endif

static const char FUNC_NAME[] = "MPIX_Get_notify";

int MPIX_Get_notify(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_type, int id, MPI_Win win)
{
    ompix_notify_rma_args_t a = {
        .origin_addr = origin_addr,
        .origin_count = origin_count,
        .origin_type = origin_type,
        .target_rank = target_rank,
        .target_disp = target_disp,
        .target_count = target_count,
        .target_type = target_type,
    };

    return ompix_notify_rma(OMPIX_NOTIFY_GET, &a, id, win, FUNC_NAME);
}
