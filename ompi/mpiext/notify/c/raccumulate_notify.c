/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPIX_Raccumulate_notify: MPIX_Accumulate_notify with a request that
 * completes when the origin buffer may be reused (the draft's
 * MPI_Raccumulate_notify).
 */

#include "ompi_config.h"

#include "mpiext_notify_rma.h"

#if OMPI_BUILD_MPI_PROFILING
#if OPAL_HAVE_WEAK_SYMBOLS
#pragma weak MPIX_Raccumulate_notify = PMPIX_Raccumulate_notify
#endif
#define MPIX_Raccumulate_notify PMPIX_Raccumulate_notify
#endif

static const char FUNC_NAME[] = "MPIX_Raccumulate_notify";

int MPIX_Raccumulate_notify(const void *origin_addr, int origin_count,
                            MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
                            int target_count, MPI_Datatype target_type, MPI_Op op, int id,
                            MPI_Win win, MPI_Request *request)
{
    ompix_notify_rma_args_t a = {
        .origin_addr = origin_addr,
        .origin_count = origin_count,
        .origin_type = origin_type,
        .target_rank = target_rank,
        .target_disp = target_disp,
        .target_count = target_count,
        .target_type = target_type,
        .op = op,
    };

    return ompix_notify_rform(OMPIX_NOTIFY_ACC, &a, id, win, request, FUNC_NAME);
}
