/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Running continuations: the process-wide state, the opal progress callback
 * that drains ready continuations, and the missed-callback watcher.
 *
 * Callbacks always run at the top level of an MPI call made by an
 * application thread (Open MPI 4.1 has no progress threads), never inside a
 * request completion callback and never with an ompix lock held, so they may
 * call MPI and register new continuations.
 */

#include "ompi_config.h"

#include <pthread.h>

#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"
#include "ompi/mca/common/ompix/common_ompix_finalize.h"
#include "ompi/request/grequest.h"

#include "mpiext_continue_internal.h"

ompix_cont_global_t ompix_cont_global = { .initialized = false };

/* Continuations run from opal_progress are not drained again by a nested
 * progress call inside a callback: that would recurse without bound. */
static OMPIX_CONT_TLS int ompix_cont_progress_depth = 0;

/* Most continuations one progress call runs, so that a flood of ready
 * continuations does not starve the rest of the progress engine. */
#define OMPIX_CONT_PROGRESS_BATCH 64

/* Most watched operations checked per progress call. */
#define OMPIX_CONT_WATCH_BATCH 8

/* Completes the operations of one round before the callback sees them:
 * status queries of generalized requests, freeing taken-over requests,
 * making persistent requests inactive so the callback may restart them. */
static bool ompix_cont_run_ops(ompix_cont_t *cont)
{
    bool failed = cont->failed;

    for (int i = 0; i < cont->num_ops; ++i) {
        ompix_cont_op_t *op = &cont->ops[i];
        ompi_request_t *req = op->req;

        if (!op->needs_run) {
            continue;
        }
        op->needs_run = false;
        mca_common_ompix_request_wait_marked(req);
        if (OMPI_REQUEST_GEN == req->req_type) {
            ompi_grequest_invoke_query(req, &req->req_status);
            if (NULL != cont->statuses) {
                cont->statuses[op->index] = req->req_status;
            }
            failed |= MPI_SUCCESS != req->req_status.MPI_ERROR;
        }
        if (!op->persistent) {
            op->state = OMPIX_CONT_OP_DETACHED;
            ompi_request_free(&req);
            continue;
        }
        if (!cont->persistent) {
            ompix_cont_op_detach(op);
        }
        if (OMPI_REQUEST_ACTIVE == req->req_state && REQUEST_COMPLETE(req)) {
            req->req_state = OMPI_REQUEST_INACTIVE;
        }
    }
    cont->failed = false;
    return failed;
}

/* Global lock held.  The first ready continuation of any request that is
 * not reserved for polling. */
static ompix_cont_t *ompix_cont_pop_any_locked(void)
{
    opal_list_item_t *item;

    OPAL_LIST_FOREACH(item, &ompix_cont_global.creqs, opal_list_item_t) {
        ompix_cont_request_t *c = (ompix_cont_request_t *)
            ((char *) item - offsetof(ompix_cont_request_t, live));
        ompix_cont_t *cont;
        /* The request being tested counts its own runs against max_poll;
         * without a limit, running them here lets the test that triggered
         * this progress see it complete. */
        if (c->poll_only || (c == ompix_cont_polled && c->max_poll > 0)) {
            continue;
        }
        cont = ompix_cont_pop_locked(c);
        if (NULL != cont) {
            return cont;
        }
    }
    return NULL;
}

/* See ompix_cont_drain_ready: the out-of-line copy, for the calls that
 * are not on the path of a Test/Wait that just found work. */
int ompix_cont_drain(ompix_cont_request_t *creq, int max)
{
    return ompix_cont_drain_inline(creq, max);
}

/* Runs up to max ready continuations of requests not reserved for
 * polling. */
static int ompix_cont_drain_any(int max)
{
    int n = 0;

    while (ompix_cont_any_ready() && n < max) {
        ompix_cont_t *cont;

        OPAL_THREAD_LOCK(&ompix_cont_global.lock);
        cont = ompix_cont_pop_any_locked();
        OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
        if (NULL == cont) {
            break;
        }
        ompix_cont_run(cont);
        n++;
    }
    return n;
}

void ompix_cont_run_immediate(ompix_cont_t *cont)
{
    ompix_cont_run_plain_as(cont, opal_using_threads(), true);
}

void ompix_cont_run(ompix_cont_t *cont)
{
    ompix_cont_request_t *creq;
    bool failed, unused, complete, kept = false;

    if (cont->plain) {
        ompix_cont_run_plain(cont, opal_using_threads());
        return;
    }
    creq = cont->creq;
    failed = ompix_cont_run_ops(cont);
    ompix_cont_callback(cont);

    /* As for a plain one; a persistent continuation may stay. */
    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    cont->running = false;
    unused = 0 == cont->attached && !cont->armed && !cont->queued;
    if (unused) {
        ompix_cont_release_locked(cont);
        kept = ompix_cont_spare_put_locked(creq, cont);
    }
    complete = ompix_cont_request_deactivate_locked(creq, failed, opal_using_threads());
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
    if (unused && !kept) {
        ompix_cont_release_free(cont);
    }
    if (complete) {
        ompix_cont_request_complete(creq, opal_using_threads());
    }
}

void ompix_cont_watch_add(ompix_cont_op_t *op)
{
    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    if (OMPIX_CONT_OP_ARMED == op->state && !op->watched) {
        opal_list_append(&ompix_cont_global.watch, &op->super);
        op->watched = true;
        ompix_cont_global.num_watched++;
    }
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
}

void ompix_cont_watch_remove(ompix_cont_op_t *op)
{
    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    if (op->watched) {
        opal_list_remove_item(&ompix_cont_global.watch, &op->super);
        op->watched = false;
        ompix_cont_global.num_watched--;
    }
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
}

/* Looks at a few watched operations, round robin: a request that is
 * complete while our operation is still armed lost its callback. */
static int ompix_cont_watch_scan(void)
{
    ompix_cont_op_t *missed[OMPIX_CONT_WATCH_BATCH];
    int n = 0;

    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    for (int i = 0; i < OMPIX_CONT_WATCH_BATCH; ++i) {
        ompix_cont_op_t *op = (ompix_cont_op_t *) opal_list_remove_first(&ompix_cont_global.watch);
        if (NULL == op) {
            break;
        }
        if (OMPIX_CONT_OP_ARMED == op->state && !REQUEST_COMPLETE(op->req)) {
            opal_list_append(&ompix_cont_global.watch, &op->super);
            continue;
        }
        op->watched = false;
        ompix_cont_global.num_watched--;
        if (OMPIX_CONT_OP_ARMED == op->state) {
            /* Settled and recorded under the lock: the owner of a
             * persistent request may free it (and detach the op, under
             * this lock) as soon as we let go. */
            ompix_cont_op_settle(op);
            if (ompix_cont_op_claim_locked(op)) {
                missed[n++] = op;
            }
        }
    }
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);

    for (int i = 0; i < n; ++i) {
        ompix_cont_op_account(missed[i]);
    }
    return n;
}

static int ompix_cont_progress(void)
{
    int n = 0;

    if (0 != ompix_cont_global.num_watched) {
        n += ompix_cont_watch_scan();
    }
    if (ompix_cont_any_ready() && 0 == ompix_cont_progress_depth) {
        ompix_cont_progress_depth++;
        n += ompix_cont_drain_any(OMPIX_CONT_PROGRESS_BATCH);
        ompix_cont_progress_depth--;
    }
    return n;
}

/* MPI_Finalize deletes the attributes of MPI_COMM_SELF first: the one place
 * both builds can run our cleanup while MPI is still usable. */
static void ompix_cont_finalize(void)
{
    opal_progress_unregister(ompix_cont_progress);
    ompix_cont_wait_uninstall();
    OBJ_DESTRUCT(&ompix_cont_global.conts);
    OBJ_DESTRUCT(&ompix_cont_global.persistent);
    OBJ_DESTRUCT(&ompix_cont_global.watch);
    OBJ_DESTRUCT(&ompix_cont_global.creqs);
    OBJ_DESTRUCT(&ompix_cont_global.lock);
    ompix_cont_global.initialized = false;
}

static const mca_common_ompix_cleanup_t ompix_cont_cleanup = {
    .fn = ompix_cont_finalize,
};

static int ompix_cont_global_setup(void)
{
    int rc;

    OBJ_CONSTRUCT(&ompix_cont_global.lock, opal_mutex_t);
    OBJ_CONSTRUCT(&ompix_cont_global.creqs, opal_list_t);
    OBJ_CONSTRUCT(&ompix_cont_global.watch, opal_list_t);
    OBJ_CONSTRUCT(&ompix_cont_global.persistent, opal_hash_table_t);
    OBJ_CONSTRUCT(&ompix_cont_global.conts, opal_free_list_t);
    ompix_cont_global.num_queued = ompix_cont_global.num_run;
    ompix_cont_global.num_watched = 0;
    ompix_cont_mpit_register();

    rc = opal_hash_table_init(&ompix_cont_global.persistent, 64);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    rc = opal_free_list_init(&ompix_cont_global.conts, sizeof(ompix_cont_t),
                             opal_cache_line_size, OBJ_CLASS(ompix_cont_t), 0,
                             opal_cache_line_size, 16, -1, 64, NULL, 0, NULL, NULL, NULL);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    rc = mca_common_ompix_at_finalize(&ompix_cont_cleanup);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    ompix_cont_wait_install();
    return opal_progress_register(ompix_cont_progress);
}

int ompix_cont_global_init(void)
{
    static pthread_mutex_t ompix_cont_init_lock = PTHREAD_MUTEX_INITIALIZER;
    int rc = OMPI_SUCCESS;

    if (ompix_cont_global.initialized) {
        return OMPI_SUCCESS;
    }
    pthread_mutex_lock(&ompix_cont_init_lock);
    if (!ompix_cont_global.initialized) {
        rc = ompix_cont_global_setup();
        opal_atomic_wmb();
        ompix_cont_global.initialized = (OMPI_SUCCESS == rc);
    }
    pthread_mutex_unlock(&ompix_cont_init_lock);
    return rc;
}
