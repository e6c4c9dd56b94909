/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Notified RMA on any osc component (sm, rdma, pt2pt, ucx): the generic
 * table, built from the window module's own entry points.  Why it looks
 * the way it does (README-design.md, "Generic path", has the whole story):
 *  - read_notify: an rget whose completion adds 1 to the local slot (our
 *    opal_progress callback, or right after the flush/unlock that
 *    completed it); in active-target epochs, where osc/ucx refuses rget, a
 *    get whose notification is applied once fence/complete returned.
 *  - put/get/(get_)accumulate_notify: the operation, a flush of the target, then
 *    an 8-byte message (the slot id) on a hidden communicator that
 *    MPIX_Win_set_num_notify creates; the target's persistent wildcard
 *    receive is drained by the same progress callback.  In active epochs
 *    the message leaves once fence/complete returned.
 * Target ranges are checked here before anything is issued (the stock
 * components do not check them): sizes from osc_win_shared_query or from
 * an allgather in MPIX_Win_set_num_notify.
 * To see epochs close we wrap the closing entry points of the window's
 * module (a struct per window in every stock component), keeping the
 * originals in the per-window state, which hangs off a window attribute.
 */

#include "ompi_config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opal/class/opal_list.h"
#include "opal/class/opal_pointer_array.h"
#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "opal/util/output.h"
#include "ompi/attribute/attribute.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/group/group.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"
#include "ompi/mca/common/ompix/common_ompix_finalize.h"
#include "ompi/mca/osc/osc.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"
#include "ompi/win/win.h"

#include "mpiext_notify_dynamic.h"
#include "mpiext_notify_internal.h"

/* Tag of the notification messages on the hidden communicator (nothing
 * else is received there with a tag >= 0). */
#define OMPIX_NGEN_TAG 0x6e67
/* Tag of the communicator creation on MPI_COMM_WORLD: negative so that no
 * user MPI_ANY_TAG receive on MPI_COMM_WORLD can take its messages, with
 * the sign bit kept in the 24 tag bits pml/ucx transmits, and away from
 * the collective tags in use there. */
#define OMPIX_NGEN_CREATE_TAG (-(1 << 22) - 0x6e67)
/* Received notifications handled per window per progress call. */
#define OMPIX_NGEN_DRAIN_MAX 64

/* What an item stands for.  READ: an rget in flight (reads list).
 * LOCAL/REMOTE: a notification waiting for the active epoch to close
 * (epoch list), for this process's slot or for target peer's.  SEND: a
 * notification message not yet locally complete (sends list). */
typedef enum {
    OMPIX_NGEN_READ,
    OMPIX_NGEN_LOCAL,
    OMPIX_NGEN_REMOTE,
    OMPIX_NGEN_SEND
} ompix_notify_gen_kind_t;

typedef struct ompix_notify_gen_item_t {
    opal_list_item_t super;
    ompix_notify_gen_kind_t kind;
    int peer;
    /* Slot to increment; -1 once notified or discarded. */
    int id;
    /* READ: order of issue, to tell which reads a flush completed. */
    uint64_t seq;
    ompi_request_t *req;
    /* The message a SEND carries: lives as long as the isend. */
    int64_t msg;
} ompix_notify_gen_item_t;

static OBJ_CLASS_INSTANCE(ompix_notify_gen_item_t, opal_list_item_t, NULL, NULL);

/* A target's window size in bytes and displacement unit (two int64s: one
 * allgather carries them); size -1 while unknown. */
typedef struct ompix_notify_gen_extent_t {
    int64_t size;
    int64_t disp_unit;
} ompix_notify_gen_extent_t;

typedef struct ompix_notify_gen_win_t {
    opal_list_item_t super;           /* in ompix_notify_gen_wins */
    ompi_win_t *win;
    /* Guards everything below.  The progress callback only trylocks it
     * (it may run inside a call made while the lock is held). */
    opal_mutex_t lock;
    int64_t *slots;
    int num;
    opal_list_t reads;
    opal_list_t epoch;
    opal_list_t sends;
    uint64_t seq;                     /* of the last READ tracked */
    /* Hidden communicator (same ranks as the window's group), its
     * persistent wildcard receive and its buffer; NULL until
     * set_num_notify. */
    ompi_communicator_t *comm;
    ompi_request_t *recv_req;
    int64_t recv_msg;
    /* Messages sent to each peer and received from all, since the
     * communicator exists: set_num_notify and free drain by them. */
    int64_t *sent;
    volatile int64_t received;
    /* Each target's size and unit, for the range check (one per rank of
     * the window's group); known from osc_win_shared_query or from the
     * allgather of set_num_notify.  no_query: shared_query refused once. */
    ompix_notify_gen_extent_t *extents;
    bool no_query;
    bool listed;
    /* The epoch-closing entry points are wrapped (at the first notified
     * operation this process issues; osc_free is wrapped at creation). */
    bool epochs_wrapped;
    /* The access epochs this process has open on the window, known when
     * ompix saw its creation (the opening and closing entry points are
     * wrapped there, before any epoch can exist): a fence epoch (the last
     * fence had no MPI_MODE_NOSUCCEED), a start epoch, lock_all, and the
     * locks held per target (group rank).  Unknown otherwise: the
     * component alone decides then, as stock components do. */
    bool epochs_tracked;
    volatile int32_t fence_open, started, lock_all;
    volatile uint64_t *locks;
    /* Dynamic windows: the regions, for the range check (NULL for the
     * other flavors and windows whose creation was not seen). */
    ompix_notify_dyn_t *dyn;
    /* The module's entry points as they were before we wrapped them. */
    ompi_osc_base_module_t orig;
} ompix_notify_gen_win_t;

/* Windows with state, walked by the progress callback; the lock also
 * serializes state creation and the keyval's creation. */
static opal_list_t ompix_notify_gen_wins;
static opal_mutex_t ompix_notify_gen_lock = OPAL_MUTEX_STATIC_INIT;
static volatile int32_t ompix_notify_gen_nwins = 0;
static bool ompix_notify_gen_inited = false;
/* The missing-set_num_notify message is printed once per process. */
static bool ompix_notify_gen_warned = false;
static int ompix_notify_gen_keyval = MPI_KEYVAL_INVALID;
/* Windows whose epochs are tracked, by their Fortran index: the wrapped
 * lock, unlock and fence of every stock window find their state here in
 * a few instructions (an attribute lookup takes a hash and a lock). */
static opal_pointer_array_t ompix_notify_gen_index;

static int ompix_notify_gen_fence(int assert, struct ompi_win_t *win);
static int ompix_notify_gen_win_lock(int lock_type, int target, int assert, struct ompi_win_t *win);
static int ompix_notify_gen_win_lock_all(int assert, struct ompi_win_t *win);
static int ompix_notify_gen_win_start(struct ompi_group_t *group, int assert, struct ompi_win_t *win);
static int ompix_notify_gen_complete(struct ompi_win_t *win);
static int ompix_notify_gen_flush(int target, struct ompi_win_t *win);
static int ompix_notify_gen_flush_local(int target, struct ompi_win_t *win);
static int ompix_notify_gen_unlock(int target, struct ompi_win_t *win);
static int ompix_notify_gen_flush_all(struct ompi_win_t *win);
static int ompix_notify_gen_flush_local_all(struct ompi_win_t *win);
static int ompix_notify_gen_unlock_all(struct ompi_win_t *win);
static int ompix_notify_gen_free(struct ompi_win_t *win);

/* Error classes ------------------------------------------------------------ */

static int ompix_notify_gen_err(int rc)
{
    return ompi_errcode_get_mpi_code(rc);
}

/* Slots ------------------------------------------------------------------- */

/* Caller holds w->lock (so the array cannot be swapped underneath).
 * Release ordering: whoever sees the count sees the data before it. */
static void ompix_notify_gen_add(ompix_notify_gen_win_t *w, int id)
{
    if (id < 0 || id >= w->num) {
        opal_output_verbose(10, 0, "ompix notify: dropped a notification for slot %d "
                            "(issued before MPIX_Win_set_num_notify)", id);
        return;
    }
    mca_common_ompix_atomic_add_rel_64((volatile uint64_t *) &w->slots[id], 1);
}

/* Completion of tracked requests (caller holds w->lock) -------------------- */

/* A completed rget: its data is in the origin buffer. */
static void ompix_notify_gen_read_done(ompix_notify_gen_win_t *w, ompi_request_t *req, int id)
{
    opal_atomic_rmb();
    if (id < 0) {
        /* already notified by a flush, or discarded */
    } else if (MPI_SUCCESS == req->req_status.MPI_ERROR) {
        ompix_notify_gen_add(w, id);
    } else {
        opal_output(0, "ompix notify: a read of MPIX_Win_read_notify failed (error %d); "
                    "slot %d not notified", req->req_status.MPI_ERROR, id);
    }
    (void) ompi_request_free(&req);
}

static int ompix_notify_gen_reap(ompix_notify_gen_win_t *w)
{
    ompix_notify_gen_item_t *it, *next;
    int n = 0;

    OPAL_LIST_FOREACH_SAFE(it, next, &w->reads, ompix_notify_gen_item_t) {
        if (REQUEST_COMPLETE(it->req)) {
            opal_list_remove_item(&w->reads, &it->super);
            ompix_notify_gen_read_done(w, it->req, it->id);
            OBJ_RELEASE(it);
            ++n;
        }
    }
    /* Sends in order of issue, up to the first one still in flight: they
     * are tracked only to be freed, and a producer can have tens of
     * thousands in flight (a target that drains 64 per progress call), so
     * walking them all on every progress call made it quadratic. */
    while (NULL != (it = (ompix_notify_gen_item_t *) opal_list_get_first(&w->sends)) &&
           &it->super != opal_list_get_end(&w->sends) && REQUEST_COMPLETE(it->req)) {
        opal_list_remove_item(&w->sends, &it->super);
        (void) ompi_request_free(&it->req);
        OBJ_RELEASE(it);
        ++n;
    }
    return n;
}

/* Received notification messages: count, apply, re-arm the receive. */
static int ompix_notify_gen_drain(ompix_notify_gen_win_t *w)
{
    int n = 0;

    while (NULL != w->recv_req && REQUEST_COMPLETE(w->recv_req) && n < OMPIX_NGEN_DRAIN_MAX) {
        opal_atomic_rmb();
        if (MPI_SUCCESS == w->recv_req->req_status.MPI_ERROR) {
            ompix_notify_gen_add(w, (int) w->recv_msg);
        }
        /* Written under the lock, read by the drain loops without it. */
        opal_atomic_wmb();
        w->received = w->received + 1;
        if (OMPI_SUCCESS != MCA_PML_CALL(start(1, &w->recv_req))) {
            opal_output(0, "ompix notify: cannot re-arm the notification receive; "
                        "later target notifications on this window are lost");
            (void) ompi_request_free(&w->recv_req);
            w->recv_req = NULL;
        }
        ++n;
    }
    return n;
}

/* opal_progress callback: never blocks on a lock (it may run inside a call
 * of a thread that holds one). */
static int ompix_notify_gen_progress(void)
{
    ompix_notify_gen_win_t *w;
    int n = 0;

    if (0 == ompix_notify_gen_nwins || 0 != opal_mutex_trylock(&ompix_notify_gen_lock)) {
        return 0;
    }
    OPAL_LIST_FOREACH(w, &ompix_notify_gen_wins, ompix_notify_gen_win_t) {
        if ((opal_list_is_empty(&w->reads) && opal_list_is_empty(&w->sends) &&
             NULL == w->recv_req && NULL == w->dyn) || 0 != opal_mutex_trylock(&w->lock)) {
            continue;
        }
        n += ompix_notify_gen_reap(w);
        n += ompix_notify_gen_drain(w);
        if (NULL != w->dyn) {
            n += ompix_notify_dyn_progress(w->dyn);
        }
        opal_mutex_unlock(&w->lock);
    }
    opal_mutex_unlock(&ompix_notify_gen_lock);
    return n;
}

/* Notifications out (caller holds w->lock) -------------------------------- */

static int ompix_notify_gen_send(ompix_notify_gen_win_t *w, int peer, int id)
{
    ompix_notify_gen_item_t *it;
    int rc;

    if (peer == ompi_comm_rank(w->comm)) {
        ompix_notify_gen_add(w, id);
        return OMPI_SUCCESS;
    }
    it = OBJ_NEW(ompix_notify_gen_item_t);
    if (NULL == it) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    it->kind = OMPIX_NGEN_SEND;
    it->msg = id;
    rc = MCA_PML_CALL(isend(&it->msg, 1, &ompi_mpi_int64_t.dt, peer, OMPIX_NGEN_TAG,
                            MCA_PML_BASE_SEND_STANDARD, w->comm, &it->req));
    if (OMPI_SUCCESS != rc) {
        OBJ_RELEASE(it);
        return rc;
    }
    w->sent[peer]++;
    if (REQUEST_COMPLETE(it->req)) {
        (void) ompi_request_free(&it->req);
        OBJ_RELEASE(it);
    } else {
        opal_list_append(&w->sends, &it->super);
    }
    return OMPI_SUCCESS;
}

/* The active epoch closed: what waited for it is complete now. */
static void ompix_notify_gen_epoch_closed(ompix_notify_gen_win_t *w)
{
    ompix_notify_gen_item_t *it;
    int rc;

    while (NULL != (it = (ompix_notify_gen_item_t *) opal_list_remove_first(&w->epoch))) {
        if (OMPIX_NGEN_LOCAL == it->kind) {
            ompix_notify_gen_add(w, it->id);
        } else if (it->id >= 0 && OMPI_SUCCESS != (rc = ompix_notify_gen_send(w, it->peer, it->id))) {
            opal_output(0, "ompix notify: cannot send a notification to rank %d (error %d)",
                        it->peer, rc);
        }
        OBJ_RELEASE(it);
    }
}

/* Per-window state --------------------------------------------------------- */

static ompix_notify_gen_win_t *ompix_notify_gen_lookup(ompi_win_t *win)
{
    void *attr = NULL;
    int flag = 0;

    if (MPI_KEYVAL_INVALID == ompix_notify_gen_keyval ||
        OMPI_SUCCESS != ompi_attr_get_c(win->w_keyhash, ompix_notify_gen_keyval, &attr, &flag) ||
        !flag) {
        return NULL;
    }
    return (ompix_notify_gen_win_t *) attr;
}

/* Caller holds ompix_notify_gen_lock.  Leaves the window's list, releasing what
 * is left; nothing may touch the module after this (it may be gone). */
static void ompix_notify_gen_unlist(ompix_notify_gen_win_t *w)
{
    ompix_notify_gen_item_t *it;

    if (w->listed) {
        opal_list_remove_item(&ompix_notify_gen_wins, &w->super);
        w->listed = false;
        ompix_notify_gen_nwins--;
    }
    while (NULL != (it = (ompix_notify_gen_item_t *) opal_list_remove_first(&w->epoch))) {
        OBJ_RELEASE(it);
    }
}

/* Keyval delete callback: the window is being destroyed (after osc_free). */
static int ompix_notify_gen_attr_delete(MPI_Win win, int keyval, void *attr, void *extra)
{
    ompix_notify_gen_win_t *w = (ompix_notify_gen_win_t *) attr;

    (void) win;
    (void) keyval;
    (void) extra;
    opal_mutex_lock(&ompix_notify_gen_lock);
    ompix_notify_gen_unlist(w);
    if (w->epochs_tracked && ompix_notify_gen_inited &&
        w == opal_pointer_array_get_item(&ompix_notify_gen_index, w->win->w_f_to_c_index)) {
        (void) opal_pointer_array_set_item(&ompix_notify_gen_index, w->win->w_f_to_c_index, NULL);
    }
    opal_mutex_unlock(&ompix_notify_gen_lock);
    OPAL_LIST_DESTRUCT(&w->reads);
    OPAL_LIST_DESTRUCT(&w->sends);
    OBJ_DESTRUCT(&w->epoch);
    OBJ_DESTRUCT(&w->lock);
    free(w->slots);
    free(w->sent);
    free(w->extents);
    free((void *) w->locks);
    free(w);
    return MPI_SUCCESS;
}

/* MPI_Finalize, before Open MPI frees the windows the program left: their
 * modules get their own entry points back (our free would find no state
 * any more: it crashed there), and their state leaves the list. */
static void ompix_notify_gen_finalize(void)
{
    ompix_notify_gen_win_t *w, *next;

    opal_progress_unregister(ompix_notify_gen_progress);
    opal_mutex_lock(&ompix_notify_gen_lock);
    OPAL_LIST_FOREACH_SAFE(w, next, &ompix_notify_gen_wins, ompix_notify_gen_win_t) {
        *w->win->w_osc_module = w->orig;
        ompix_notify_gen_unlist(w);
    }
    opal_mutex_unlock(&ompix_notify_gen_lock);
    (void) ompi_attr_free_keyval(WIN_ATTR, &ompix_notify_gen_keyval, false);
    OBJ_DESTRUCT(&ompix_notify_gen_wins);
    OBJ_DESTRUCT(&ompix_notify_gen_index);
    ompix_notify_gen_inited = false;
}

static const mca_common_ompix_cleanup_t ompix_notify_gen_cleanup = {
    .fn = ompix_notify_gen_finalize,
};

/* Caller holds ompix_notify_gen_lock. */
static int ompix_notify_gen_init_once(void)
{
    ompi_attribute_fn_ptr_union_t copy_fn, del_fn;
    int rc;

    if (ompix_notify_gen_inited) {
        return OMPI_SUCCESS;
    }
    /* Windows are never copied. */
    copy_fn.attr_win_copy_fn = NULL;
    del_fn.attr_win_delete_fn = ompix_notify_gen_attr_delete;
    rc = ompi_attr_create_keyval(WIN_ATTR, copy_fn, del_fn, &ompix_notify_gen_keyval, NULL, 0, NULL);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    OBJ_CONSTRUCT(&ompix_notify_gen_wins, opal_list_t);
    OBJ_CONSTRUCT(&ompix_notify_gen_index, opal_pointer_array_t);
    rc = opal_pointer_array_init(&ompix_notify_gen_index, 16, INT_MAX, 16);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    ompix_notify_gen_inited = true;
    rc = mca_common_ompix_at_finalize(&ompix_notify_gen_cleanup);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    return opal_progress_register(ompix_notify_gen_progress);
}

/* Keep the originals of win's module and wrap its osc_free, which must
 * drain on every process.  A module shared by two windows (no stock
 * component does that) is wrapped once: the second window copies the
 * originals the first one saved. */
static int ompix_notify_gen_wrap(ompix_notify_gen_win_t *w)
{
    ompi_osc_base_module_t *m = w->win->w_osc_module;
    ompix_notify_gen_win_t *other;

    if (ompix_notify_gen_free == m->osc_free) {
        OPAL_LIST_FOREACH(other, &ompix_notify_gen_wins, ompix_notify_gen_win_t) {
            if (other->win->w_osc_module == m) {
                w->orig = other->orig;
                return OMPI_SUCCESS;
            }
        }
        return OMPI_ERR_NOT_FOUND;
    }
    w->orig = *m;
    m->osc_free = ompix_notify_gen_free;
    return OMPI_SUCCESS;
}

/* Before this process issues its first notified operation on the window:
 * wrap the calls that close epochs, which complete its reads and send its
 * deferred notifications.  Not at creation, so that windows never used
 * for notified RMA keep the component's own flush, unlock and fence. */
static void ompix_notify_gen_wrap_epochs(ompix_notify_gen_win_t *w)
{
    ompi_osc_base_module_t *m = w->win->w_osc_module;

    if (OPAL_LIKELY(w->epochs_wrapped)) {
        return;
    }
    opal_mutex_lock(&w->lock);
    if (!w->epochs_wrapped && ompix_notify_gen_flush != m->osc_flush) {
        m->osc_fence = ompix_notify_gen_fence;
        m->osc_complete = ompix_notify_gen_complete;
        m->osc_flush = ompix_notify_gen_flush;
        m->osc_flush_local = ompix_notify_gen_flush_local;
        m->osc_unlock = ompix_notify_gen_unlock;
        m->osc_flush_all = ompix_notify_gen_flush_all;
        m->osc_flush_local_all = ompix_notify_gen_flush_local_all;
        m->osc_unlock_all = ompix_notify_gen_unlock_all;
    }
    w->epochs_wrapped = true;
    opal_mutex_unlock(&w->lock);
}

/* Caller holds ompix_notify_gen_lock. */
static int ompix_notify_gen_create(ompi_win_t *win, ompix_notify_gen_win_t **out)
{
    ompix_notify_gen_win_t *w = calloc(1, sizeof(*w));
    bool shared = (ompix_notify_gen_free == win->w_osc_module->osc_free);
    int rc, i, n = ompi_group_size(win->w_group);

    if (NULL == w) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    w->win = win;
    w->num = OMPIX_NOTIFY_DEFAULT_SLOTS;
    w->slots = calloc(w->num, sizeof(*w->slots));
    w->extents = calloc(n, sizeof(*w->extents));
    for (i = 0; NULL != w->extents && i < n; ++i) {
        w->extents[i].size = -1;
    }
    OBJ_CONSTRUCT(&w->super, opal_list_item_t);
    OBJ_CONSTRUCT(&w->lock, opal_mutex_t);
    OBJ_CONSTRUCT(&w->reads, opal_list_t);
    OBJ_CONSTRUCT(&w->epoch, opal_list_t);
    OBJ_CONSTRUCT(&w->sends, opal_list_t);
    rc = (NULL == w->slots || NULL == w->extents) ? OMPI_ERR_OUT_OF_RESOURCE
                                                  : ompix_notify_gen_wrap(w);
    if (OMPI_SUCCESS == rc) {
        rc = ompi_attr_set_c(WIN_ATTR, win, &win->w_keyhash, ompix_notify_gen_keyval, w, false);
        if (OMPI_SUCCESS != rc && !shared) {
            *win->w_osc_module = w->orig;
        }
    }
    if (OMPI_SUCCESS != rc) {
        OBJ_DESTRUCT(&w->lock);
        free(w->slots);
        free(w->extents);
        free(w);
        return rc;
    }
    opal_list_append(&ompix_notify_gen_wins, &w->super);
    w->listed = true;
    ompix_notify_gen_nwins++;
    *out = w;
    return OMPI_SUCCESS;
}

static int ompix_notify_gen_get(ompi_win_t *win, ompix_notify_gen_win_t **out)
{
    int rc = OMPI_SUCCESS;

    *out = ompix_notify_gen_lookup(win);
    if (OPAL_LIKELY(NULL != *out)) {
        return MPI_SUCCESS;
    }
    opal_mutex_lock(&ompix_notify_gen_lock);
    rc = ompix_notify_gen_init_once();
    if (OMPI_SUCCESS == rc && NULL == (*out = ompix_notify_gen_lookup(win))) {
        rc = ompix_notify_gen_create(win, out);
    }
    opal_mutex_unlock(&ompix_notify_gen_lock);
    return ompix_notify_gen_err(rc);
}

/* Wrapped module entry points ---------------------------------------------- */

/* The state holding the originals of win's module: win's own, or, for a
 * module shared with a window that has state, that window's. */
static ompix_notify_gen_win_t *ompix_notify_gen_wrapped(ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = opal_pointer_array_get_item(&ompix_notify_gen_index,
                                                            win->w_f_to_c_index), *other;

    if (OPAL_LIKELY(NULL != w && w->win == win)) {
        return w;
    }
    w = ompix_notify_gen_lookup(win);
    if (OPAL_LIKELY(NULL != w)) {
        return w;
    }
    opal_mutex_lock(&ompix_notify_gen_lock);
    OPAL_LIST_FOREACH(other, &ompix_notify_gen_wins, ompix_notify_gen_win_t) {
        if (other->win->w_osc_module == win->w_osc_module) {
            w = other;
            break;
        }
    }
    opal_mutex_unlock(&ompix_notify_gen_lock);
    return w;
}

/* Reads tracked up to now: their rget returned before the wrapped call
 * started, so a successful flush/unlock/fence/complete completed them. */
static uint64_t ompix_notify_gen_snap(ompix_notify_gen_win_t *w)
{
    uint64_t seq;

    opal_mutex_lock(&w->lock);
    seq = w->seq;
    opal_mutex_unlock(&w->lock);
    return seq;
}

/* After a call that completed this process's operations to target (-1:
 * to all): reads it completed notify now.  Their requests may still be
 * pending (osc/ucx completes an rget's request through a later callback
 * of an atomic it issues): the request is freed once complete. */
static int ompix_notify_gen_after_flush(ompix_notify_gen_win_t *w, int target, uint64_t snap, int rc)
{
    ompix_notify_gen_item_t *it;

    if (OMPI_SUCCESS != rc || !w->epochs_wrapped) {
        return rc;      /* nothing notified issued yet: the call alone */
    }
    opal_mutex_lock(&w->lock);
    OPAL_LIST_FOREACH(it, &w->reads, ompix_notify_gen_item_t) {
        if (it->seq <= snap && it->id >= 0 && (target < 0 || it->peer == target)) {
            ompix_notify_gen_add(w, it->id);
            it->id = -1;
        }
    }
    (void) ompix_notify_gen_reap(w);
    opal_mutex_unlock(&w->lock);
    return rc;
}

/* After fence or complete: the active access epoch's operations are
 * complete at origin and target. */
static int ompix_notify_gen_after_epoch(ompix_notify_gen_win_t *w, uint64_t snap, int rc)
{
    rc = ompix_notify_gen_after_flush(w, -1, snap, rc);
    if (OMPI_SUCCESS == rc && w->epochs_wrapped) {
        opal_mutex_lock(&w->lock);
        ompix_notify_gen_epoch_closed(w);
        opal_mutex_unlock(&w->lock);
    }
    return rc;
}

static int ompix_notify_gen_fence(int assert, struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    uint64_t snap = ompix_notify_gen_snap(w);
    int rc = w->orig.osc_fence(assert, win);

    if (OMPI_SUCCESS == rc) {
        w->fence_open = !(assert & MPI_MODE_NOSUCCEED);
    }
    return ompix_notify_gen_after_epoch(w, snap, rc);
}

static int ompix_notify_gen_complete(struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    uint64_t snap = ompix_notify_gen_snap(w);
    int rc = w->orig.osc_complete(win);

    if (OMPI_SUCCESS == rc) {
        w->started = 0;
    }
    return ompix_notify_gen_after_epoch(w, snap, rc);
}

static int ompix_notify_gen_win_start(struct ompi_group_t *group, int assert, struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    int rc = w->orig.osc_start(group, assert, win);

    if (OMPI_SUCCESS == rc) {
        w->started = 1;
    }
    return rc;
}

static int ompix_notify_gen_win_lock(int lock_type, int target, int assert, struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    int rc = w->orig.osc_lock(lock_type, target, assert, win);

    if (OMPI_SUCCESS == rc && NULL != w->locks && target >= 0) {
        (void) mca_common_ompix_atomic_fetch_add_64(&w->locks[target], 1);
    }
    return rc;
}

static int ompix_notify_gen_win_lock_all(int assert, struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    int rc = w->orig.osc_lock_all(assert, win);

    if (OMPI_SUCCESS == rc) {
        w->lock_all = 1;
    }
    return rc;
}

static int ompix_notify_gen_flush(int target, struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    uint64_t snap = ompix_notify_gen_snap(w);

    return ompix_notify_gen_after_flush(w, target, snap, w->orig.osc_flush(target, win));
}

static int ompix_notify_gen_flush_local(int target, struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    uint64_t snap = ompix_notify_gen_snap(w);

    return ompix_notify_gen_after_flush(w, target, snap, w->orig.osc_flush_local(target, win));
}

static int ompix_notify_gen_unlock(int target, struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    uint64_t snap = ompix_notify_gen_snap(w);
    int rc = w->orig.osc_unlock(target, win);

    if (OMPI_SUCCESS == rc && NULL != w->locks && target >= 0) {
        (void) mca_common_ompix_atomic_fetch_add_64(&w->locks[target], (uint64_t) -1);
    }
    return ompix_notify_gen_after_flush(w, target, snap, rc);
}

static int ompix_notify_gen_flush_all(struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    uint64_t snap = ompix_notify_gen_snap(w);

    return ompix_notify_gen_after_flush(w, -1, snap, w->orig.osc_flush_all(win));
}

static int ompix_notify_gen_flush_local_all(struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    uint64_t snap = ompix_notify_gen_snap(w);

    return ompix_notify_gen_after_flush(w, -1, snap, w->orig.osc_flush_local_all(win));
}

static int ompix_notify_gen_unlock_all(struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    uint64_t snap = ompix_notify_gen_snap(w);
    int rc = w->orig.osc_unlock_all(win);

    if (OMPI_SUCCESS == rc) {
        w->lock_all = 0;
    }
    return ompix_notify_gen_after_flush(w, -1, snap, rc);
}

/* Inside the window's creation, before any epoch can exist: the calls
 * that open and close access epochs are wrapped, so the notified calls
 * know whether one is open (MPI_ERR_RMA_SYNC without: osc/ucx and osc sm
 * issue an operation outside any epoch, and a flush refused there looked
 * like an active epoch).  Closing calls do their notify work only once
 * ompix_notify_gen_wrap_epochs ran. */
static void ompix_notify_gen_track_epochs(ompix_notify_gen_win_t *w)
{
    ompi_osc_base_module_t *m = w->win->w_osc_module;

    if (ompix_notify_gen_free != m->osc_free || ompix_notify_gen_win_lock == m->osc_lock) {
        return;     /* not wrapped by this window, or shared with another one */
    }
    w->locks = calloc((size_t) ompi_group_size(w->win->w_group), sizeof(*w->locks));
    if (NULL == w->locks) {
        return;     /* epochs stay unknown: the component decides */
    }
    if (OMPI_SUCCESS != opal_pointer_array_set_item(&ompix_notify_gen_index,
                                                    w->win->w_f_to_c_index, w)) {
        free((void *) w->locks);
        w->locks = NULL;
        return;
    }
    m->osc_lock = ompix_notify_gen_win_lock;
    m->osc_unlock = ompix_notify_gen_unlock;
    m->osc_lock_all = ompix_notify_gen_win_lock_all;
    m->osc_unlock_all = ompix_notify_gen_unlock_all;
    m->osc_fence = ompix_notify_gen_fence;
    m->osc_start = ompix_notify_gen_win_start;
    m->osc_complete = ompix_notify_gen_complete;
    w->epochs_tracked = true;
}

/* Whether an access epoch toward target may be open: false only when the
 * epochs are tracked and none is (MPI_PROC_NULL: the component's call). */
static bool ompix_notify_gen_in_epoch(const ompix_notify_gen_win_t *w, int target)
{
    return !w->epochs_tracked || target < 0 || w->fence_open || w->started || w->lock_all ||
           0 != w->locks[target];
}

/* Hidden communicator ------------------------------------------------------ */

/* ompi_comm_create_group over MPI_COMM_WORLD needs the group inside it. */
static int ompix_notify_gen_check_world(ompi_group_t *group)
{
    int n = ompi_group_size(group), i, rc = OMPI_SUCCESS;
    int *ranks = malloc(2 * (size_t) n * sizeof(int));

    if (NULL == ranks) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (i = 0; i < n; ++i) {
        ranks[i] = i;
    }
    rc = ompi_group_translate_ranks(group, n, ranks, ompi_mpi_comm_world.comm.c_local_group,
                                    ranks + n);
    for (i = 0; OMPI_SUCCESS == rc && i < n; ++i) {
        if (MPI_UNDEFINED == ranks[n + i]) {
            opal_output(0, "ompix notify: the generic path (osc components other than "
                        "rdma2) needs a window whose processes are all in MPI_COMM_WORLD");
            rc = MPI_ERR_UNSUPPORTED_OPERATION;
        }
    }
    free(ranks);
    return rc;
}

/* Collective over the window's group, whose processes are all in parent
 * (the creating communicator, or MPI_COMM_WORLD for a window whose
 * creation we did not see). */
static int ompix_notify_gen_comm_create(ompix_notify_gen_win_t *w, ompi_communicator_t *parent)
{
    ompi_communicator_t *comm = NULL;
    ompi_request_t *req = NULL;
    int64_t *sent;
    int rc;

    rc = ompi_comm_create_group(parent, w->win->w_group, OMPIX_NGEN_CREATE_TAG, &comm);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    sent = calloc(ompi_comm_size(comm), sizeof(*sent));
    rc = (NULL == sent) ? OMPI_ERR_OUT_OF_RESOURCE
                        : MCA_PML_CALL(irecv_init(&w->recv_msg, 1, &ompi_mpi_int64_t.dt,
                                                  MPI_ANY_SOURCE, OMPIX_NGEN_TAG, comm, &req));
    if (OMPI_SUCCESS == rc) {
        rc = MCA_PML_CALL(start(1, &req));
    }
    if (OMPI_SUCCESS != rc) {
        if (NULL != req) {
            (void) ompi_request_free(&req);
        }
        free(sent);
        (void) ompi_comm_free(&comm);
        return rc;
    }
    opal_mutex_lock(&w->lock);
    w->sent = sent;
    w->comm = comm;
    w->recv_req = req;
    opal_mutex_unlock(&w->lock);
    return OMPI_SUCCESS;
}

/* Collective: returns once every notification message any process sent
 * to this one on the hidden communicator has been received. */
static int ompix_notify_gen_comm_drain(ompix_notify_gen_win_t *w)
{
    int64_t expected = 0;
    int rc;

    rc = w->comm->c_coll->coll_reduce_scatter_block(w->sent, &expected, 1,
                                                    &ompi_mpi_int64_t.dt, &ompi_mpi_op_sum.op,
                                                    w->comm,
                                                    w->comm->c_coll->coll_reduce_scatter_block_module);
    while (OMPI_SUCCESS == rc && w->received < expected && NULL != w->recv_req) {
        opal_progress();
    }
    return rc;
}

/* Window free: drain, then release what refers to the module or the
 * hidden communicator.  Reads still in flight were the user's to
 * complete; a request the component refuses to free is left to it. */
static void ompix_notify_gen_detach(ompix_notify_gen_win_t *w)
{
    ompix_notify_gen_item_t *it;

    if (NULL != w->comm && OMPI_SUCCESS != ompix_notify_gen_comm_drain(w)) {
        opal_output(0, "ompix notify: draining notifications at MPI_Win_free failed");
    }
    opal_mutex_lock(&ompix_notify_gen_lock);
    ompix_notify_gen_unlist(w);
    opal_mutex_unlock(&ompix_notify_gen_lock);
    while (NULL != (it = (ompix_notify_gen_item_t *) opal_list_remove_first(&w->reads))) {
        if (REQUEST_COMPLETE(it->req)) {
            ompix_notify_gen_read_done(w, it->req, -1);
        } else if (OMPI_SUCCESS != ompi_request_free(&it->req)) {
            opal_output_verbose(10, 0, "ompix notify: window freed with a read in flight");
        }
        OBJ_RELEASE(it);
    }
    while (NULL != (it = (ompix_notify_gen_item_t *) opal_list_remove_first(&w->sends))) {
        (void) ompi_request_wait(&it->req, MPI_STATUS_IGNORE);
        OBJ_RELEASE(it);
    }
    if (NULL != w->recv_req) {
        (void) ompi_request_cancel(w->recv_req);
        (void) ompi_request_wait(&w->recv_req, MPI_STATUS_IGNORE);
        (void) ompi_request_free(&w->recv_req);
        w->recv_req = NULL;
    }
    ompix_notify_dyn_destroy(w->dyn);
    w->dyn = NULL;
    if (NULL != w->comm) {
        (void) ompi_comm_free(&w->comm);
        w->comm = NULL;
    }
}

static int ompix_notify_gen_free(struct ompi_win_t *win)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    ompi_osc_base_module_free_fn_t orig_free = w->orig.osc_free;

    ompix_notify_gen_detach(w);
    return orig_free(win);
}

/* Target ranges ------------------------------------------------------------ */

/* Collective, right after the hidden communicator exists: every
 * process's window size and displacement unit (size -1: unknown).
 * Dynamic windows have no static size: nothing to gather. */
static int ompix_notify_gen_extents_gather(ompix_notify_gen_win_t *w, int64_t size,
                                           int64_t unit)
{
    ompix_notify_gen_extent_t mine = { .size = size, .disp_unit = unit }, *all;
    int n = ompi_comm_size(w->comm), rc;

    if (MPI_WIN_FLAVOR_DYNAMIC == w->win->w_flavor) {
        return OMPI_SUCCESS;
    }
    if (NULL == (all = malloc((size_t) n * sizeof(*all)))) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    rc = w->comm->c_coll->coll_allgather(&mine, 2, &ompi_mpi_int64_t.dt, all, 2,
                                         &ompi_mpi_int64_t.dt, w->comm,
                                         w->comm->c_coll->coll_allgather_module);
    if (OMPI_SUCCESS == rc) {
        /* The hidden communicator's ranks are the window's. */
        opal_mutex_lock(&w->lock);
        memcpy(w->extents, all, (size_t) n * sizeof(*all));
        opal_mutex_unlock(&w->lock);
    }
    free(all);
    return rc;
}

/* Target's size and unit, if known: gathered, or asked of the module's
 * osc_win_shared_query (osc/sm's shared windows; it refuses every other
 * flavor, and the other stock components have none) and kept. */
static bool ompix_notify_gen_extent(ompix_notify_gen_win_t *w, int target,
                                    ompix_notify_gen_extent_t *out)
{
    ompi_osc_base_module_win_shared_query_fn_t query = w->orig.osc_win_shared_query;
    size_t size;
    int unit;
    void *base;
    bool known;

    if (MPI_WIN_FLAVOR_DYNAMIC == w->win->w_flavor || target < 0 ||
        target >= ompi_group_size(w->win->w_group)) {
        return false;
    }
    opal_mutex_lock(&w->lock);
    if (w->extents[target].size < 0 && !w->no_query && NULL != query) {
        if (OMPI_SUCCESS == query(w->win, target, &size, &unit, &base)) {
            w->extents[target].size = (int64_t) size;
            w->extents[target].disp_unit = unit;
        } else {
            w->no_query = true;
        }
    }
    *out = w->extents[target];
    known = out->size >= 0;
    opal_mutex_unlock(&w->lock);
    return known;
}

/* MPI_ERR_RMA_RANGE when (disp, count, dt) leaves the target's window,
 * before anything is issued (osc/sm would write past the window, the
 * others do not check either): the bytes the datatype touches, true lb
 * and true extent, as osc/rdma2 checks them.  Unknown sizes pass. */
static int ompix_notify_gen_range(ompix_notify_gen_win_t *w, int target, MPI_Aint disp,
                                  int count, ompi_datatype_t *dt)
{
    ompix_notify_gen_extent_t ext = { .size = -1, .disp_unit = 1 };
    ptrdiff_t lb, extent, true_lb, true_extent;
    int64_t lo, hi;
    bool dynamic = MPI_WIN_FLAVOR_DYNAMIC == w->win->w_flavor;

    if (0 == count || (dynamic ? NULL == w->dyn : !ompix_notify_gen_extent(w, target, &ext))) {
        return MPI_SUCCESS;
    }
    /* Keeps disp * unit from overflowing (such a displacement is past any
     * window anyway; on a dynamic window disp is an address). */
    if (disp < 0 || ext.disp_unit < 0 ||
        (ext.disp_unit > 0 && disp > (INT64_MAX >> 2) / ext.disp_unit)) {
        return MPI_ERR_RMA_RANGE;
    }
    ompi_datatype_get_extent(dt, &lb, &extent);
    ompi_datatype_get_true_extent(dt, &true_lb, &true_extent);
    lo = (int64_t) disp * ext.disp_unit + true_lb;
    hi = lo + true_extent;
    if (extent >= 0) {
        hi += (int64_t) (count - 1) * extent;
    } else {
        lo += (int64_t) (count - 1) * extent;
    }
    if (dynamic) {
        return ompix_notify_dyn_check(w->dyn, target, lo, hi);
    }
    return (lo < 0 || hi > ext.size) ? MPI_ERR_RMA_RANGE : MPI_SUCCESS;
}

/* Dynamic windows ---------------------------------------------------------- */

static int ompix_notify_gen_win_attach(struct ompi_win_t *win, void *base, size_t len)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    int rc = w->orig.osc_win_attach(win, base, len);

    if (OMPI_SUCCESS == rc && OMPI_SUCCESS != ompix_notify_dyn_attach(w->dyn, base, len)) {
        (void) w->orig.osc_win_detach(win, base);
        rc = OMPI_ERR_OUT_OF_RESOURCE;
    }
    return rc;
}

static int ompix_notify_gen_win_detach(struct ompi_win_t *win, const void *base)
{
    ompix_notify_gen_win_t *w = ompix_notify_gen_wrapped(win);
    int rc = w->orig.osc_win_detach(win, base);

    if (OMPI_SUCCESS == rc) {
        ompix_notify_dyn_detach(w->dyn, base);
    }
    return rc;
}

/* At creation of a dynamic window: record this process's regions (its
 * attach and detach wrapped) and answer the origins' queries for them.
 * Every component: osc pt2pt checks no address, and osc rdma checks only
 * where an access starts (a put straddling a region's end wrote past
 * it). */
static int ompix_notify_gen_track_regions(ompix_notify_gen_win_t *w)
{
    ompi_osc_base_module_t *m = w->win->w_osc_module;
    ompix_notify_dyn_t *dyn;
    int rc = ompix_notify_dyn_create(w->comm, &dyn);

    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    opal_mutex_lock(&w->lock);
    w->dyn = dyn;
    opal_mutex_unlock(&w->lock);
    m->osc_win_attach = ompix_notify_gen_win_attach;
    m->osc_win_detach = ompix_notify_gen_win_detach;
    return OMPI_SUCCESS;
}

/* The notification channel --------------------------------------------------- */

/* Collective over comm, inside the creation of win (mpiext_notify_hook.c),
 * whose size and unit on this process are given: the state, the hidden
 * communicator and every target's extent.  A failure leaves the window
 * without the channel (set_num_notify then tries again). */
void ompix_notify_gen_setup(ompi_win_t *win, ompi_communicator_t *comm, size_t size,
                            int disp_unit)
{
    ompix_notify_gen_win_t *w = NULL;
    int rc;

    opal_mutex_lock(&ompix_notify_gen_lock);
    rc = ompix_notify_gen_init_once();
    if (OMPI_SUCCESS == rc && NULL == ompix_notify_gen_lookup(win)) {
        rc = ompix_notify_gen_create(win, &w);
    }
    opal_mutex_unlock(&ompix_notify_gen_lock);
    if (NULL != w) {
        ompix_notify_gen_track_epochs(w);
        rc = ompix_notify_gen_comm_create(w, comm);
        if (OMPI_SUCCESS == rc) {
            rc = ompix_notify_gen_extents_gather(w, (int64_t) size, disp_unit);
        }
        if (OMPI_SUCCESS == rc && MPI_WIN_FLAVOR_DYNAMIC == win->w_flavor) {
            rc = ompix_notify_gen_track_regions(w);
        }
    }
    if (OMPI_SUCCESS != rc) {
        opal_output(0, "ompix notify: cannot set up notified RMA on a new window (error %d); "
                    "target-notified operations on it need MPIX_Win_set_num_notify", rc);
    }
}

/* set_num_notify on a window whose creation we did not see (collective):
 * the channel over MPI_COMM_WORLD, sizes from the window's attributes. */
static int ompix_notify_gen_channel_late(ompix_notify_gen_win_t *w)
{
    MPI_Aint size = -1;
    MPI_Fint unit = 1;
    int flag_size = 0, flag_unit = 0;
    int rc = ompix_notify_gen_check_world(w->win->w_group);

    if (OMPI_SUCCESS == rc) {
        rc = ompix_notify_gen_comm_create(w, &ompi_mpi_comm_world.comm);
    }
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    (void) ompi_attr_get_aint(w->win->w_keyhash, MPI_WIN_SIZE, &size, &flag_size);
    (void) ompi_attr_get_fint(w->win->w_keyhash, MPI_WIN_DISP_UNIT, &unit, &flag_unit);
    return ompix_notify_gen_extents_gather(w, flag_size && flag_unit ? size : -1, unit);
}

/* The table ---------------------------------------------------------------- */

static int ompix_notify_gen_notify_slots(MPI_Win win, int64_t **slots, int64_t **local,
                                         int *num)
{
    ompix_notify_gen_win_t *w;
    int rc = ompix_notify_gen_get(win, &w);

    *local = NULL;              /* every count is in slots, added atomically */
    if (MPI_SUCCESS == rc) {
        *slots = w->slots;
        *num = w->num;
    }
    return rc;
}

/* An rget returned req: notify now or track it. */
static int ompix_notify_gen_track_read(ompix_notify_gen_win_t *w, ompi_request_t *req, int peer, int id)
{
    ompix_notify_gen_item_t *it;

    opal_mutex_lock(&w->lock);
    if (REQUEST_COMPLETE(req)) {
        ompix_notify_gen_read_done(w, req, id);
    } else if (NULL != (it = OBJ_NEW(ompix_notify_gen_item_t))) {
        it->kind = OMPIX_NGEN_READ;
        it->req = req;
        it->peer = peer;
        it->id = id;
        it->seq = ++w->seq;
        opal_list_append(&w->reads, &it->super);
    } else {
        /* Cannot track it: complete it here rather than lose the count. */
        opal_mutex_unlock(&w->lock);
        (void) ompi_request_wait(&req, MPI_STATUS_IGNORE);
        opal_mutex_lock(&w->lock);
        ompix_notify_gen_add(w, id);
    }
    opal_mutex_unlock(&w->lock);
    return MPI_SUCCESS;
}

/* A notification for when the active epoch closes. */
static int ompix_notify_gen_defer(ompix_notify_gen_win_t *w, ompix_notify_gen_kind_t kind, int peer, int id)
{
    ompix_notify_gen_item_t *it = OBJ_NEW(ompix_notify_gen_item_t);

    if (NULL == it) {
        return MPI_ERR_NO_MEM;
    }
    it->kind = kind;
    it->peer = peer;
    it->id = id;
    opal_mutex_lock(&w->lock);
    opal_list_append(&w->epoch, &it->super);
    opal_mutex_unlock(&w->lock);
    return MPI_SUCCESS;
}

static int ompix_notify_gen_read_notify(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                                  int target_rank, MPI_Aint target_disp, int target_count,
                                  MPI_Datatype target_type, int id, MPI_Win win)
{
    ompix_notify_gen_win_t *w;
    ompi_request_t *req = NULL;
    int rc = ompix_notify_gen_get(win, &w);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (id >= w->num) {
        return MPI_ERR_ARG;
    }
    rc = ompix_notify_gen_range(w, target_rank, target_disp, target_count, target_type);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (!ompix_notify_gen_in_epoch(w, target_rank)) {
        return MPI_ERR_RMA_SYNC;
    }
    ompix_notify_gen_wrap_epochs(w);
    rc = win->w_osc_module->osc_rget(origin_addr, origin_count, origin_type, target_rank,
                                     target_disp, target_count, target_type, win, &req);
    if (OMPI_SUCCESS == rc) {
        return ompix_notify_gen_track_read(w, req, target_rank, id);
    }
    if (OMPI_ERR_RMA_SYNC != rc) {
        return ompix_notify_gen_err(rc);
    }
    /* No rget outside passive epochs (osc/ucx): in an active epoch the
     * get is complete when fence/complete returns. */
    rc = win->w_osc_module->osc_get(origin_addr, origin_count, origin_type, target_rank,
                                    target_disp, target_count, target_type, win);
    if (OMPI_SUCCESS != rc) {
        return ompix_notify_gen_err(rc);
    }
    return ompix_notify_gen_defer(w, OMPIX_NGEN_LOCAL, target_rank, id);
}

/* Before a target-notified operation: the state, the hidden communicator
 * (without it: MPI_ERR_RMA_SYNC, the call's precondition is missing), the
 * id, the target range. */
static int ompix_notify_gen_target_prepare(MPI_Win win, int id, int target_rank,
                                           MPI_Aint target_disp, int target_count,
                                           MPI_Datatype target_type, ompix_notify_gen_win_t **out)
{
    ompix_notify_gen_win_t *w;
    int rc = ompix_notify_gen_get(win, &w);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (NULL == w->comm) {
        if (!ompix_notify_gen_warned) {
            ompix_notify_gen_warned = true;
            opal_output(0, "ompix notify: MPIX_Put_notify, MPIX_Get_notify and "
                        "MPIX_Accumulate_notify on a window whose creation ompix did not "
                        "see (a third-party osc component, or its setup failed) need a "
                        "call of the collective MPIX_Win_set_num_notify on the window first");
        }
        return MPI_ERR_RMA_SYNC;
    }
    if (id >= w->num) {
        return MPI_ERR_ARG;
    }
    *out = w;
    rc = ompix_notify_gen_range(w, target_rank, target_disp, target_count, target_type);
    if (MPI_SUCCESS == rc && !ompix_notify_gen_in_epoch(w, target_rank)) {
        rc = MPI_ERR_RMA_SYNC;
    }
    if (MPI_SUCCESS == rc) {
        ompix_notify_gen_wrap_epochs(w);
    }
    return rc;
}

/* After a target-notified operation was issued (rc): flush the target and
 * notify, or, in an active epoch (no flush allowed), when it closes. */
static int ompix_notify_gen_target_done(ompix_notify_gen_win_t *w, int rc, int target_rank, int id)
{
    if (OMPI_SUCCESS != rc) {
        return ompix_notify_gen_err(rc);
    }
    rc = w->orig.osc_flush(target_rank, w->win);
    if (OMPI_ERR_RMA_SYNC == rc) {
        return ompix_notify_gen_defer(w, OMPIX_NGEN_REMOTE, target_rank, id);
    }
    if (OMPI_SUCCESS == rc) {
        opal_mutex_lock(&w->lock);
        rc = ompix_notify_gen_send(w, target_rank, id);
        opal_mutex_unlock(&w->lock);
    }
    return ompix_notify_gen_err(rc);
}

static int ompix_notify_gen_put_notify(const void *origin_addr, int origin_count,
                                 MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
                                 int target_count, MPI_Datatype target_type, int id, MPI_Win win)
{
    ompix_notify_gen_win_t *w;
    int rc = ompix_notify_gen_target_prepare(win, id, target_rank, target_disp, target_count,
                                             target_type, &w);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = win->w_osc_module->osc_put(origin_addr, origin_count, origin_type, target_rank,
                                    target_disp, target_count, target_type, win);
    return ompix_notify_gen_target_done(w, rc, target_rank, id);
}

static int ompix_notify_gen_get_notify(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                                 int target_rank, MPI_Aint target_disp, int target_count,
                                 MPI_Datatype target_type, int id, MPI_Win win)
{
    ompix_notify_gen_win_t *w;
    int rc = ompix_notify_gen_target_prepare(win, id, target_rank, target_disp, target_count,
                                             target_type, &w);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = win->w_osc_module->osc_get(origin_addr, origin_count, origin_type, target_rank,
                                    target_disp, target_count, target_type, win);
    return ompix_notify_gen_target_done(w, rc, target_rank, id);
}

static int ompix_notify_gen_accumulate_notify(const void *origin_addr, int origin_count,
                                        MPI_Datatype origin_type, int target_rank,
                                        MPI_Aint target_disp, int target_count,
                                        MPI_Datatype target_type, MPI_Op op, int id,
                                        MPI_Win win)
{
    ompix_notify_gen_win_t *w;
    int rc = ompix_notify_gen_target_prepare(win, id, target_rank, target_disp, target_count,
                                             target_type, &w);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = win->w_osc_module->osc_accumulate(origin_addr, origin_count, origin_type, target_rank,
                                           target_disp, target_count, target_type, op, win);
    return ompix_notify_gen_target_done(w, rc, target_rank, id);
}

static int ompix_notify_gen_get_accumulate_notify(const void *origin_addr, int origin_count,
                                                  MPI_Datatype origin_type, void *result_addr,
                                                  int result_count, MPI_Datatype result_type,
                                                  int target_rank, MPI_Aint target_disp,
                                                  int target_count, MPI_Datatype target_type,
                                                  MPI_Op op, int id, MPI_Win win)
{
    ompix_notify_gen_win_t *w;
    int rc = ompix_notify_gen_target_prepare(win, id, target_rank, target_disp, target_count,
                                             target_type, &w);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = win->w_osc_module->osc_get_accumulate(origin_addr, origin_count, origin_type,
                                               result_addr, result_count, result_type,
                                               target_rank, target_disp, target_count,
                                               target_type, op, win);
    return ompix_notify_gen_target_done(w, rc, target_rank, id);
}

/* Collective.  Everything issued before is discarded: reads in flight
 * complete without notifying, epoch notifications are dropped, messages
 * already sent are drained into the old array; then the new array. */
static int ompix_notify_gen_set_num_notify(MPI_Win win, int num)
{
    ompix_notify_gen_win_t *w;
    ompix_notify_gen_item_t *it;
    int64_t *fresh, *old;
    int rc = ompix_notify_gen_get(win, &w);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (NULL == w->comm) {
        rc = ompix_notify_gen_channel_late(w);
        if (OMPI_SUCCESS != rc) {
            return ompix_notify_gen_err(rc);
        }
    }
    if (NULL == (fresh = calloc(num, sizeof(*fresh)))) {
        return MPI_ERR_NO_MEM;
    }
    opal_mutex_lock(&w->lock);
    OPAL_LIST_FOREACH(it, &w->reads, ompix_notify_gen_item_t) {
        it->id = -1;
    }
    OPAL_LIST_FOREACH(it, &w->epoch, ompix_notify_gen_item_t) {
        it->id = -1;
    }
    opal_mutex_unlock(&w->lock);
    rc = ompix_notify_gen_comm_drain(w);
    if (OMPI_SUCCESS != rc) {
        free(fresh);
        return ompix_notify_gen_err(rc);
    }
    opal_mutex_lock(&w->lock);
    old = w->slots;
    w->slots = fresh;
    w->num = num;
    opal_mutex_unlock(&w->lock);
    free(old);
    rc = w->comm->c_coll->coll_barrier(w->comm, w->comm->c_coll->coll_barrier_module);
    return ompix_notify_gen_err(rc);
}

const ompix_notify_ops_t ompix_notify_generic_ops = {
    .notify_slots = ompix_notify_gen_notify_slots,
    .read_notify = ompix_notify_gen_read_notify,
    .put_notify = ompix_notify_gen_put_notify,
    .get_notify = ompix_notify_gen_get_notify,
    .accumulate_notify = ompix_notify_gen_accumulate_notify,
    .set_num_notify = ompix_notify_gen_set_num_notify,
    .get_accumulate_notify = ompix_notify_gen_get_accumulate_notify,
};
