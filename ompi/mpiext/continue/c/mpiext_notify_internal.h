/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Notified RMA inside the continue extension: the one table both paths
 * fill.  The entry points (one file per MPIX_ function) check arguments,
 * pick a window's table once per call (ompix_notify_ops: osc/rdma2's,
 * reached through common/ompix's registry, or the generic one built from
 * standard calls) and report errors through the window's handler.
 * Consumption (waitsome, reset, get value, notification requests) is
 * written once over the slot array a table exposes.
 */
#ifndef MPIEXT_NOTIFY_INTERNAL_H
#define MPIEXT_NOTIFY_INTERNAL_H

#include "ompi_config.h"

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

BEGIN_C_DECLS

/* Same meaning and contract as the notified-RMA half of osc/rdma2's table
 * (ompi/mca/osc/rdma2/osc_rdma2_api.h): arguments already checked,
 * return an MPI error class, never call the error handler. */
typedef struct ompix_notify_ops_t {
    int (*notify_slots)(MPI_Win win, int64_t **slots, int64_t **local, int *num);
    int (*read_notify)(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_type, int id, MPI_Win win);
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
    int (*set_num_notify)(MPI_Win win, int num);
} ompix_notify_ops_t;

/* The generic path (mpiext_notify_generic.c): any osc component. */
extern const ompix_notify_ops_t ompix_notify_generic_ops;

/* Collective over comm, from inside the creation of win by any osc
 * component but rdma2 (mpiext_notify_hook.c): the generic path's state and
 * notification channel, so that no call is needed before notified RMA. */
struct ompi_win_t;
struct ompi_communicator_t;
void ompix_notify_gen_setup(struct ompi_win_t *win, struct ompi_communicator_t *comm,
                            size_t size, int disp_unit);

/* Default slot count of the generic path (osc/rdma2 has its own MCA
 * parameter, osc_rdma2_notify_slots, with the same default). */
#define OMPIX_NOTIFY_DEFAULT_SLOTS 65536

END_C_DECLS

#endif /* MPIEXT_NOTIFY_INTERNAL_H */
