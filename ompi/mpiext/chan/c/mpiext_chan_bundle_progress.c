/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What moves bundles and persistent generalized requests on without a
 * call from the user: an opal progress callback, registered only while
 * one of them is active (so an idle program pays nothing), that polls the
 * active ones.  The request functions they share live here too.
 */

#include "ompi_config.h"

#include "opal/runtime/opal_progress.h"
#include "opal/threads/mutex.h"
#include "ompi/errhandler/errhandler.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

static void ompix_bundle_active_construct(ompix_bundle_active_t *a)
{
    a->poll = NULL;
    a->done = NULL;
    a->req = NULL;
    a->in_progress = a->freed = false;
}
OBJ_CLASS_INSTANCE(ompix_bundle_active_t, opal_list_item_t, ompix_bundle_active_construct, NULL);

/* The active objects; count includes those a progress call has taken off
 * the list to poll them, so the callback stays registered meanwhile. */
static struct {
    opal_mutex_t lock;
    opal_list_t active;            /* constructed at the first activation */
    bool ready;
    int count;
} ompix_bundle_global = {
    .lock = OPAL_MUTEX_STATIC_INIT,
    .ready = false,
    .count = 0,
};

static int ompix_bundle_progress(void);

/* Progress is done with a: it is completed, or released if MPI_Request_free
 * came while progress held it; then progress drops its reference (taken
 * at activation), so a free racing with the completion finds the object
 * alive. */
static void ompix_bundle_leave(ompix_bundle_active_t *a)
{
    ompi_request_t *req = a->req;
    bool freed;

    OPAL_THREAD_LOCK(&ompix_bundle_global.lock);
    a->in_progress = false;
    freed = a->freed;
    a->freed = false;
    OPAL_THREAD_UNLOCK(&ompix_bundle_global.lock);
    a->done(a, freed);
    OBJ_RELEASE(req);
}

/* Polls every active object once.  The list is taken off under the lock
 * and polled without it: a poll starts members, which may start nested
 * bundles (they join the list) or run opal_progress (which finds nothing
 * of ours to poll); another thread's progress meanwhile skips them, so
 * one object is never polled by two threads at once.  Done ones are
 * completed after the lock is released: completion runs callbacks
 * (continuations) that may start bundles. */
static int ompix_bundle_progress(void)
{
    opal_list_t mine, done;
    ompix_bundle_active_t *a, *next;
    int n;

    OBJ_CONSTRUCT(&mine, opal_list_t);
    OBJ_CONSTRUCT(&done, opal_list_t);
    OPAL_THREAD_LOCK(&ompix_bundle_global.lock);
    opal_list_join(&mine, opal_list_get_end(&mine), &ompix_bundle_global.active);
    OPAL_THREAD_UNLOCK(&ompix_bundle_global.lock);
    OPAL_LIST_FOREACH_SAFE (a, next, &mine, ompix_bundle_active_t) {
        if (a->poll(a)) {
            opal_list_remove_item(&mine, &a->super);
            opal_list_append(&done, &a->super);
        }
    }
    n = (int) opal_list_get_size(&done);
    OPAL_THREAD_LOCK(&ompix_bundle_global.lock);
    opal_list_join(&ompix_bundle_global.active, opal_list_get_begin(&ompix_bundle_global.active),
                   &mine);
    ompix_bundle_global.count -= n;
    if (n > 0 && 0 == ompix_bundle_global.count) {
        opal_progress_unregister(ompix_bundle_progress);
    }
    OPAL_THREAD_UNLOCK(&ompix_bundle_global.lock);
    while (NULL != (a = (ompix_bundle_active_t *) opal_list_remove_first(&done))) {
        ompix_bundle_leave(a);
    }
    OBJ_DESTRUCT(&mine);
    OBJ_DESTRUCT(&done);
    return n;
}

/* a was started and is not done yet: progress polls it from now on. */
void ompix_bundle_activate(ompix_bundle_active_t *a)
{
    OPAL_THREAD_LOCK(&ompix_bundle_global.lock);
    if (!ompix_bundle_global.ready) {
        OBJ_CONSTRUCT(&ompix_bundle_global.active, opal_list_t);
        ompix_bundle_global.ready = true;
    }
    OBJ_RETAIN(a->req);
    a->in_progress = true;
    a->freed = false;
    opal_list_append(&ompix_bundle_global.active, &a->super);
    if (1 == ++ompix_bundle_global.count) {
        opal_progress_register(ompix_bundle_progress);
    }
    OPAL_THREAD_UNLOCK(&ompix_bundle_global.lock);
}

/* After a start: done at once (completed now), or polled from progress
 * from now on. */
void ompix_bundle_launch(ompix_bundle_active_t *a)
{
    if (a->poll(a)) {
        a->done(a, false);
    } else {
        ompix_bundle_activate(a);
    }
}

/* MPI_Request_free: the handle goes; false when progress still holds the
 * object (it then releases it at completion instead of completing it),
 * true when the caller releases it now. */
bool ompix_bundle_mark_freed(ompi_request_t **req, ompix_bundle_active_t *a)
{
    bool held;

    *req = MPI_REQUEST_NULL;
    OPAL_THREAD_LOCK(&ompix_bundle_global.lock);
    held = a->in_progress;
    a->freed = held;
    OPAL_THREAD_UNLOCK(&ompix_bundle_global.lock);
    return !held;
}

/* A start: the request is active and pending, with an empty status. */
void ompix_bundle_request_reset(ompi_request_t *req)
{
    req->req_status = ompi_status_empty;
    req->req_complete = REQUEST_PENDING;
    req->req_state = OMPI_REQUEST_ACTIVE;
}

/* MPI_Cancel of a bundle or a persistent generalized request is erroneous,
 * as of a persistent collective (Open MPI's MPI_Cancel reports the class
 * through MPI_COMM_WORLD's handler). */
int ompix_bundle_refuse_cancel(ompi_request_t *req, int flag)
{
    (void) req;
    (void) flag;
    return MPI_ERR_REQUEST;
}

/* A req_start over count requests: one at a time, the last error returned
 * (each was reported through its error handler already). */
int ompix_bundle_start_each(size_t count, ompi_request_t **reqs, int (*one)(ompi_request_t *req))
{
    int rc = MPI_SUCCESS;

    for (size_t i = 0; i < count; ++i) {
        int r = one(reqs[i]);

        if (MPI_SUCCESS != r) {
            rc = r;
        }
    }
    return rc;
}
