/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What osc/rdma2 offers to MPI extensions, through common/ompix's registry
 * (ompi/mca/common/ompix/common_ompix_registry.h): an extension looks the
 * table up by name and version, and takes its generic path when the
 * lookup finds nothing (rdma2 not loaded, turned off, or from another
 * build).  Only <mpi.h> types here, so any extension can include it.
 * Bump the version on every change of the table.
 */
#ifndef MCA_OSC_RDMA2_API_H
#define MCA_OSC_RDMA2_API_H

#include <stdint.h>
#include <mpi.h>

#define MCA_OSC_RDMA2_API_NAME "osc/rdma2"
#define MCA_OSC_RDMA2_API_VERSION 3

/* Every function below that takes a window is called only for a window
 * serves() accepted, with arguments the extension has already checked
 * (valid datatypes and op, counts >= 0, 0 <= id, rank in the window's
 * group or MPI_PROC_NULL filtered out).  They return an MPI error class
 * (MPI_SUCCESS, MPI_ERR_RMA_SYNC without an access epoch to the target,
 * MPI_ERR_RMA_RANGE outside its window, MPI_ERR_ARG for id >= the
 * window's slot count, ...) and do not call the error handler: the
 * extension does, with its function's name. */
typedef struct mca_osc_rdma2_api_t {
    /* Whether osc/rdma2 serves this window. */
    int (*serves)(MPI_Win win);

    /* ---- notified RMA (version 2; 3: notify_slots returns `local`) ----
     * Each process has, per window, an array of 64-bit notification
     * counters ("slots"), osc_rdma2_notify_slots of them unless
     * set_num_notify changed it.  Remote notifications are added into it
     * with no action of its owner (truly passive); the owner reads and
     * resets them with CPU atomics on the array notify_slots() returns. */

    /* This process's slots on win: *slots points at *num counters, valid
     * until set_num_notify or the window's free.  Lock-free readers use
     * acquire loads (a non-zero slot means the announced data is
     * visible); consumers take counts with an atomic exchange.  *local,
     * unless NULL, points at *num more counters, private to this process,
     * that its own read notifications completed in the call add to with
     * plain stores (no locked instruction after the copy); only when
     * MPI_THREAD_MULTIPLE is not provided, so MPI calls that read or
     * reset them never run concurrently: slot i's count is
     * slots[i] + local[i], and consumers take local[i] with plain loads
     * and stores. */
    int (*notify_slots)(MPI_Win win, int64_t **slots, int64_t **local, int *num);

    /* MPIX_Win_read_notify: an MPI_Get; once its data is in origin_addr,
     * this process's slot id is incremented.  Nothing else is flushed. */
    int (*read_notify)(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_type, int id, MPI_Win win);
    /* MPIX_Put_notify / _Get_notify / _Accumulate_notify: the operation,
     * then target_rank's slot id is incremented once the operation's
     * effect is visible at the target (for a get: once its data has been
     * read there). */
    int (*put_notify)(const void *origin_addr, int origin_count, MPI_Datatype origin_type,
                      int target_rank, MPI_Aint target_disp, int target_count,
                      MPI_Datatype target_type, int id, MPI_Win win);
    int (*get_notify)(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                      int target_rank, MPI_Aint target_disp, int target_count,
                      MPI_Datatype target_type, int id, MPI_Win win);
    int (*accumulate_notify)(const void *origin_addr, int origin_count,
                             MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
                             int target_count, MPI_Datatype target_type, MPI_Op op, int id,
                             MPI_Win win);

    /* MPIX_Win_set_num_notify: collective over the window's group; every
     * process's array becomes num zeroed slots (num >= 1, the same on
     * every process).  Returns after every process has switched, so no
     * notification issued afterwards reaches an old array. */
    int (*set_num_notify)(MPI_Win win, int num);
} mca_osc_rdma2_api_t;

#endif /* MCA_OSC_RDMA2_API_H */
