/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The notify extension's internals: the one table both paths
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
#include "ompi/mca/common/ompix/common_ompix_notify_ops.h"

BEGIN_C_DECLS

/* The table of one window's notified RMA: osc/rdma2's entries or the
 * generic path's, with the contract common/ompix declares once
 * (common_ompix_notify_ops.h): arguments already checked, return an MPI
 * error class, never call the error handler. */
typedef mca_common_ompix_notify_ops_t ompix_notify_ops_t;

/* The generic path (mpiext_notify_generic.c): any osc component. */
extern const ompix_notify_ops_t ompix_notify_generic_ops;

/* Collective over comm, from inside the creation of win by any osc
 * component but rdma2 (mpiext_notify_hook.c): the generic path's state and
 * notification channel, so that no call is needed before notified RMA. */
struct ompi_win_t;
struct ompi_communicator_t;
void ompix_notify_gen_setup(struct ompi_win_t *win, struct ompi_communicator_t *comm,
                            size_t size, int disp_unit);

/* The draft's window attributes (mpiext_notify_attr.c): set on win, which
 * has num counters, or NUM_SB updated to num. */
void ompix_notify_attr_set(struct ompi_win_t *win, int num);

/* Slot count of the generic path (osc/rdma2's MCA parameter,
 * osc_rdma2_notify_slots, has the same default). */
#define OMPIX_NOTIFY_DEFAULT_SLOTS MCA_COMMON_OMPIX_NOTIFY_DEFAULT_SLOTS

END_C_DECLS

#endif /* MPIEXT_NOTIFY_INTERNAL_H */
