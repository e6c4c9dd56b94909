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
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/errhandler/errhandler.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

static void ompix_bundle_active_construct(ompix_bundle_active_t *a)
{
    a->poll = NULL;
    a->done = NULL;
    a->req = NULL;
    a->in_progress = a->freed = a->polling = false;
}
OBJ_CLASS_INSTANCE(ompix_bundle_active_t, opal_list_item_t, ompix_bundle_active_construct, NULL);

/* Active objects one progress call polls at most (the others, at the next
 * call: the polled ones go to the end of the list). */
#define OMPIX_BUNDLE_BATCH 32

/* The active objects (those a progress call is polling stay on the list,
 * claimed). */
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

/* Claims up to OMPIX_BUNDLE_BATCH active objects nobody is polling.  Lock
 * held. */
static int ompix_bundle_claim(ompix_bundle_active_t **batch)
{
    ompix_bundle_active_t *a;
    int n = 0;

    OPAL_LIST_FOREACH (a, &ompix_bundle_global.active, ompix_bundle_active_t) {
        if (!a->polling) {
            a->polling = true;
            batch[n++] = a;
            if (OMPIX_BUNDLE_BATCH == n) {
                break;
            }
        }
    }
    return n;
}

/* Gives the batch back: done ones leave the list, the others go to its
 * end (so that a list longer than a batch is polled in turn); the count
 * of done ones.  Lock held. */
static int ompix_bundle_unclaim(ompix_bundle_active_t **batch, const bool *done, int n)
{
    int ndone = 0;

    for (int i = 0; i < n; ++i) {
        batch[i]->polling = false;
        opal_list_remove_item(&ompix_bundle_global.active, &batch[i]->super);
        if (done[i]) {
            ndone++;
        } else {
            opal_list_append(&ompix_bundle_global.active, &batch[i]->super);
        }
    }
    ompix_bundle_global.count -= ndone;
    if (ndone > 0 && 0 == ompix_bundle_global.count) {
        opal_progress_unregister(ompix_bundle_progress);
    }
    return ndone;
}

/* Polls the active objects once.  They are claimed under the lock and
 * polled without it: a poll starts members, which may start nested
 * bundles (they join the list) or run opal_progress (which skips what is
 * claimed); another thread's progress skips them too, so one object is
 * never polled by two threads at once.  Done ones are completed after the
 * lock is released: completion runs callbacks (continuations) that may
 * start bundles.  No list is built per call: this runs in every
 * opal_progress while anything is active. */
static int ompix_bundle_progress(void)
{
    ompix_bundle_active_t *batch[OMPIX_BUNDLE_BATCH];
    bool done[OMPIX_BUNDLE_BATCH];
    int n, ndone;

    OPAL_THREAD_LOCK(&ompix_bundle_global.lock);
    n = ompix_bundle_claim(batch);
    OPAL_THREAD_UNLOCK(&ompix_bundle_global.lock);
    for (int i = 0; i < n; ++i) {
        done[i] = batch[i]->poll(batch[i]);
    }
    OPAL_THREAD_LOCK(&ompix_bundle_global.lock);
    ndone = ompix_bundle_unclaim(batch, done, n);
    OPAL_THREAD_UNLOCK(&ompix_bundle_global.lock);
    for (int i = 0; i < n; ++i) {
        if (done[i]) {
            ompix_bundle_leave(batch[i]);
        }
    }
    return ndone;
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

/* A req_start over count requests: one at a time, the last error returned.
 * one() fails only for an active request; that is reported once here
 * (by 5.0's MPI_Start itself: caller, the req_start's return address,
 * common_ompix_compat_request.h). */
int ompix_bundle_start_each(size_t count, ompi_request_t **reqs, int (*one)(ompi_request_t *req),
                            const void *caller)
{
    int rc = MPI_SUCCESS;

    for (size_t i = 0; i < count; ++i) {
        int r = one(reqs[i]);

        if (MPI_SUCCESS != r) {
            rc = mca_common_ompix_request_start_error(NULL, r, caller, "the request is active");
        }
    }
    return rc;
}
