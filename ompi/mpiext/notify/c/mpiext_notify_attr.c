/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The MPI Forum draft's window attributes (mpi-standard PR #1131,
 * MPI_WIN_NOTIFICATION_{NUM_SB,NUM_UB,VALUE_UB}) as MPIX_WIN_NOTIFICATION_*:
 * keyvals created once per MPI_Init (at the first window creation or the
 * first use of a name), set as predefined attributes (the user can read
 * them, not set or delete them) on every window whose creation
 * mpiext_notify_hook.c sees, rdma2's and the generic path's alike, and on
 * any other window at its MPIX_Win_set_num_notify.
 *   NUM_SB  (int *)       the window's notification counters now: what is
 *                         served without MPIX_Win_set_num_notify; updated
 *                         when that call changes it.
 *   NUM_UB  (int *)       the largest n MPIX_Win_set_num_notify accepts.
 *   VALUE_UB (MPI_Count *) the largest value a counter holds (64-bit).
 * The keyvals are Open MPI's predefined kind (common_ompix_compat_attr.h),
 * not MPI_Win_create_keyval's: MPI_Win_free_keyval refuses them.
 */

#include "ompi_config.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/attribute/attribute.h"
#include "ompi/mca/common/ompix/common_ompix_compat_attr.h"
#include "ompi/mca/common/ompix/common_ompix_finalize.h"
#include "ompi/runtime/mpiruntime.h"
#include "ompi/win/win.h"

#include "mpiext_notify_internal.h"

enum { OMPIX_NOTIFY_ATTR_NUM_SB, OMPIX_NOTIFY_ATTR_NUM_UB, OMPIX_NOTIFY_ATTR_VALUE_UB,
       OMPIX_NOTIFY_ATTR_COUNT };

static int ompix_notify_attr_kv[OMPIX_NOTIFY_ATTR_COUNT] = {
    MPI_KEYVAL_INVALID, MPI_KEYVAL_INVALID, MPI_KEYVAL_INVALID};
static opal_mutex_t ompix_notify_attr_lock = OPAL_MUTEX_STATIC_INIT;

/* The process-wide values: NUM_UB and VALUE_UB point here. */
static int ompix_notify_attr_num_ub = INT_MAX;
static MPI_Count ompix_notify_attr_value_ub = INT64_MAX;

/* NUM_SB's value lives with the window: freed with it. */
static int ompix_notify_attr_delete(MPI_Win win, int keyval, void *attr, void *extra)
{
    (void) win;
    (void) keyval;
    (void) extra;
    free(attr);
    return MPI_SUCCESS;
}

/* The bounds are process-wide: nothing to free (Open MPI calls a keyval's
 * delete function without checking it for NULL). */
static int ompix_notify_attr_keep(MPI_Win win, int keyval, void *attr, void *extra)
{
    (void) win;
    (void) keyval;
    (void) attr;
    (void) extra;
    return MPI_SUCCESS;
}

static void ompix_notify_attr_finalize(void)
{
    int i;

    for (i = 0; i < OMPIX_NOTIFY_ATTR_COUNT; ++i) {
        if (MPI_KEYVAL_INVALID != ompix_notify_attr_kv[i]) {
            (void) ompi_attr_free_keyval(WIN_ATTR, &ompix_notify_attr_kv[i], true);
            ompix_notify_attr_kv[i] = MPI_KEYVAL_INVALID;
        }
    }
}

static const mca_common_ompix_cleanup_t ompix_notify_attr_cleanup = {
    .fn = ompix_notify_attr_finalize,
};

/* Caller holds ompix_notify_attr_lock. */
static int ompix_notify_attr_create(void)
{
    ompi_attribute_fn_ptr_union_t copy_fn, del_fn;
    int i, rc = OMPI_SUCCESS;

    copy_fn.attr_win_copy_fn = NULL;          /* windows are never copied */
    for (i = 0; OMPI_SUCCESS == rc && i < OMPIX_NOTIFY_ATTR_COUNT; ++i) {
        del_fn.attr_win_delete_fn = (OMPIX_NOTIFY_ATTR_NUM_SB == i) ? ompix_notify_attr_delete
                                                                    : ompix_notify_attr_keep;
        rc = mca_common_ompix_attr_create_predefined(WIN_ATTR, copy_fn, del_fn, i,
                                                     &ompix_notify_attr_kv[i]);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_common_ompix_at_finalize(&ompix_notify_attr_cleanup);
    }
    if (OMPI_SUCCESS != rc) {
        ompix_notify_attr_finalize();
    }
    return rc;
}

/* The keyval of MPIX_WIN_NOTIFICATION_NUM_SB (0), _NUM_UB (1), _VALUE_UB
 * (2), created at the first call after MPI_Init; MPI_KEYVAL_INVALID before
 * MPI_Init, after MPI_Finalize, for another which, or when out of memory. */
int ompix_win_notification_keyval(int which)
{
    int32_t state = ompi_mpi_state;
    int kv;

    if (which < 0 || which >= OMPIX_NOTIFY_ATTR_COUNT || state < OMPI_MPI_STATE_INIT_COMPLETED
        || state >= OMPI_MPI_STATE_FINALIZE_STARTED) {
        return MPI_KEYVAL_INVALID;
    }
    opal_mutex_lock(&ompix_notify_attr_lock);
    if (MPI_KEYVAL_INVALID == ompix_notify_attr_kv[which]) {
        (void) ompix_notify_attr_create();
    }
    kv = ompix_notify_attr_kv[which];
    opal_mutex_unlock(&ompix_notify_attr_lock);
    return kv;
}

/* win has num counters: the attributes are set (first time) or NUM_SB is
 * updated.  Failures leave the window without them (MPI_Win_get_attr's
 * flag says so); notified RMA itself does not depend on them. */
void ompix_notify_attr_set(ompi_win_t *win, int num)
{
    int kv = ompix_win_notification_keyval(OMPIX_NOTIFY_ATTR_NUM_SB);
    void *attr = NULL;
    int flag = 0, *sb;

    if (MPI_KEYVAL_INVALID == kv) {
        return;
    }
    if (OMPI_SUCCESS == ompi_attr_get_c(win->w_keyhash, kv, &attr, &flag) && flag) {
        *(int *) attr = num;
        return;
    }
    if (NULL == (sb = malloc(sizeof(*sb)))) {
        return;
    }
    *sb = num;
    if (OMPI_SUCCESS != ompi_attr_set_c(WIN_ATTR, win, &win->w_keyhash, kv, sb, true)) {
        free(sb);
        return;
    }
    (void) ompi_attr_set_c(WIN_ATTR, win, &win->w_keyhash,
                           ompix_notify_attr_kv[OMPIX_NOTIFY_ATTR_NUM_UB],
                           &ompix_notify_attr_num_ub, true);
    (void) ompi_attr_set_c(WIN_ATTR, win, &win->w_keyhash,
                           ompix_notify_attr_kv[OMPIX_NOTIFY_ATTR_VALUE_UB],
                           &ompix_notify_attr_value_ub, true);
}
