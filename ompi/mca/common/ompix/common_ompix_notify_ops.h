/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The notified-RMA contract, declared once: the seven entry points that both
 * osc/rdma2's registry table (ompi/mca/osc/rdma2/osc_rdma2_api.h) and the
 * extension's per-window table (ompi/mpiext/notify/c/
 * mpiext_notify_internal.h, filled from rdma2's or by the generic path)
 * hold.  MCA_COMMON_OMPIX_NOTIFY_OPS expands to the members, so that
 * rdma2's table keeps them at its top level (its layout and version are
 * unchanged); mca_common_ompix_notify_ops_t is a table of just these.
 * Only <mpi.h> types here, like osc_rdma2_api.h, so any extension can
 * include it.
 *
 * Every entry that takes a window is called only for a window its table
 * serves, with arguments the extension has already checked (valid
 * datatypes and op, counts >= 0, 0 <= id, rank in the window's group or
 * MPI_PROC_NULL filtered out).  They return an MPI error class
 * (MPI_SUCCESS, MPI_ERR_RMA_SYNC without an access epoch to the target,
 * MPI_ERR_RMA_RANGE outside its window, MPI_ERR_ARG for id >= the
 * window's slot count, ...) and do not call the error handler: the
 * extension does, with its function's name.
 *
 * Each process has, per window, an array of 64-bit notification counters
 * ("slots"), MCA_COMMON_OMPIX_NOTIFY_DEFAULT_SLOTS of them unless
 * set_num_notify changed it.
 *
 * notify_slots: this process's slots on win: *slots points at *num
 *   counters, valid until set_num_notify or the window's free.  Lock-free
 *   readers use acquire loads (a non-zero slot means the announced data is
 *   visible); consumers take counts with an atomic exchange.  *local,
 *   unless NULL, points at *num more counters, private to this process,
 *   that its own read notifications completed in the call add to with
 *   plain stores (no locked instruction after the copy); only when
 *   MPI_THREAD_MULTIPLE is not provided, so MPI calls that read or reset
 *   them never run concurrently: slot i's count is slots[i] + local[i],
 *   and consumers take local[i] with plain loads and stores.
 * read_notify: MPIX_Win_read_notify, an MPI_Get; once its data is in
 *   origin_addr, this process's slot id is incremented.  Nothing else is
 *   flushed.
 * put_notify, get_notify, accumulate_notify, get_accumulate_notify: the
 *   operation, then target_rank's slot id is incremented once the
 *   operation's effect is visible at the target (for a get: once its data
 *   has been read there).
 * set_num_notify: MPIX_Win_set_num_notify, collective over the window's
 *   group; every process's array becomes num zeroed slots (num >= 1, the
 *   same on every process).  Returns after every process has switched, so
 *   no notification issued afterwards reaches an old array.
 */
#ifndef MCA_COMMON_OMPIX_NOTIFY_OPS_H
#define MCA_COMMON_OMPIX_NOTIFY_OPS_H

#include <stdint.h>
#include <mpi.h>

/* Slots per process per window unless set_num_notify changes it: the
 * generic path's count, and the default of osc_rdma2_notify_slots. */
#define MCA_COMMON_OMPIX_NOTIFY_DEFAULT_SLOTS 65536

#define MCA_COMMON_OMPIX_NOTIFY_OPS                                                         \
    int (*notify_slots)(MPI_Win win, int64_t **slots, int64_t **local, int *num);          \
    int (*read_notify)(void *origin_addr, int origin_count, MPI_Datatype origin_type,      \
                       int target_rank, MPI_Aint target_disp, int target_count,            \
                       MPI_Datatype target_type, int id, MPI_Win win);                     \
    int (*put_notify)(const void *origin_addr, int origin_count, MPI_Datatype origin_type, \
                      int target_rank, MPI_Aint target_disp, int target_count,             \
                      MPI_Datatype target_type, int id, MPI_Win win);                      \
    int (*get_notify)(void *origin_addr, int origin_count, MPI_Datatype origin_type,       \
                      int target_rank, MPI_Aint target_disp, int target_count,             \
                      MPI_Datatype target_type, int id, MPI_Win win);                      \
    int (*accumulate_notify)(const void *origin_addr, int origin_count,                    \
                             MPI_Datatype origin_type, int target_rank,                    \
                             MPI_Aint target_disp, int target_count,                       \
                             MPI_Datatype target_type, MPI_Op op, int id, MPI_Win win);    \
    int (*set_num_notify)(MPI_Win win, int num);                                           \
    int (*get_accumulate_notify)(const void *origin_addr, int origin_count,                \
                                 MPI_Datatype origin_type, void *result_addr,              \
                                 int result_count, MPI_Datatype result_type,               \
                                 int target_rank, MPI_Aint target_disp, int target_count,  \
                                 MPI_Datatype target_type, MPI_Op op, int id, MPI_Win win);

typedef struct mca_common_ompix_notify_ops_t {
    MCA_COMMON_OMPIX_NOTIFY_OPS
} mca_common_ompix_notify_ops_t;

#endif /* MCA_COMMON_OMPIX_NOTIFY_OPS_H */
