/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Notification requests (MPIX_Win_notify_init): persistent requests of
 * the PML type, so MPI_Start, MPI_Startall, the Test/Wait family,
 * MPI_Cancel, MPI_Request_free and MPIX_Continue take them as they take
 * Open MPI's own.  MPI_Start arms one; a progress callback, registered
 * while any request exists, takes the count of each armed request's slot
 * with an exchange and completes the request with ompi_request_complete
 * (which is all a continuation attached to it needs).  Freeing an armed
 * request does not cancel it: it completes as usual and is released then.
 *
 * A per-window record (a window attribute) keeps the slot array for the
 * poller, so the poller never calls into a table: set_num_notify swaps the
 * array under the lock (resize_begin/end), and the window's destruction
 * (the attribute's delete callback) or an osc/rdma2 free (the window's
 * module pointer changes) turns armed requests into errors rather than
 * reads of freed memory; the destruction completes them (and releases
 * the freed ones) right away.
 *
 * Locks: `lock` guards the armed list and the records' fields; `init_lock`
 * the creation of a record.  Window attributes are never touched with
 * `lock` held (Open MPI runs delete callbacks under its attribute lock,
 * and ours takes `lock`).
 */

#include "ompi_config.h"

#include <pthread.h>

#include "opal/class/opal_list.h"
#include "opal/runtime/opal_progress.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/common/ompix/common_ompix_finalize.h"

#include "mpiext_notify_entry.h"


typedef struct ompix_notify_win_t {
    opal_object_t super;        /* the attribute and each request hold one */
    MPI_Win win;                /* NULL once the window is destroyed */
    void *module;               /* win->w_osc_module when slots was fetched */
    int64_t *slots;             /* NULL while set_num_notify replaces it */
    int64_t *local;             /* the private counters, or NULL */
    int num;
} ompix_notify_win_t;
static OBJ_CLASS_INSTANCE(ompix_notify_win_t, opal_object_t, NULL, NULL);

typedef struct ompix_notify_request_t {
    ompi_request_t super;       /* its list item links the armed list */
    ompix_notify_win_t *wrec;
    int id;
    bool armed;                 /* on the armed list (lock) */
    bool freed;                 /* by the user while armed or completing (lock) */
    int completing;             /* completions decided, not yet delivered (lock) */
    struct ompix_notify_request_t *next_done;
} ompix_notify_request_t;
static OBJ_CLASS_INSTANCE(ompix_notify_request_t, ompi_request_t, NULL, NULL);

static struct {
    opal_mutex_t lock;
    opal_mutex_t init_lock;
    opal_list_t armed;
    volatile int32_t num_armed;
    int num_reqs;               /* requests not yet released (lock) */
    int keyval;
} ompix_notify_req_global = {
    .lock = OPAL_MUTEX_STATIC_INIT,
    .init_lock = OPAL_MUTEX_STATIC_INIT,
    .num_armed = 0,
    .num_reqs = 0,
    .keyval = MPI_KEYVAL_INVALID,
};
static pthread_once_t ompix_notify_req_once = PTHREAD_ONCE_INIT;

static int ompix_notify_progress(void);
static void ompix_notify_request_disarm_locked(ompix_notify_request_t *req);
static void ompix_notify_request_finish_locked(ompix_notify_request_t *req, int64_t value,
                                               int error);
static void ompix_notify_request_deliver(ompix_notify_request_t *done);

/* ---- per-window records ------------------------------------------------ */

/* Runs when the window is destroyed (after its osc module was freed),
 * under Open MPI's attribute lock.  The window's armed requests complete
 * with an error here rather than at the next poll: one the user freed has
 * nobody to make progress for it and would stay allocated otherwise. */
static int ompix_notify_win_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    ompix_notify_win_t *wrec = (ompix_notify_win_t *) value;
    ompix_notify_request_t *done = NULL, *req, *next;

    (void) win;
    (void) keyval;
    (void) extra;
    OPAL_THREAD_LOCK(&ompix_notify_req_global.lock);
    wrec->win = NULL;
    wrec->slots = NULL;
    OPAL_LIST_FOREACH_SAFE (req, next, &ompix_notify_req_global.armed, ompix_notify_request_t) {
        if (wrec == req->wrec) {
            ompix_notify_request_disarm_locked(req);
            ompix_notify_request_finish_locked(req, 0, MPI_ERR_REQUEST);
            req->next_done = done;
            done = req;
        }
    }
    OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
    ompix_notify_request_deliver(done);
    OBJ_RELEASE(wrec);
    return MPI_SUCCESS;
}

/* MPI_Finalize: the window keyval goes (windows are gone by then). */
static void ompix_notify_req_finalize(void)
{
    (void) PMPI_Win_free_keyval(&ompix_notify_req_global.keyval);
}

static const mca_common_ompix_cleanup_t ompix_notify_req_cleanup = {
    .fn = ompix_notify_req_finalize,
};

static void ompix_notify_req_setup(void)
{
    OBJ_CONSTRUCT(&ompix_notify_req_global.armed, opal_list_t);
    if (MPI_SUCCESS == PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, ompix_notify_win_delete,
                                              &ompix_notify_req_global.keyval, NULL)) {
        (void) mca_common_ompix_at_finalize(&ompix_notify_req_cleanup);
    }
}

static ompix_notify_win_t *ompix_notify_win_find(MPI_Win win)
{
    ompix_notify_win_t *wrec = NULL;
    int flag = 0;

    if (MPI_KEYVAL_INVALID == ompix_notify_req_global.keyval
        || MPI_SUCCESS != PMPI_Win_get_attr(win, ompix_notify_req_global.keyval, &wrec, &flag)
        || !flag) {
        return NULL;
    }
    return wrec;
}

/* Fetches win's slots into its record (lock not held: the table may take
 * attributes). */
static int ompix_notify_win_refresh(ompix_notify_win_t *wrec, const ompix_notify_ops_t *ops,
                                    MPI_Win win)
{
    int64_t *slots = NULL, *local = NULL;
    int num = 0;
    int rc = ops->notify_slots(win, &slots, &local, &num);

    OPAL_THREAD_LOCK(&ompix_notify_req_global.lock);
    if (MPI_SUCCESS == rc && NULL != wrec->win) {
        wrec->local = local;
        wrec->slots = slots;
        wrec->num = num;
        wrec->module = win->w_osc_module;
    }
    OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
    return rc;
}

/* win's record, created at its first notification request.  The slots
 * are fetched before the attribute is set: the generic path keeps its
 * slots in an attribute of its own, which is then deleted after ours. */
static int ompix_notify_win_get(const ompix_notify_ops_t *ops, MPI_Win win,
                                ompix_notify_win_t **out)
{
    ompix_notify_win_t *wrec;
    int rc = MPI_SUCCESS;

    pthread_once(&ompix_notify_req_once, ompix_notify_req_setup);
    if (MPI_KEYVAL_INVALID == ompix_notify_req_global.keyval) {
        return MPI_ERR_INTERN;
    }
    OPAL_THREAD_LOCK(&ompix_notify_req_global.init_lock);
    wrec = ompix_notify_win_find(win);
    if (NULL == wrec) {
        wrec = OBJ_NEW(ompix_notify_win_t);
        if (NULL == wrec) {
            rc = MPI_ERR_NO_MEM;
        } else {
            wrec->win = win;
            wrec->slots = NULL;
            wrec->local = NULL;
            rc = ompix_notify_win_refresh(wrec, ops, win);
            if (MPI_SUCCESS == rc) {
                rc = PMPI_Win_set_attr(win, ompix_notify_req_global.keyval, wrec);
            }
            if (MPI_SUCCESS != rc) {
                OBJ_RELEASE(wrec);
            }
        }
    }
    if (MPI_SUCCESS == rc) {
        OBJ_RETAIN(wrec);       /* the request's reference */
        *out = wrec;
    }
    OPAL_THREAD_UNLOCK(&ompix_notify_req_global.init_lock);
    return rc;
}

void ompix_notify_request_resize_begin(MPI_Win win)
{
    ompix_notify_win_t *wrec = ompix_notify_win_find(win);

    if (NULL != wrec) {
        OPAL_THREAD_LOCK(&ompix_notify_req_global.lock);
        wrec->slots = NULL;
        OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
    }
}

void ompix_notify_request_resize_end(MPI_Win win, const ompix_notify_ops_t *ops)
{
    ompix_notify_win_t *wrec = ompix_notify_win_find(win);

    if (NULL != wrec) {
        (void) ompix_notify_win_refresh(wrec, ops, win);
    }
}

/* ---- arming and completing ----------------------------------------------- */

/* The progress callback stays registered while any request exists, not
 * only while one is armed: (un)registering takes opal's progress lock and
 * shifts its callback array, too much for every MPI_Start and completion.
 * With nothing armed the callback returns after one load. */
static void ompix_notify_progress_count(int delta)
{
    int before;

    OPAL_THREAD_LOCK(&ompix_notify_req_global.lock);
    before = ompix_notify_req_global.num_reqs;
    ompix_notify_req_global.num_reqs += delta;
    if (0 == before) {
        (void) opal_progress_register(ompix_notify_progress);
    } else if (0 == ompix_notify_req_global.num_reqs) {
        (void) opal_progress_unregister(ompix_notify_progress);
    }
    OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
}

/* Drops the user's reference: the handle's, and the window record's. */
static void ompix_notify_request_release(ompix_notify_request_t *req)
{
    OMPI_REQUEST_FINI(&req->super);
    OBJ_RELEASE(req->wrec);
    OBJ_RELEASE(req);
    ompix_notify_progress_count(-1);
}

/* lock held.  The status of a completion that took `value`, or of one
 * that ends in `error`. */
static void ompix_notify_request_finish_locked(ompix_notify_request_t *req, int64_t value,
                                               int error)
{
    req->super.req_status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->super.req_status.MPI_TAG = req->id;
    req->super.req_status.MPI_ERROR = error;
    req->super.req_status._cancelled = 0;
    /* MPI_Get_count(status, MPI_COUNT, &c) divides by MPI_COUNT's size. */
    req->super.req_status._ucount = (size_t) value * sizeof(MPI_Count);
    /* The completer's reference, so that nothing releases the object
     * under ompi_request_complete. */
    OBJ_RETAIN(req);
    req->completing++;
}

/* lock held.  Takes an armed request off the armed list. */
static void ompix_notify_request_disarm_locked(ompix_notify_request_t *req)
{
    opal_list_remove_item(&ompix_notify_req_global.armed, &req->super.super.super);
    req->armed = false;
    ompix_notify_req_global.num_armed--;
}

/* lock held.  Whether an armed request is done: its slot held a count
 * (taken now), or its window or slot is gone (an error). */
static bool ompix_notify_request_poll_locked(ompix_notify_request_t *req)
{
    ompix_notify_win_t *wrec = req->wrec;
    int64_t *slot, *local, value;

    if (NULL == wrec->win || wrec->win->w_osc_module != wrec->module) {
        ompix_notify_request_finish_locked(req, 0, MPI_ERR_REQUEST);
        return true;
    }
    if (NULL == wrec->slots) {
        return false;           /* being resized */
    }
    if (req->id >= wrec->num) {
        ompix_notify_request_finish_locked(req, 0, MPI_ERR_ARG);
        return true;
    }
    slot = &wrec->slots[req->id];
    local = ompix_notify_local(wrec->local, req->id);
    if (0 == ompix_notify_count(slot, local)) {
        return false;
    }
    /* Another consumer may take the count between our load and exchange. */
    value = ompix_notify_take(slot, local);
    if (0 == value) {
        return false;
    }
    ompix_notify_request_finish_locked(req, value, MPI_SUCCESS);
    return true;
}

/* Outside the lock: completion may run a continuation's callback.  The
 * user cannot start the request again before it is complete.  A request
 * the user freed before its completion was delivered is released by its
 * last completion. */
static void ompix_notify_request_complete(ompix_notify_request_t *req)
{
    bool release;

    ompi_request_complete(&req->super, true);
    OPAL_THREAD_LOCK(&ompix_notify_req_global.lock);
    req->completing--;
    release = req->freed && 0 == req->completing;
    OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
    if (release) {
        ompix_notify_request_release(req);
    }
    OBJ_RELEASE(req);
}

/* Completes a list of finished requests (linked by next_done). */
static void ompix_notify_request_deliver(ompix_notify_request_t *done)
{
    ompix_notify_request_t *next;

    for (; NULL != done; done = next) {
        next = done->next_done;
        ompix_notify_request_complete(done);
    }
}

static int ompix_notify_progress(void)
{
    ompix_notify_request_t *done = NULL, *req, *next;
    int count = 0;

    if (OPAL_LIKELY(0 == ompix_notify_req_global.num_armed)) {
        return 0;
    }
    /* One poller at a time; the others have other progress to make. */
    if (OPAL_THREAD_TRYLOCK(&ompix_notify_req_global.lock)) {
        return 0;
    }
    OPAL_LIST_FOREACH_SAFE (req, next, &ompix_notify_req_global.armed, ompix_notify_request_t) {
        if (ompix_notify_request_poll_locked(req)) {
            ompix_notify_request_disarm_locked(req);
            req->next_done = done;
            done = req;
            ++count;
        }
    }
    OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
    ompix_notify_request_deliver(done);
    return count;
}

/* req_start: arms each request; one whose slot is already set completes
 * right here. */
static int ompix_notify_request_start(size_t count, ompi_request_t **reqs)
{
    for (size_t i = 0; i < count; ++i) {
        ompix_notify_request_t *req = (ompix_notify_request_t *) reqs[i];
        const char *why = NULL;
        bool done = false;

        OPAL_THREAD_LOCK(&ompix_notify_req_global.lock);
        if (req->armed || OMPI_REQUEST_ACTIVE == req->super.req_state) {
            why = "MPI_Start: the notification request is already active";
        } else if (NULL == req->wrec->win) {
            why = "MPI_Start: the notification request's window has been freed";
        }
        if (NULL != why) {
            OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
            /* 4.1's MPI_Start does not report req_start's errors itself. */
            return mca_common_ompix_errhandler_start(MPI_ERR_REQUEST, why);
        }
        req->super.req_status = ompi_status_empty;
        req->super.req_complete = REQUEST_PENDING;
        req->super.req_state = OMPI_REQUEST_ACTIVE;
        done = ompix_notify_request_poll_locked(req);
        if (!done) {
            opal_list_append(&ompix_notify_req_global.armed, &req->super.super.super);
            req->armed = true;
            ompix_notify_req_global.num_armed++;
        }
        OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
        if (done) {
            ompix_notify_request_complete(req);
        }
    }
    return OMPI_SUCCESS;
}

/* An armed request is cancelled (MPI_Test_cancelled then says so, and no
 * count was taken); one that already took its count is not. */
static int ompix_notify_request_cancel(ompi_request_t *base, int flag)
{
    ompix_notify_request_t *req = (ompix_notify_request_t *) base;
    bool cancelled = false;

    (void) flag;
    OPAL_THREAD_LOCK(&ompix_notify_req_global.lock);
    if (req->armed) {
        ompix_notify_request_disarm_locked(req);
        ompix_notify_request_finish_locked(req, 0, MPI_SUCCESS);
        req->super.req_status._cancelled = 1;
        cancelled = true;
    }
    OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
    if (cancelled) {
        ompix_notify_request_complete(req);
    }
    return OMPI_SUCCESS;
}

/* MPI_Request_free does not cancel an active operation: an armed request
 * stays armed, takes its slot's next count and completes (a continuation
 * attached to it runs), and only then is released; so is one whose
 * completion is under way.  Anything else is released at once.  The count
 * a freed request takes is discarded with its status, as for any active
 * operation freed. */
static int ompix_notify_request_free(ompi_request_t **rptr)
{
    ompix_notify_request_t *req = (ompix_notify_request_t *) *rptr;
    bool later;

    OPAL_THREAD_LOCK(&ompix_notify_req_global.lock);
    later = req->armed || 0 != req->completing;
    req->freed = later;
    OPAL_THREAD_UNLOCK(&ompix_notify_req_global.lock);
    *rptr = MPI_REQUEST_NULL;
    if (!later) {
        ompix_notify_request_release(req);
    }
    return OMPI_SUCCESS;
}

int ompix_notify_request_create(const ompix_notify_ops_t *ops, MPI_Win win, int id,
                                ompi_request_t **out)
{
    ompix_notify_request_t *req;
    ompix_notify_win_t *wrec;
    int rc;

    if (id < 0) {
        return MPI_ERR_ARG;
    }
    rc = ompix_notify_win_get(ops, win, &wrec);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (id >= wrec->num) {
        OBJ_RELEASE(wrec);
        return MPI_ERR_ARG;
    }
    req = OBJ_NEW(ompix_notify_request_t);
    if (NULL == req) {
        OBJ_RELEASE(wrec);
        return MPI_ERR_NO_MEM;
    }
    OMPI_REQUEST_INIT(&req->super, true);
    /* The PML type is what MPI_Start and MPI_Startall accept; errors of a
     * completion are reported on MPI_COMM_WORLD (the window may be gone). */
    req->super.req_type = OMPI_REQUEST_PML;
    req->super.req_mpi_object.comm = MPI_COMM_WORLD;
    req->super.req_status = ompi_status_empty;
    req->super.req_start = ompix_notify_request_start;
    req->super.req_free = ompix_notify_request_free;
    req->super.req_cancel = ompix_notify_request_cancel;
    req->wrec = wrec;
    req->id = id;
    req->armed = false;
    req->freed = false;
    req->completing = 0;
    req->next_done = NULL;
    ompix_notify_progress_count(1);
    *out = &req->super;
    return MPI_SUCCESS;
}
