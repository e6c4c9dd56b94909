/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What the notified-RMA entry points share: the choice of a window's
 * table (osc/rdma2's native one or the generic one), the argument checks
 * of the RMA calls, consumption over the slot array, and notification
 * requests.  See ../README-design.md ("Notified RMA").
 */
#ifndef MPIEXT_NOTIFY_ENTRY_H
#define MPIEXT_NOTIFY_ENTRY_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stdint.h>

#include "mpi.h"
#include "opal/sys/atomic.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/request/request.h"
#include "ompi/runtime/params.h"
#include "ompi/win/win.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "mpiext_continue_c.h"
#include "mpiext_notify_internal.h"

BEGIN_C_DECLS

/* mpiext_notify_ops.c: osc/rdma2's table, copied once into the layout of
 * ompix_notify_ops_t (the two tables list the same functions after
 * rdma2's serves), and its serves() to pick it per window. */
typedef struct ompix_notify_dispatch_t {
    int (*serves)(MPI_Win win);     /* NULL: rdma2 not there */
    ompix_notify_ops_t native;
    volatile int32_t looked_up;
} ompix_notify_dispatch_t;

extern ompix_notify_dispatch_t ompix_notify_dispatch;
void ompix_notify_lookup(void);

/* Every entry point calls this once per call: after the first call a load
 * and one serves() call. */
static inline const ompix_notify_ops_t *ompix_notify_ops(MPI_Win win)
{
    if (OPAL_UNLIKELY(!ompix_notify_dispatch.looked_up)) {
        ompix_notify_lookup();
    }
    if (NULL != ompix_notify_dispatch.serves && ompix_notify_dispatch.serves(win)) {
        return &ompix_notify_dispatch.native;
    }
    return &ompix_notify_generic_ops;
}

/* mpiext_notify_check.c: MPI_Put's parameter checks, MPI_Accumulate's
 * when `acc` (then op is checked too), plus id >= 0.  Returns an MPI error
 * class; the caller reports it with ompix_notify_error. */
int ompix_notify_check_rma(int origin_count, MPI_Datatype origin_type, int target_rank,
                           MPI_Aint target_disp, int target_count, MPI_Datatype target_type,
                           bool acc, MPI_Op op, int id, MPI_Win win, const char *func_name);

/* Reports rc on win's error handler (MPI_ERR_WIN on MPI_COMM_WORLD when win
 * is not a window); MPI_SUCCESS passes through. */
static inline int ompix_notify_error(int rc, MPI_Win win, const char *func_name)
{
    if (OPAL_LIKELY(MPI_SUCCESS == rc)) {
        return MPI_SUCCESS;
    }
    if (MPI_ERR_WIN == rc) {
        return OMPI_ERRHANDLER_INVOKE(MPI_COMM_WORLD, MPI_ERR_WIN, func_name);
    }
    return OMPI_ERRHANDLER_INVOKE(win, rc, func_name);
}

/* Slot accesses: acquire loads (a non-zero slot means the data it
 * announces is visible), counts taken with an exchange. */
static inline int64_t ompix_notify_slot_load(int64_t *slot)
{
    return (int64_t) mca_common_ompix_atomic_load_acq_64((volatile uint64_t *) slot);
}

static inline int64_t ompix_notify_slot_take(int64_t *slot)
{
    return (int64_t) mca_common_ompix_atomic_fetch_op_64((volatile uint64_t *) slot,
                                                         MCA_COMMON_OMPIX_ATOMIC_SWAP, 0);
}

/* mpiext_notify_consume.c: this process's slot `id` (MPI_ERR_ARG when id
 * is beyond the window's slots). */
int ompix_notify_slot(const ompix_notify_ops_t *ops, MPI_Win win, int id, int64_t **slot);
int ompix_notify_waitsome(const ompix_notify_ops_t *ops, MPI_Win win, int first, int num,
                          int timeout_ms, int *id);
int ompix_notify_set_num(const ompix_notify_ops_t *ops, MPI_Win win, int n);

/* mpiext_notify_request.c */
int ompix_notify_request_create(const ompix_notify_ops_t *ops, MPI_Win win, int id,
                                ompi_request_t **req);
/* Called around a resize of win's slots: requests armed on it stop reading
 * the old array (begin) and read the new one (end). */
void ompix_notify_request_resize_begin(MPI_Win win);
void ompix_notify_request_resize_end(MPI_Win win, const ompix_notify_ops_t *ops);

END_C_DECLS

#endif /* MPIEXT_NOTIFY_ENTRY_H */
