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
#include "ompi/mca/osc/osc.h"
#include "ompi/request/request.h"
#include "ompi/runtime/params.h"
#include "ompi/win/win.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"
#include "ompi/mca/common/ompix/common_ompix_compat_errhandler.h"

#include "mpiext_notify_c.h"
#include "mpiext_notify_check.h"
#include "mpiext_notify_internal.h"

BEGIN_C_DECLS

/* mpiext_notify_ops.c: osc/rdma2's table, copied once into the layout of
 * ompix_notify_ops_t (the two tables list the same functions after
 * rdma2's serves), and its serves() to pick it per window. */
typedef struct ompix_notify_dispatch_t {
    int (*serves)(MPI_Win win);     /* NULL: rdma2 not there */
    ompix_notify_ops_t native;
    volatile int32_t looked_up;
    /* The osc_free of a module serves() accepted: a component's free
     * identifies its modules, so a module with this free is served the
     * same way without asking serves() again.  One word, written whole:
     * threads read the placeholder or a function serves() accepted. */
    int (*volatile native_free)(struct ompi_win_t *win);
    /* Likewise the last osc_free serves() refused (the generic path's
     * windows: one serves() call saved per call there). */
    int (*volatile generic_free)(struct ompi_win_t *win);
    /* Takes a slot's whole count (ompix_notify_take): every consumer
     * takes through this one pointer, so that MPI_T can count what is
     * consumed at no cost while nobody looks (mpiext_notify_mpit.c puts
     * its counting wrapper here while a handle of mpi_notify_consumed
     * exists).  One word, written whole. */
    int64_t (*volatile take)(int64_t *slot, int64_t *local);
} ompix_notify_dispatch_t;

extern ompix_notify_dispatch_t ompix_notify_dispatch;
/* The generic path's table (ompix_notify_generic_ops), copied at the
 * lookup: it and the native copy take mpiext_notify_mpit.c's counting
 * wrappers while an MPI_T handle exists.  Outside the dispatch struct,
 * whose layout the inline fast path was measured with. */
extern ompix_notify_ops_t ompix_notify_generic_table;
void ompix_notify_lookup(void);
/* mpiext_notify_mpit.c: the MPI_T counter of issued operations. */
void ompix_notify_mpit_looked_up(void);
void ompix_notify_mpit_register(void);
const ompix_notify_ops_t *ompix_notify_ops_slow(MPI_Win win);

/* Every entry point calls this once per call: on osc/rdma2's windows, after
 * the first call, a compare with the osc_free serves() accepted (serves()
 * is an indirect call into the component, paid per call otherwise). */
static inline const ompix_notify_ops_t *ompix_notify_ops(MPI_Win win)
{
    if (OPAL_LIKELY(NULL != win->w_osc_module
                    && win->w_osc_module->osc_free == ompix_notify_dispatch.native_free)) {
        return &ompix_notify_dispatch.native;
    }
    return ompix_notify_ops_slow(win);
}

/* mpiext_notify_ops.c: reports rc (not MPI_SUCCESS) on win's error
 * handler.  Out of line: the handler's invocation (a search of the error
 * codes) would otherwise take registers every entry point's fast path
 * saves and restores. */
int ompix_notify_error_report(int rc, MPI_Win win, const char *func_name);

/* Reports rc on win's error handler (MPI_ERR_WIN where errors tied to no
 * object go when win is not a window); MPI_SUCCESS passes through. */
static inline int ompix_notify_error(int rc, MPI_Win win, const char *func_name)
{
    if (OPAL_LIKELY(MPI_SUCCESS == rc)) {
        return MPI_SUCCESS;
    }
    return ompix_notify_error_report(rc, win, func_name);
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

/* A slot's count is the shared counter plus, where the table has them,
 * the private one our own read notifications add to with plain stores
 * (only without MPI_THREAD_MULTIPLE: no two MPI calls touch it at once;
 * osc_rdma2_api.h: notify_slots).  local: NULL, or the slot's private
 * counter. */
static inline int64_t ompix_notify_count(int64_t *slot, int64_t *local)
{
    return ompix_notify_slot_load(slot) + (NULL != local ? *(volatile int64_t *) local : 0);
}

/* Slot id's private counter in a table's `local` array, or NULL when the
 * table has none. */
static inline int64_t *ompix_notify_local(int64_t *locals, int id)
{
    return NULL != locals ? &locals[id] : NULL;
}

/* Takes the whole count.  The exchange only when the shared counter is
 * set: an increment landing after the load stays for the next take, so
 * skipping it loses nothing, and a pipeline of our own reads takes its
 * counts with no locked instruction.  The body of the take the dispatch
 * table holds (mpiext_notify_ops.c:ompix_notify_take_slot). */
static inline int64_t ompix_notify_take_inline(int64_t *slot, int64_t *local)
{
    int64_t v = 0;

    if (NULL != local && 0 != *(volatile int64_t *) local) {
        v = *local;
        *(volatile int64_t *) local = 0;
    }
    if (0 != ompix_notify_slot_load(slot)) {
        v += ompix_notify_slot_take(slot);
    }
    return v;
}

int64_t ompix_notify_take_slot(int64_t *slot, int64_t *local);

/* What every consumer calls: the take the dispatch table holds. */
static inline int64_t ompix_notify_take(int64_t *slot, int64_t *local)
{
    return ompix_notify_dispatch.take(slot, local);
}

/* This process's slot `id` and its private counter, or NULL (MPI_ERR_ARG
 * when id is beyond the window's slots).  Inline: reset and
 * get_notify_value are little else. */
static inline int ompix_notify_slot(const ompix_notify_ops_t *ops, MPI_Win win, int id,
                                    int64_t **slot, int64_t **local)
{
    int64_t *slots, *locals;
    int num, rc;

    rc = ops->notify_slots(win, &slots, &locals, &num);
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        return rc;
    }
    if (OPAL_UNLIKELY(id < 0 || id >= num)) {
        return MPI_ERR_ARG;
    }
    *slot = &slots[id];
    *local = ompix_notify_local(locals, id);
    return MPI_SUCCESS;
}

/* The calls on one slot (reset, get value, threshold): the window, the
 * output argument `out`, then slot id and its private counter; errors on
 * the window's handler with func_name. */
static inline int ompix_notify_slot_call(MPI_Win win, int id, const void *out, int64_t **slot,
                                         int64_t **local, const char *func_name)
{
    int rc;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(func_name);
        if (ompi_win_invalid(win)) {
            return ompix_notify_error(MPI_ERR_WIN, win, func_name);
        }
        if (NULL == out) {
            return ompix_notify_error(MPI_ERR_ARG, win, func_name);
        }
    }
    rc = ompix_notify_slot(ompix_notify_ops(win), win, id, slot, local);
    return ompix_notify_error(rc, win, func_name);
}

/* MPIX_Win_notify_reset and its draft name MPIX_Win_reset_notify_value:
 * takes slot id's count into *old. */
static inline int ompix_notify_reset(MPI_Win win, int id, MPI_Count *old, const char *func_name)
{
    int64_t *slot = NULL, *local = NULL;
    int rc = ompix_notify_slot_call(win, id, old, &slot, &local, func_name);

    if (OPAL_LIKELY(MPI_SUCCESS == rc)) {
        *old = (MPI_Count) ompix_notify_take(slot, local);
    }
    return rc;
}

/* Where the last scan found a slot set.  A pipeline that takes a slot,
 * resets it and re-issues into it finds its next notification at or just
 * after that slot (FIFO completion) instead of behind every slot before
 * it; a slot refilled at once is found again first, as before.  Only a
 * hint, shared by windows and threads without ordering: any value is
 * correct (it is clamped to the range), it only moves where the scan of
 * the whole range starts.  Written only when it changes, on a cache line
 * of its own, so that threads consuming different ranges do not make the
 * extension's read-mostly data bounce between cores. */
typedef struct ompix_notify_scan_hint_t {
    volatile int start;
    char pad[60];
} __opal_attribute_aligned__(64) ompix_notify_scan_hint_t;

extern ompix_notify_scan_hint_t ompix_notify_scan_hint;

static inline int ompix_notify_scan_found(int i)
{
    if (ompix_notify_scan_hint.start != i) {
        ompix_notify_scan_hint.start = i;
    }
    return i;
}

/* Whether slot i holds a count (local: NULL or the private counters). */
static inline bool ompix_notify_set(int64_t *slots, int64_t *local, int i)
{
    return (NULL != local && 0 != ((volatile int64_t *) local)[i])
        || 0 != ompix_notify_slot_load(&slots[i]);
}

static inline int ompix_notify_scan(int64_t *slots, int64_t *local, int first, int num)
{
    int end = first + num, start = ompix_notify_scan_hint.start;

    if (start < first || start >= end) {
        start = first;
    }
    for (int i = start; i < end; ++i) {
        if (ompix_notify_set(slots, local, i)) {
            return ompix_notify_scan_found(i);
        }
    }
    for (int i = first; i < start; ++i) {
        if (ompix_notify_set(slots, local, i)) {
            return ompix_notify_scan_found(i);
        }
    }
    return MPIX_NOTIFY_NONE;
}

/* mpiext_notify_consume.c: nothing was set at the first scan. */
int ompix_notify_wait_progress(int64_t *slots, int64_t *local, int first, int num,
                               int timeout_ms);

/* Inline: the waitsome call is little else when a slot is set.  The slot
 * array is fetched once: it stays valid until set_num_notify or
 * the window's free, neither of which may run during the call. */
static inline int ompix_notify_waitsome(const ompix_notify_ops_t *ops, MPI_Win win, int first,
                                        int num, int timeout_ms, int *id)
{
    int64_t *slots, *local;
    int nslots, rc;

    rc = ops->notify_slots(win, &slots, &local, &nslots);
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        return rc;
    }
    if (OPAL_UNLIKELY(first >= nslots || num > nslots - first)) {
        return MPI_ERR_ARG;
    }
    *id = ompix_notify_scan(slots, local, first, num);
    if (OPAL_UNLIKELY(MPIX_NOTIFY_NONE == *id)) {
        *id = ompix_notify_wait_progress(slots, local, first, num, timeout_ms);
    }
    return MPI_SUCCESS;
}

/* mpiext_notify_consume.c: progress until slot's count reaches threshold
 * or timeout_ms passed; returns the count last read. */
int64_t ompix_notify_wait_threshold(int64_t *slot, int64_t *local, int64_t threshold,
                                    int timeout_ms);

/* mpiext_notify_consume.c */
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
