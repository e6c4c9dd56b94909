/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Attaching continuations to operation requests.
 *
 * Completion reaches us through the request's completion callback.  Open MPI
 * 4.1's ompi_request_set_callback races registration against completion (the
 * callback can run twice or never), so we install the callback ourselves and
 * make every path that may observe the completion -- the callback, a check
 * right after installing it, and the watcher in the progress loop -- race on
 * one compare-and-swap of the operation's state.  Exactly one wins.
 *
 * Persistent operations additionally get their req_start and req_free
 * replaced by wrappers: MPI_Start re-arms a persistent continuation, and
 * MPI_Request_free detaches the operation from it.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/request/grequest.h"

#include "mpiext_continue_internal.h"

static int ompix_cont_op_start_wrapper(size_t count, ompi_request_t **reqs);
static int ompix_cont_op_free_wrapper(ompi_request_t **rptr);

/* Global lock held. */
static ompix_cont_op_t *ompix_cont_op_lookup(ompi_request_t *req)
{
    void *value = NULL;

    if (OPAL_SUCCESS != opal_hash_table_get_value_ptr(&ompix_cont_global.persistent,
                                                      &req, sizeof(req), &value)) {
        return NULL;
    }
    return (ompix_cont_op_t *) value;
}

/* Global lock held. */
static void ompix_cont_op_hook(ompix_cont_op_t *op)
{
    ompi_request_t *req = op->req;

    op->orig_start = req->req_start;
    op->orig_free = req->req_free;
    req->req_start = ompix_cont_op_start_wrapper;
    req->req_free = ompix_cont_op_free_wrapper;
    opal_hash_table_set_value_ptr(&ompix_cont_global.persistent, &req, sizeof(req), op);
    op->hooked = true;
}

/* Global lock held.  Gives the request back its own start and free, so the
 * layer that owns it may recycle or replace it. */
static void ompix_cont_op_unhook(ompix_cont_op_t *op)
{
    ompi_request_t *req = op->req;

    if (!op->hooked) {
        return;
    }
    req->req_start = op->orig_start;
    req->req_free = op->orig_free;
    opal_hash_table_remove_value_ptr(&ompix_cont_global.persistent, &req, sizeof(req));
    op->hooked = false;
}

/* Global lock held.  Queues a continuation whose round is complete. */
static void ompix_cont_fire_locked(ompix_cont_t *cont)
{
    if (cont->plain) {
        ompix_cont_queue_plain_locked(cont);
        return;
    }
    cont->armed = false;
    for (int i = 0; i < cont->num_ops; ++i) {
        ompix_cont_op_t *op = &cont->ops[i];
        if (OMPIX_CONT_OP_DONE != op->state) {
            continue;
        }
        op->needs_run = true;
        if (cont->persistent && op->hooked) {
            /* The next round needs this op to complete again. */
            op->state = OMPIX_CONT_OP_IDLE;
        }
    }
    if (cont->persistent) {
        cont->pending = cont->attached;
    }
    cont->runs_due++;
    if (!cont->queued) {
        cont->queued = true;
        opal_list_append(&cont->creq->ready, &cont->super.super);
    }
    ompix_cont_global.num_queued++;
}

static void ompix_cont_fire(ompix_cont_t *cont)
{
    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    ompix_cont_fire_locked(cont);
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
}

/* The user promised async-signal-safe callbacks: run the callback right
 * here, possibly inside another layer's completion path, and leave freeing
 * requests and completing the continuation request to the queue. */
static void ompix_cont_run_signal_safe(ompix_cont_t *cont)
{
    for (int i = 0; i < cont->num_ops; ++i) {
        ompix_cont_op_t *op = &cont->ops[i];
        if (OMPIX_CONT_OP_DONE == op->state && OMPI_REQUEST_GEN == op->req->req_type
            && NULL != cont->statuses) {
            ompi_grequest_invoke_query(op->req, &op->req->req_status);
            cont->statuses[op->index] = op->req->req_status;
        }
    }
    cont->cb(cont->statuses, cont->cb_data);
    OPAL_THREAD_ADD_FETCH32(&cont->cbs_ran, 1);
}

/* The one ARMED->DONE transition of an operation per round: true for the
 * only caller that wins it. */
static inline bool ompix_cont_op_claim(ompix_cont_op_t *op)
{
    int32_t expected = OMPIX_CONT_OP_ARMED;

    if (!opal_using_threads()) {
        /* One thread: the callback and our own check cannot interleave. */
        if (OMPIX_CONT_OP_ARMED != op->state) {
            return false;
        }
        op->state = OMPIX_CONT_OP_DONE;
        return true;
    }
    return opal_atomic_compare_exchange_strong_32(&op->state, &expected, OMPIX_CONT_OP_DONE);
}

/* Counts a claimed and recorded operation; the last one of the round
 * queues the continuation. */
void ompix_cont_op_account(ompix_cont_op_t *op)
{
    ompix_cont_t *cont = op->cont;

    if (0 == OPAL_THREAD_ADD_FETCH32(&cont->pending, -1)) {
        if (cont->creq->async_signal_safe && !cont->creq->poll_only) {
            ompix_cont_run_signal_safe(cont);
        }
        ompix_cont_fire(cont);
    }
}

/* Global lock held (the watcher): claims and records an operation whose
 * completion callback was missed; the caller accounts for it after
 * letting go of the lock. */
bool ompix_cont_op_claim_locked(ompix_cont_op_t *op)
{
    if (!ompix_cont_op_claim(op)) {
        return false;
    }
    ompix_cont_op_record(op->cont, op, op->req);
    return true;
}

/* Accounts for one completed operation; only the first caller per round
 * gets past the claim. */
void ompix_cont_op_done(ompix_cont_op_t *op)
{
    if (!ompix_cont_op_claim(op)) {
        return;
    }
    if (op->watched) {
        ompix_cont_watch_remove(op);
    }
    ompix_cont_op_record(op->cont, op, op->req);
    ompix_cont_op_account(op);
}

int ompix_cont_op_complete_cb(ompi_request_t *req)
{
    ompix_cont_op_t *op = (ompix_cont_op_t *) req->req_complete_cb_data;
    int rc = 0;

    /* Always hand the data field back: pml ucx recycles requests and reads
     * req_complete_cb_data of a reused one as "owning persistent request". */
    req->req_complete_cb_data = op->chained_cb_data;
    if (NULL != op->chained_cb) {
        rc = op->chained_cb(req);
    }
    if (0 != rc) {
        /* The chained callback keeps the request incomplete and will
         * complete it again later: be there for that call. */
        op->chained_cb = NULL;
        op->chained_cb_data = NULL;
        req->req_complete_cb_data = op;
        req->req_complete_cb = ompix_cont_op_complete_cb;
        return rc;
    }
    ompix_cont_op_done(op);
    return rc;
}

/* Called by a thread that saw the request complete while our callback may
 * still be installed (its completer missed it).  Once a request is marked
 * complete, ompi_request_complete has returned from any callback it took,
 * so nobody else touches these fields for this completion. */
void ompix_cont_op_settle(ompix_cont_op_t *op)
{
    ompi_request_t *req = op->req;

    if (ompix_cont_op_complete_cb == req->req_complete_cb) {
        req->req_complete_cb = op->chained_cb;
    }
    if (op == req->req_complete_cb_data) {
        req->req_complete_cb_data = op->chained_cb_data;
    }
}

/* Installs our completion callback on an armed operation whose request was
 * not complete a moment ago; its completion then reaches ompix_cont_op_done
 * exactly once. */
void ompix_cont_op_install(ompix_cont_op_t *op)
{
    ompi_request_t *req = op->req;

    op->chained_cb = req->req_complete_cb;
    op->chained_cb_data = req->req_complete_cb_data;
    req->req_complete_cb_data = op;
    opal_atomic_wmb();
    req->req_complete_cb = ompix_cont_op_complete_cb;
    if (opal_using_threads()) {
        /* Order our store of the callback before the load below (Dekker
         * style) against a completing thread's load and store. */
        opal_atomic_mb();
    }
    if (REQUEST_COMPLETE(req)) {
        ompix_cont_op_settle(op);
        ompix_cont_op_done(op);
    } else if (opal_using_threads()) {
        /* Another thread may have read the old callback just before we
         * stored ours and be about to mark the request complete. */
        ompix_cont_watch_add(op);
    }
}

/* Makes the operation's completion reach ompix_cont_op_done exactly once. */
static void ompix_cont_op_arm(ompix_cont_op_t *op)
{
    op->state = OMPIX_CONT_OP_ARMED;
    if (REQUEST_COMPLETE(op->req)) {
        /* Nothing to install: shared static requests (MPI_PROC_NULL) must
         * never carry our callback. */
        ompix_cont_op_done(op);
        return;
    }
    ompix_cont_op_install(op);
}

/* Global lock held. */
static bool ompix_cont_unused_locked(const ompix_cont_t *cont)
{
    return 0 == cont->attached && !cont->armed && !cont->queued && !cont->running;
}

/* Global lock held.  Returns true when the op still counted toward the
 * current round, i.e. the caller must decrement cont->pending. */
static bool ompix_cont_op_detach_locked(ompix_cont_op_t *op)
{
    int32_t prev = opal_atomic_swap_32(&op->state, OMPIX_CONT_OP_DETACHED);

    if (op->hooked) {
        ompix_cont_op_unhook(op);
        op->cont->attached--;
    }
    if (OMPIX_CONT_OP_ARMED == prev) {
        ompix_cont_op_settle(op);
    }
    if (op->watched) {
        opal_list_remove_item(&ompix_cont_global.watch, &op->super);
        op->watched = false;
        ompix_cont_global.num_watched--;
    }
    op->needs_run = false;
    return OMPIX_CONT_OP_ARMED == prev || OMPIX_CONT_OP_IDLE == prev;
}

/* Detaches an operation from its continuation ("or been freed"): the
 * continuation no longer waits for it. */
void ompix_cont_op_detach(ompix_cont_op_t *op)
{
    ompix_cont_t *cont = op->cont;
    bool counted, unused;

    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    counted = ompix_cont_op_detach_locked(op);
    if (counted && 0 == OPAL_THREAD_ADD_FETCH32(&cont->pending, -1) && cont->armed) {
        ompix_cont_fire_locked(cont);
    }
    unused = ompix_cont_unused_locked(cont);
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
    if (unused) {
        ompix_cont_release(cont);
    }
}

static int ompix_cont_op_start_wrapper(size_t count, ompi_request_t **reqs)
{
    for (size_t i = 0; i < count; ++i) {
        ompix_cont_op_t *op;
        ompi_request_start_fn_t start;
        bool rearm;
        int rc;

        OPAL_THREAD_LOCK(&ompix_cont_global.lock);
        op = ompix_cont_op_lookup(reqs[i]);
        if (NULL == op) {
            OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
            return OMPI_ERR_BAD_PARAM;
        }
        start = op->orig_start;
        rearm = op->cont->persistent;
        if (rearm && OMPI_REQUEST_ACTIVE == reqs[i]->req_state) {
            /* A start while the last one is outstanding (a channel with
             * slack > 1): the continuation is armed once per start and
             * would be armed twice on one request. */
            OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
            return mca_common_ompix_errhandler_start(MPI_ERR_REQUEST,
                                                     "MPI_Start: a request with a persistent "
                                                     "continuation can have one start "
                                                     "outstanding at a time");
        }
        if (rearm) {
            ompix_cont_op_unhook(op);
            if (!op->cont->armed) {
                op->cont->armed = true;
                ompix_cont_request_activate(op->cont->creq);
                ompix_cont_global.reg_adjust--;
            }
            OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
        } else {
            /* A non-persistent continuation already had its round. */
            OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
            ompix_cont_op_detach(op);
        }

        /* Named for the call: the request's own start must not take it
         * for free of us (common_ompix_request.h). */
        mca_common_ompix_request_layer_enter(reqs[i]);
        rc = start(1, &reqs[i]);
        mca_common_ompix_request_layer_leave();
        if (!rearm) {
            if (OMPI_SUCCESS != rc) {
                return rc;
            }
            continue;
        }
        /* The start may have handed back a different request object. */
        OPAL_THREAD_LOCK(&ompix_cont_global.lock);
        op->req = reqs[i];
        ompix_cont_op_hook(op);
        OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        ompix_cont_op_arm(op);
    }
    return OMPI_SUCCESS;
}

static int ompix_cont_op_free_wrapper(ompi_request_t **rptr)
{
    ompi_request_free_fn_t free_fn;
    ompix_cont_op_t *op;

    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    op = ompix_cont_op_lookup(*rptr);
    if (NULL == op) {
        OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
        return OMPI_ERR_BAD_PARAM;
    }
    free_fn = op->orig_free;
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
    if (ompix_cont_is_request(*rptr)) {
        ompix_cont_request_t *creq = (ompix_cont_request_t *) *rptr;
        if (creq->delivering) {
            return free_fn(rptr);    /* error reporting, not a real free */
        }
        if (ompix_cont_request_busy(creq)) {
            return MPI_ERR_REQUEST;  /* stays valid, and keeps its continuation */
        }
    }

    ompix_cont_op_detach(op);
    return free_fn(rptr);
}

/* The state rules for one operation request, checked even without
 * parameter checking: breaking one would hook two continuations on one
 * request or leave a continuation nothing can ever complete. */
int ompix_cont_op_check_state(ompi_request_t *req, bool persistent_cont, const char **why)
{
    bool inactive, hooked;

    if (MPI_REQUEST_NULL == req) {
        return OMPI_SUCCESS;
    }
    /* 5.0: a parked channel shown as it is (active) until MPIX_Continue
     * returns (common_ompix_compat_request.h). */
    mca_common_ompix_request_show_hold(req);
    if (ompix_cont_op_complete_cb == req->req_complete_cb && !REQUEST_COMPLETE(req)) {
        *why = "an operation request already has a continuation";
        return MPI_ERR_REQUEST;
    }
    if (!req->req_persistent) {
        return OMPI_SUCCESS;
    }
    inactive = OMPI_REQUEST_INACTIVE == req->req_state;
    hooked = ompix_cont_op_start_wrapper == req->req_start;
    if (hooked && !inactive) {
        *why = "an active persistent operation request already has a continuation";
        return MPI_ERR_REQUEST;
    }
    if (inactive && !persistent_cont) {
        *why = "an inactive persistent operation request needs MPIX_CONT_PERSISTENT "
               "(there is nothing to wait for until it is started)";
        return MPI_ERR_REQUEST;
    }
    if (persistent_cont && ompix_cont_is_request(req)) {
        /* A continuation request is re-activated by registrations, never
         * by MPI_Start, so nothing would re-arm a persistent continuation. */
        *why = "a persistent continuation cannot wait for a continuation request";
        return MPI_ERR_REQUEST;
    }
    return OMPI_SUCCESS;
}

/* From the free list; more than OMPIX_CONT_INLINE_OPS ops are allocated. */
ompix_cont_t *ompix_cont_alloc_new(int count)
{
    opal_free_list_item_t *item = opal_free_list_get(&ompix_cont_global.conts);
    ompix_cont_t *cont = (ompix_cont_t *) item;

    if (NULL == cont) {
        return NULL;
    }
    cont->ops = cont->inline_ops;
    if (count > OMPIX_CONT_INLINE_OPS) {
        cont->ops = calloc((size_t) count, sizeof(*cont->ops));
        if (NULL == cont->ops) {
            opal_free_list_return(&ompix_cont_global.conts, item);
            return NULL;
        }
        for (int i = 0; i < count; ++i) {
            OBJ_CONSTRUCT(&cont->ops[i], ompix_cont_op_t);
            cont->ops[i].cont = cont;
        }
    }
    return cont;
}

/* Global lock held.  Takes a continuation that is no longer used off every
 * list and out of its continuation request's count; the caller then gives
 * it back with ompix_cont_release_free outside the lock. */
void ompix_cont_release_locked(ompix_cont_t *cont)
{
    for (int i = 0; i < cont->num_ops; ++i) {
        /* A done op can still be on the watch list when its completion
         * overtook the watch_add. */
        if (OMPIX_CONT_OP_DETACHED != cont->ops[i].state || cont->ops[i].watched) {
            ompix_cont_op_detach_locked(&cont->ops[i]);
        }
    }
    if (!cont->plain) {
        cont->creq->num_conts--;
    }
}

void ompix_cont_release(ompix_cont_t *cont)
{
    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    ompix_cont_release_locked(cont);
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
    ompix_cont_release_free(cont);
}

void ompix_cont_release_free(ompix_cont_t *cont)
{
    if (cont->ops != cont->inline_ops) {
        for (int i = 0; i < cont->num_ops; ++i) {
            OBJ_DESTRUCT(&cont->ops[i]);
        }
        free(cont->ops);
    }
    cont->ops = cont->inline_ops;
    opal_free_list_return(&ompix_cont_global.conts, &cont->super);
}

/* Runs a continuation inside the registering call (MPIX_CONT_IMMEDIATE). */
static void ompix_cont_run_now(ompix_cont_t *cont)
{
    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    cont->pending = 0;
    ompix_cont_fire_locked(cont);
    opal_list_remove_item(&cont->creq->ready, &cont->super.super);
    cont->queued = false;
    cont->runs_due--;
    cont->running = true;
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
    ompix_cont_run(cont);
}

int ompix_cont_register(ompix_cont_request_t *creq, int count,
                        ompi_request_t **reqs, MPIX_Continue_cb_function *cb,
                        void *cb_data, int flags, MPI_Status *statuses)
{
    bool persistent = 0 != (flags & MPIX_CONT_PERSISTENT);
    bool any_active = false;
    ompix_cont_t *cont = ompix_cont_alloc(creq, count, opal_using_threads());
    int n = 0;

    if (NULL == cont) {
        return MPI_ERR_NO_MEM;
    }
    ompix_cont_init(cont, creq, cb, cb_data, statuses, persistent, false);

    /* The guard (+1) keeps the continuation from firing while we attach. */
    for (int i = 0; i < count; ++i) {
        if (MPI_REQUEST_NULL != reqs[i]) {
            n++;
        } else if (NULL != statuses) {
            statuses[i] = ompi_status_empty;
        }
    }
    cont->num_ops = n;
    cont->pending = n + 1;

    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    creq->num_conts++;
    ompix_cont_global.reg_adjust++;     /* MPI_T (mpiext_continue_mpit.c) */
    n = 0;
    for (int i = 0; i < count; ++i) {
        ompix_cont_op_t *op, *prev;
        if (MPI_REQUEST_NULL == reqs[i]) {
            continue;
        }
        op = &cont->ops[n++];
        op->req = reqs[i];
        op->index = i;
        op->persistent = reqs[i]->req_persistent;
        op->hooked = op->watched = op->needs_run = false;
        op->chained_cb = NULL;
        op->chained_cb_data = NULL;
        op->state = OMPIX_CONT_OP_IDLE;
        if (op->persistent) {
            prev = ompix_cont_op_lookup(reqs[i]);
            if (NULL != prev) {
                /* Replacing the continuation of an inactive request. */
                OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
                ompix_cont_op_detach(prev);
                OPAL_THREAD_LOCK(&ompix_cont_global.lock);
            }
            ompix_cont_op_hook(op);
            cont->attached++;
            any_active |= OMPI_REQUEST_INACTIVE != reqs[i]->req_state;
        } else {
            any_active = true;
        }
    }
    if (any_active || !persistent) {
        cont->armed = true;
        ompix_cont_request_activate(creq);
        ompix_cont_global.reg_adjust--;
    }
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);

    for (int i = 0; i < n; ++i) {
        ompix_cont_op_t *op = &cont->ops[i];
        if (!op->persistent) {
            reqs[op->index] = MPI_REQUEST_NULL;
        } else if (OMPI_REQUEST_INACTIVE == op->req->req_state) {
            continue;            /* armed by its next MPI_Start */
        }
        ompix_cont_op_arm(op);
    }

    if (1 == cont->pending && (flags & MPIX_CONT_IMMEDIATE)
        && !creq->enqueue_complete && !creq->poll_only) {
        ompix_cont_run_now(cont);
        return OMPI_SUCCESS;
    }
    if (0 == OPAL_THREAD_ADD_FETCH32(&cont->pending, -1)) {
        ompix_cont_fire(cont);
    }
    return OMPI_SUCCESS;
}

static void ompix_cont_op_construct(ompix_cont_op_t *op)
{
    op->state = OMPIX_CONT_OP_DETACHED;
    op->hooked = op->watched = op->needs_run = false;
}

OBJ_CLASS_INSTANCE(ompix_cont_op_t, opal_list_item_t, ompix_cont_op_construct, NULL);

static void ompix_cont_construct(ompix_cont_t *cont)
{
    for (int i = 0; i < OMPIX_CONT_INLINE_OPS; ++i) {
        OBJ_CONSTRUCT(&cont->inline_ops[i], ompix_cont_op_t);
        cont->inline_ops[i].cont = cont;   /* for good: ops live in their continuation */
    }
    cont->ops = cont->inline_ops;
    cont->num_ops = 0;
}

static void ompix_cont_destruct(ompix_cont_t *cont)
{
    for (int i = 0; i < OMPIX_CONT_INLINE_OPS; ++i) {
        OBJ_DESTRUCT(&cont->inline_ops[i]);
    }
}

OBJ_CLASS_INSTANCE(ompix_cont_t, opal_free_list_item_t, ompix_cont_construct,
                   ompix_cont_destruct);
