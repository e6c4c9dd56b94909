/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Internal state of MPI continuations.  See docs/ARCHITECTURE.md for the
 * protocol and ../README-design.md for where each part lives; the comments
 * here explain why each field exists.
 */

#ifndef MPIEXT_CONTINUE_INTERNAL_H
#define MPIEXT_CONTINUE_INTERNAL_H

#include "ompi_config.h"

#include "mpi.h"
#include "opal/class/opal_free_list.h"
#include "opal/class/opal_hash_table.h"
#include "opal/class/opal_list.h"
#include "ompi/mca/common/ompix/common_ompix_compat_atomic.h"
#include "ompi/mca/common/ompix/common_ompix_compat_errhandler.h"
#include "ompi/mca/common/ompix/common_ompix_compat_request.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/mca/common/ompix/common_ompix_reqfn.h"
#include "ompi/info/info.h"
#include "ompi/request/grequest.h"
#include "ompi/request/request.h"
#include "ompi/runtime/mpiruntime.h"
#include "ompi/mca/common/ompix/common_ompix_request.h"

#include "mpiext_continue_c.h"

BEGIN_C_DECLS

/* Loops over the operation requests are unrolled where the count is known
 * (MPIX_Continue: one, MPIX_Continueall's common case: two). */
#if defined(__GNUC__) && !defined(__INTEL_COMPILER)
#define OMPIX_CONT_UNROLL _Pragma("GCC unroll 2")
#else
#define OMPIX_CONT_UNROLL
#endif

/* The global lock for callers that read opal_using_threads() once per MPI
 * call (it is fixed after MPI_Init): each OPAL_THREAD_LOCK would read it
 * again, behind every store the compiler cannot see through. */
#define OMPIX_CONT_LOCK_IF(threads)                         \
    do {                                                    \
        if (OPAL_UNLIKELY(threads)) {                       \
            opal_mutex_lock(&ompix_cont_global.lock);       \
        }                                                   \
    } while (0)
#define OMPIX_CONT_UNLOCK_IF(threads)                       \
    do {                                                    \
        if (OPAL_UNLIKELY(threads)) {                       \
            opal_mutex_unlock(&ompix_cont_global.lock);     \
        }                                                   \
    } while (0)

/* Operations tracked inline in a continuation; larger sets allocate. */
#define OMPIX_CONT_INLINE_OPS 4

/* Life of one operation inside a continuation.  Transitions happen with
 * compare-and-swap so that the completion callback, the registering thread
 * and the missed-callback watcher agree on exactly one completion. */
enum {
    OMPIX_CONT_OP_IDLE = 0,    /* attached persistent op, not started yet */
    OMPIX_CONT_OP_ARMED = 1,   /* waiting for the operation to complete */
    OMPIX_CONT_OP_DONE = 2,    /* completion accounted for in this round */
    OMPIX_CONT_OP_DETACHED = 3 /* freed, taken over, or moved to another continuation */
};

typedef struct ompix_cont_request_t ompix_cont_request_t;
typedef struct ompix_cont_t ompix_cont_t;

typedef struct ompix_cont_op_t {
    opal_list_item_t super;        /* membership in the missed-callback watch list */
    ompi_request_t *req;
    ompix_cont_t *cont;
    int index;                     /* position in the user's arrays */
    volatile int32_t state;
    bool persistent;
    bool hooked;                   /* our start/free wrappers are installed */
    bool watched;
    bool needs_run;                /* completed in a round whose callback is due */
    /* A completion callback some other layer installed before us (coll base
     * uses one to release retained datatypes); we chain to it. */
    ompi_request_complete_fn_t chained_cb;
    void *chained_cb_data;
    ompi_request_start_fn_t orig_start;
    ompi_request_free_fn_t orig_free;
} ompix_cont_op_t;
OBJ_CLASS_DECLARATION(ompix_cont_op_t);

struct ompix_cont_t {
    opal_free_list_item_t super;   /* free list item, then ready-list item */
    ompix_cont_request_t *creq;
    MPIX_Continue_cb_function *cb;
    void *cb_data;
    MPI_Status *statuses;          /* NULL when the user passed *_IGNORE */
    int num_ops;
    volatile int32_t pending;   /* ops still to complete in this round */
    volatile int32_t cbs_ran;   /* rounds whose callback already ran inline */
    /* Fields below are protected by the global lock. */
    int attached;                  /* persistent ops still attached */
    int runs_due;                  /* rounds completed but not yet run */
    bool persistent;
    /* No persistent operation and not MPIX_CONT_PERSISTENT: the common case
     * takes the lean paths (no hooks, one round, every op freed after it). */
    bool plain;
    /* These three stay false in a plain continuation: it is counted in
     * creq->num_active from its registration to its run, queued once, and
     * off its ready list before it runs. */
    bool armed;                    /* this round is counted in creq->num_active */
    bool queued;
    bool running;
    bool failed;                   /* an operation of this round failed */
    ompix_cont_op_t *ops;
    ompix_cont_op_t inline_ops[OMPIX_CONT_INLINE_OPS];
};
OBJ_CLASS_DECLARATION(ompix_cont_t);

struct ompix_cont_request_t {
    ompi_request_t super;
    opal_list_item_t live;         /* membership in the global list of cont requests */
    opal_list_t ready;             /* continuations ready to run (global lock) */
    /* A plain continuation ready to run ahead of everything on `ready`
     * (global lock): the common case of one at a time skips the list. */
    ompix_cont_t *first;
    int num_active;                /* registered and not yet run (global lock) */
    /* Continuations alive other than plain ones (a plain one is counted in
     * num_active from its registration to its release, under one lock). */
    int num_conts;
    bool completing;               /* completion in flight outside the lock */
    bool reactivate;               /* registered while completing: re-arm after */
    bool failed;                   /* an operation failed since activation */
    bool delivering;               /* its failure is being reported by Wait/Test */
    bool poll_only;
    bool enqueue_complete;
    bool any_thread;
    bool async_signal_safe;
    int max_poll;                  /* 0: unlimited */
    /* The last continuation released, kept for the next registration
     * (taken with an atomic swap, put back under the global lock). */
    ompix_cont_t *volatile spare;
};
OBJ_CLASS_DECLARATION(ompix_cont_request_t);

/* Process-wide state, created at the first MPIX_Continue_init. */
typedef struct ompix_cont_global_t {
    opal_mutex_t lock;
    opal_list_t creqs;             /* every live continuation request */
    opal_list_t watch;             /* ops whose completion callback may be missed */
    opal_hash_table_t persistent;  /* ompi_request_t* -> ompix_cont_op_t* for hooked ops */
    opal_free_list_t conts;
    /* Written under the lock only (no atomics needed); read without it as
     * a hint by the progress callback (num_queued and num_run through
     * volatile reads, ompix_cont_any_ready).  num_queued: rounds ever queued to
     * run (ompix_cont_fire_locked, ompix_cont_queue_plain_locked); with
     * num_run, the rounds run to their end, it says whether any is ready
     * (ompix_cont_any_ready): one count kept per run instead of two. */
    uint64_t num_queued;
    volatile int32_t num_watched;
    mca_common_ompix_reqfn_layer_t reqfn; /* our test/wait layer (mpiext_continue_wait.c) */
    /* MPI_T's continue_run and, derived from it, continue_registered
     * (mpiext_continue_mpit.c), written under the lock.  num_run: runs,
     * counted beside the deactivation of the continuation request each
     * run makes anyway; the same add retires the run from num_queued's
     * ready rounds, so the count costs nothing.  reg_adjust:
     * registrations on the general path minus its activations (re-arms
     * included; both off the lean path), as every activation of the lean
     * path is a registration. */
    uint64_t num_run;
    int64_t reg_adjust;
    bool initialized;
} ompix_cont_global_t;

/* Hidden: only libompix uses it, and hidden data is addressed directly
 * rather than through the GOT. */
extern ompix_cont_global_t ompix_cont_global __attribute__((visibility("hidden")));

/* Whether a continuation round is queued or running (a hint without the
 * lock): a round leaves the count when its run ends, not when it is taken
 * off its ready list, so that one add (num_run's) serves both.  The
 * progress callback that reads it while a round runs finds nothing to
 * take and stops. */
static inline bool ompix_cont_any_ready(void)
{
    return *(volatile uint64_t *) &ompix_cont_global.num_queued
           != *(volatile uint64_t *) &ompix_cont_global.num_run;
}

/* mpiext_continue_progress.c */
int ompix_cont_global_init(void);
/* mpiext_continue_mpit.c: MPI_T's continue_registered and continue_run,
 * registered at the first MPIX_Continue_init. */
void ompix_cont_mpit_register(void);
int ompix_cont_drain(ompix_cont_request_t *creq, int max);
/* mpiext_continue_progress.c: runs a plain continuation that
 * MPIX_CONT_IMMEDIATE lets its registration run at once (never queued). */
void ompix_cont_run_immediate(ompix_cont_t *cont);
/* Whether creq has ready continuations; without the lock it is a hint (a
 * continuation queued meanwhile waits for the next look). */
static inline bool ompix_cont_has_ready(ompix_cont_request_t *creq)
{
    return NULL != creq->first || !opal_list_is_empty(&creq->ready);
}
/* Runs up to max (0: all) ready continuations of creq; a look without the
 * lock first. */
static inline int ompix_cont_drain_ready(ompix_cont_request_t *creq, int max)
{
    return ompix_cont_has_ready(creq) ? ompix_cont_drain(creq, max) : 0;
}
void ompix_cont_run(ompix_cont_t *cont);
void ompix_cont_watch_add(ompix_cont_op_t *op);
void ompix_cont_watch_remove(ompix_cont_op_t *op);

/* mpiext_continue_wait.c: Open MPI's test/wait functions, wrapped so that
 * polling a continuation request runs its continuations. */
/* Thread-local state is read on every Test/Wait and progress call: the
 * initial-exec model avoids a __tls_get_addr call each time (these few
 * bytes always fit the static TLS reserve, even when dlopen'ed). */
#define OMPIX_CONT_TLS __thread __attribute__((tls_model("initial-exec")))

extern OMPIX_CONT_TLS ompix_cont_request_t *ompix_cont_polled;
void ompix_cont_wait_install(void);
void ompix_cont_wait_uninstall(void);

/* mpiext_continue_request.c */
int ompix_cont_request_create(ompi_info_t *info, ompix_cont_request_t **creq);
int ompix_cont_request_cancel(ompi_request_t *req, int flag);
bool ompix_cont_request_busy(ompix_cont_request_t *creq);
void ompix_cont_request_complete_slow(ompix_cont_request_t *creq);

/* Outside the lock.  Single-threaded, with nothing attached to the request
 * and nobody waiting on a sync object, completing it is one store;
 * everything else goes through ompi_request_complete. */
static inline void ompix_cont_request_complete(ompix_cont_request_t *creq, bool threads)
{
    if (OPAL_LIKELY(!threads && NULL == creq->super.req_complete_cb
                    && REQUEST_PENDING == creq->super.req_complete)) {
        creq->super.req_complete = REQUEST_COMPLETED;
        return;
    }
    ompix_cont_request_complete_slow(creq);
}

/* Activation and completion run once per continuation: inline. */
static inline void ompix_cont_request_reset(ompix_cont_request_t *creq)
{
    creq->failed = false;
    /* Only MPI_ERROR of its status ever changes (the rest stays
     * ompi_status_empty from creation: nothing else writes it). */
    creq->super.req_status.MPI_ERROR = MPI_SUCCESS;
    creq->super.req_complete = REQUEST_PENDING;
    opal_atomic_wmb();
    creq->super.req_state = OMPI_REQUEST_ACTIVE;
}

/* Called with the global lock held when a continuation is registered or a
 * persistent continuation is re-armed by MPI_Start. */
static inline void ompix_cont_request_activate(ompix_cont_request_t *creq)
{
    if (0 != creq->num_active++) {
        return;
    }
    if (OPAL_UNLIKELY(creq->completing)) {
        /* The previous activation is being completed outside the lock on
         * another thread; it re-arms the request when it is done.  Waiting
         * here would deadlock if that completion runs a continuation. */
        creq->reactivate = true;
        return;
    }
    ompix_cont_request_reset(creq);
}

/* Called with the global lock held after a continuation has run.  Returns
 * true when this was the last one: the caller then completes the request
 * with ompix_cont_request_complete, outside the lock. */
static inline bool ompix_cont_request_deactivate_locked(ompix_cont_request_t *creq, bool failed,
                                                       bool threads)
{
    ompix_cont_global.num_run++;
    failed |= creq->failed;
    creq->failed = failed;
    if (0 != --creq->num_active) {
        return false;
    }
    if (OPAL_UNLIKELY(creq->completing)) {
        /* Re-activated and done again while another thread is still
         * completing the previous round: that completion covers both. */
        creq->reactivate = false;
        if (creq->failed) {
            creq->super.req_status.MPI_ERROR = MPI_ERR_IN_STATUS;
        }
        return false;
    }
    /* Only another thread can see the request between here and
     * ompix_cont_request_complete. */
    creq->completing = threads;
    creq->super.req_status.MPI_ERROR = failed ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
    return true;
}

/* A released continuation with inline ops is kept as its request's spare
 * for the next registration: taken with an atomic swap, put back under
 * the global lock (the continuation request cannot be freed meanwhile). */
static inline ompix_cont_t *ompix_cont_spare_take(ompix_cont_request_t *creq, bool threads)
{
    ompix_cont_t *cont = creq->spare;

    if (NULL == cont) {
        return NULL;
    }
    if (!threads) {
        creq->spare = NULL;
        return cont;
    }
    return (ompix_cont_t *) mca_common_ompix_atomic_swap_ptr((void *volatile *) &creq->spare, NULL);
}

/* Global lock held.  False if the caller must give `cont` back to the free
 * list. */
static inline bool ompix_cont_spare_put_locked(ompix_cont_request_t *creq, ompix_cont_t *cont)
{
    if (NULL != creq->spare || cont->ops != cont->inline_ops) {
        return false;
    }
    opal_atomic_wmb();
    creq->spare = cont;
    return true;
}

/* Continuation requests are recognized by their cancel function, on every
 * Test/Wait and registration: inline. */
static inline bool ompix_cont_is_request(const ompi_request_t *req)
{
    return ompix_cont_request_cancel == req->req_cancel;
}

/* mpiext_continue_attach.c (declared here for the inline checks below) */
int ompix_cont_op_complete_cb(ompi_request_t *req);
int ompix_cont_op_check_state(ompi_request_t *req, bool persistent_cont, const char **why);

/* mpiext_continue_check.c: argument checks of the MPIX_ entry points.
 * Each returns an MPI error class and sets *why; the entry point reports
 * it with ompix_cont_error(rc, FUNC_NAME, why).  Parameter checks: */
static inline int ompix_cont_check_args(MPIX_Continue_cb_function *cb, int flags,
                                        MPI_Request cont_req, const char **why)
{
    if (OPAL_UNLIKELY(NULL == cb)) {
        *why = "the callback is NULL";
        return MPI_ERR_ARG;
    }
    if (OPAL_UNLIKELY(0 != (flags & ~(MPIX_CONT_IMMEDIATE | MPIX_CONT_PERSISTENT)))) {
        *why = "unknown bits in flags (allowed: MPIX_CONT_IMMEDIATE, MPIX_CONT_PERSISTENT)";
        return MPI_ERR_ARG;
    }
    /* MPI_REQUEST_NULL fails the cancel-function test too. */
    if (OPAL_UNLIKELY(NULL == cont_req || !ompix_cont_is_request(cont_req))) {
        *why = "cont_req is not a continuation request (create one with MPIX_Continue_init)";
        return MPI_ERR_REQUEST;
    }
    return MPI_SUCCESS;
}
/* State rules, checked even when MPI_PARAM_CHECK is off.  The process-wide
 * state and the request engine exist only between MPI_Init and
 * MPI_Finalize: */
static inline int ompix_cont_check_mpi_state(const char **why)
{
    if (OPAL_UNLIKELY(OMPI_MPI_STATE_INIT_COMPLETED != ompi_mpi_state)) {
        *why = "MPI is not initialized";
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

/* One operation request: its parameter checks when `params`, its state
 * rules always.  A persistent request clears *plain (the continuation then
 * needs the persistent machinery) and has its rules checked out of line. */
static inline int ompix_cont_check_op(MPI_Request req, MPI_Request cont_req, bool persistent_cont,
                                      bool params, bool *plain, const char **why)
{
    if (params && OPAL_UNLIKELY(NULL == req)) {
        *why = "an operation request is not a valid handle";
        return MPI_ERR_REQUEST;
    }
    if (MPI_REQUEST_NULL == req) {
        return MPI_SUCCESS;
    }
    if (OPAL_UNLIKELY(ompix_cont_op_complete_cb == req->req_complete_cb
                      && !REQUEST_COMPLETE(req))) {
        *why = "an operation request already has a continuation";
        return MPI_ERR_REQUEST;
    }
    if (req->req_persistent) {
        /* Continuation requests are persistent: the check is only needed
         * here. */
        if (params && OPAL_UNLIKELY(cont_req == req)) {
            *why = "the continuation request cannot be one of its own operations";
            return MPI_ERR_REQUEST;
        }
        *plain = false;
        return ompix_cont_op_check_state(req, persistent_cont, why);
    }
    return MPI_SUCCESS;
}

int ompix_cont_check_duplicates(int count, MPI_Request reqs[], const char **why);
bool ompix_cont_shared_static(MPI_Request req);

/* Every operation request in one pass; *plain as for ompix_cont_check_op,
 * also cleared by MPIX_CONT_PERSISTENT.  Two requests are compared inline,
 * longer arrays checked for duplicates out of line. */
static inline int ompix_cont_check_ops(int count, MPI_Request reqs[], MPI_Request cont_req,
                                       int flags, bool params, bool *plain, const char **why)
{
    bool persistent_cont = 0 != (flags & MPIX_CONT_PERSISTENT);
    int rc;

    *plain = !persistent_cont;
    OMPIX_CONT_UNROLL
    for (int i = 0; i < count; ++i) {
        rc = ompix_cont_check_op(reqs[i], cont_req, persistent_cont, params, plain, why);
        if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
            return rc;
        }
    }
    if (!params || count < 2) {
        return MPI_SUCCESS;
    }
    if (2 == count) {
        /* Open MPI's shared complete requests may repeat. */
        if (OPAL_UNLIKELY(reqs[0] == reqs[1] && MPI_REQUEST_NULL != reqs[0]
                          && !ompix_cont_shared_static(reqs[0]))) {
            *why = "the same request appears twice in the operation requests";
            return MPI_ERR_REQUEST;
        }
        return MPI_SUCCESS;
    }
    return ompix_cont_check_duplicates(count, reqs, why);
}
int ompix_cont_error(int rc, const char *func_name, const char *why);

/* mpiext_continue_attach.c */
int ompix_cont_register(ompix_cont_request_t *creq, int count,
                        ompi_request_t **reqs, MPIX_Continue_cb_function *cb,
                        void *cb_data, int flags, MPI_Status *statuses);
void ompix_cont_op_detach(ompix_cont_op_t *op);
void ompix_cont_op_settle(ompix_cont_op_t *op);
void ompix_cont_op_done(ompix_cont_op_t *op);
bool ompix_cont_op_claim_locked(ompix_cont_op_t *op);
void ompix_cont_op_account(ompix_cont_op_t *op);
void ompix_cont_release(ompix_cont_t *cont);
void ompix_cont_release_locked(ompix_cont_t *cont);
void ompix_cont_release_free(ompix_cont_t *cont);

/* The registration of a plain continuation (no persistent request, no
 * MPIX_CONT_PERSISTENT), inline in MPIX_Continue and MPIX_Continueall so
 * that one and two requests take no further call. */
void ompix_cont_op_install(ompix_cont_op_t *op);
ompix_cont_t *ompix_cont_alloc_new(int count);

/* The continuation request's spare if it has one and it fits. */
static inline ompix_cont_t *ompix_cont_alloc(ompix_cont_request_t *creq, int count, bool threads)
{
    ompix_cont_t *cont = NULL;

    if (OPAL_LIKELY(count <= OMPIX_CONT_INLINE_OPS)) {
        cont = ompix_cont_spare_take(creq, threads);
    }
    return OPAL_LIKELY(NULL != cont) ? cont : ompix_cont_alloc_new(count);
}

/* Keeps the status and the failure of a completed operation. */
static inline void ompix_cont_op_record(ompix_cont_t *cont, ompix_cont_op_t *op,
                                        ompi_request_t *req)
{
    /* Generalized requests get their status from the query function, which
     * runs at the top level before the callback (see ompix_cont_run). */
    if (OMPI_REQUEST_GEN != req->req_type) {
        if (NULL != cont->statuses) {
            cont->statuses[op->index] = req->req_status;
        }
        if (OPAL_UNLIKELY(MPI_SUCCESS != req->req_status.MPI_ERROR)) {
            cont->failed = true;
        }
    }
}

/* Global lock held.  Queues a plain continuation whose round is complete:
 * it has one round, runs every op, and is not queued yet.  In the request's
 * `first` slot when nothing else is ready (order is kept: the slot is
 * taken first, and filled only while the list is empty). */
static inline void ompix_cont_queue_plain_locked(ompix_cont_t *cont)
{
    ompix_cont_request_t *creq = cont->creq;

    ompix_cont_global.num_queued++;
    if (OPAL_LIKELY(NULL == creq->first && opal_list_is_empty(&creq->ready))) {
        creq->first = cont;
        return;
    }
    cont->runs_due = 1;
    opal_list_append(&creq->ready, &cont->super.super);
}

/* A continuation's state at registration (both registration paths). */
static inline void ompix_cont_init(ompix_cont_t *cont, ompix_cont_request_t *creq,
                                   MPIX_Continue_cb_function *cb, void *cb_data,
                                   MPI_Status *statuses, bool persistent, bool plain)
{
    cont->creq = creq;
    cont->cb = cb;
    cont->cb_data = cb_data;
    cont->statuses = statuses;
    cont->persistent = persistent;
    cont->plain = plain;
    cont->attached = 0;
    cont->runs_due = 0;
    cont->cbs_ran = 0;
    cont->armed = cont->queued = cont->running = cont->failed = false;
}

/* Registration without persistent requests or MPIX_CONT_PERSISTENT, in one
 * pass over the requests: each is taken over and either recorded and freed
 * (complete already: nobody else can see it, no atomics; a generalized one
 * is kept for its query) or armed.  The
 * guard in `pending` keeps the continuation from firing before the
 * continuation request counts it; the guard, the null requests and every
 * op found done are dropped together at the end. */
static inline __opal_attribute_always_inline__ int
ompix_cont_register_plain(ompix_cont_request_t *creq, int count, ompi_request_t **reqs,
                          MPIX_Continue_cb_function *cb, void *cb_data, int flags,
                          MPI_Status *statuses)
{
    bool threads = opal_using_threads();
    ompix_cont_t *cont = ompix_cont_alloc(creq, count, threads);
    ompix_cont_op_t *ops;
    /* Requests found done are freed after the pass, where less is live
     * across the calls (the first two; any more at once). */
    ompi_request_t *done[2];
    int n = 0, drop = 1, ndone = 0;
    bool run_now = false;

    if (OPAL_UNLIKELY(NULL == cont)) {
        return MPI_ERR_NO_MEM;
    }
    ops = cont->ops;
    ompix_cont_init(cont, creq, cb, cb_data, statuses, false, true);
    cont->pending = count + 1;

    OMPIX_CONT_UNROLL
    for (int i = 0; i < count; ++i) {
        ompi_request_t *req = reqs[i];
        ompix_cont_op_t *op = &ops[n];

        if (OPAL_UNLIKELY(MPI_REQUEST_NULL == req)) {
            if (NULL != statuses) {
                statuses[i] = ompi_status_empty;
            }
            drop++;
            continue;
        }
        reqs[i] = MPI_REQUEST_NULL;
        if (REQUEST_COMPLETE(req) && OPAL_LIKELY(OMPI_REQUEST_GEN != req->req_type)) {
            /* Done: its status now, and it is freed here rather than by the
             * run (as MPI_Wait would), so the continuation does not track
             * it.  Nothing was installed: shared static requests
             * (MPI_PROC_NULL) must never carry our callback. */
            if (NULL != statuses) {
                statuses[i] = req->req_status;
            }
            if (OPAL_UNLIKELY(MPI_SUCCESS != req->req_status.MPI_ERROR)) {
                cont->failed = true;
            }
            opal_atomic_rmb();   /* marked complete: ours to free */
            drop++;
            if (OPAL_LIKELY(ndone < 2)) {
                done[ndone++] = req;
            } else {
                ompi_request_free(&req);
            }
            continue;
        }
        n++;
        /* Released ops are neither hooked nor watched, and a plain
         * continuation never reads `persistent`. */
        op->req = req;
        op->index = i;
        if (REQUEST_COMPLETE(req)) {
            /* A generalized request: its query runs at the top level
             * before the callback (ompix_cont_run_plain_ops). */
            op->state = OMPIX_CONT_OP_DONE;
            drop++;
        } else {
            op->state = OMPIX_CONT_OP_ARMED;
            ompix_cont_op_install(op);
        }
    }
    cont->num_ops = n;
    /* Before the continuation can run. */
    for (int k = 0; k < ndone; ++k) {
        ompi_request_free(&done[k]);
    }

    OMPIX_CONT_LOCK_IF(threads);
    ompix_cont_request_activate(creq);
    /* With no op armed nobody else sees `pending`. */
    if (count + 1 == drop ? (cont->pending = 0, true)
                          : 0 == (threads ? opal_atomic_add_fetch_32(&cont->pending, -drop)
                                         : (cont->pending -= drop))) {
        if ((flags & MPIX_CONT_IMMEDIATE) && !creq->enqueue_complete && !creq->poll_only) {
            /* Run here: never queued, so nobody else can take it. */
            run_now = true;
        } else {
            ompix_cont_queue_plain_locked(cont);
        }
    }
    OMPIX_CONT_UNLOCK_IF(threads);
    if (run_now) {
        ompix_cont_run_immediate(cont);
    }
    return OMPI_SUCCESS;
}

/* Running continuations (mpiext_continue_progress.c), inline for the
 * Test/Wait path. */

/* The ops of a plain continuation: all done, none persistent, all freed. */
static inline bool ompix_cont_run_plain_ops(ompix_cont_t *cont, bool threads)
{
    bool failed = cont->failed;
    ompix_cont_op_t *op = cont->ops;
    int num_ops = cont->num_ops;

    for (int i = 0; i < num_ops; ++i, ++op) {
        ompi_request_t *req = op->req;

        if (OPAL_UNLIKELY(threads)) {
            mca_common_ompix_request_wait_marked(req);
        }
        if (OPAL_UNLIKELY(OMPI_REQUEST_GEN == req->req_type)) {
            ompi_grequest_invoke_query(req, &req->req_status);
            if (NULL != cont->statuses) {
                cont->statuses[op->index] = req->req_status;
            }
            failed |= MPI_SUCCESS != req->req_status.MPI_ERROR;
        }
        op->state = OMPIX_CONT_OP_DETACHED;
        ompi_request_free(&req);
    }
    cont->failed = false;
    return failed;
}

static inline void ompix_cont_callback(ompix_cont_t *cont)
{
    if (OPAL_UNLIKELY(0 < cont->cbs_ran)) {
        /* Ran already, in the completion path (async-signal-safe). */
        OPAL_THREAD_ADD_FETCH32(&cont->cbs_ran, -1);
    } else {
        cont->cb(cont->statuses, cont->cb_data);
    }
}

/* A plain continuation has one round: after it, the continuation is
 * released and counted out of its continuation request under one lock, and
 * it goes back (as the request's spare, or to the free list) before the
 * request completes: a thread woken by that completion may free it at
 * once. */
static inline __opal_attribute_always_inline__ void
ompix_cont_run_plain_as(ompix_cont_t *cont, bool threads, bool immediate)
{
    ompix_cont_request_t *creq = cont->creq;
    bool failed = ompix_cont_run_plain_ops(cont, threads);
    bool complete, kept;

    ompix_cont_callback(cont);

    OMPIX_CONT_LOCK_IF(threads);
    if (OPAL_UNLIKELY(threads)) {
        ompix_cont_release_locked(cont);     /* an op may still be watched */
    }
    kept = ompix_cont_spare_put_locked(creq, cont);
    if (immediate) {
        /* Never queued: counted as queued here, so that the run's end in
         * num_run leaves ompix_cont_any_ready as it was. */
        ompix_cont_global.num_queued++;
    }
    complete = ompix_cont_request_deactivate_locked(creq, failed, threads);
    OMPIX_CONT_UNLOCK_IF(threads);
    if (!kept) {
        ompix_cont_release_free(cont);
    }
    if (complete) {
        ompix_cont_request_complete(creq, threads);
    }
}

static inline __opal_attribute_always_inline__ void ompix_cont_run_plain(ompix_cont_t *cont,
                                                                        bool threads)
{
    ompix_cont_run_plain_as(cont, threads, false);
}

/* Global lock held.  Takes the first continuation of creq that is not
 * already running on another thread. */
/* Global lock held.  Takes the continuation in creq's `first` slot, if
 * any: a plain one, so one round, and nobody else can be running it. */
static inline ompix_cont_t *ompix_cont_pop_first_locked(ompix_cont_request_t *creq)
{
    ompix_cont_t *cont = creq->first;

    if (OPAL_LIKELY(NULL != cont)) {
        creq->first = NULL;
    }
    return cont;
}

static inline ompix_cont_t *ompix_cont_pop_locked(ompix_cont_request_t *creq)
{
    ompix_cont_t *cont = ompix_cont_pop_first_locked(creq);

    if (OPAL_LIKELY(NULL != cont)) {
        return cont;
    }
    OPAL_LIST_FOREACH(cont, &creq->ready, ompix_cont_t) {
        if (OPAL_UNLIKELY(cont->running)) {
            continue;
        }
        if (0 == --cont->runs_due) {
            opal_list_remove_item(&creq->ready, &cont->super.super);
            cont->queued = false;
        }
        /* A plain one leaves the list here, so needs no mark. */
        cont->running = !cont->plain;
        return cont;
    }
    return NULL;
}

/* The loop of ompix_cont_drain, inline in Test/Wait on a continuation
 * request, where it runs once per completed continuation. */
static inline __opal_attribute_always_inline__ int
ompix_cont_drain_inline(ompix_cont_request_t *creq, int max)
{
    bool threads;
    int n = 0;

    if (!ompix_cont_has_ready(creq)) {
        return 0;
    }
    threads = opal_using_threads();
    /* max is 0 (unlimited) or at least 1: the first run is always allowed. */
    do {
        ompix_cont_t *cont;

        OMPIX_CONT_LOCK_IF(threads);
        cont = ompix_cont_pop_first_locked(creq);
        if (OPAL_LIKELY(NULL != cont)) {
            OMPIX_CONT_UNLOCK_IF(threads);
            ompix_cont_run_plain(cont, threads);
        } else {
            /* The list: out of line (ompix_cont_run runs either kind). */
            cont = ompix_cont_pop_locked(creq);
            OMPIX_CONT_UNLOCK_IF(threads);
            if (NULL == cont) {
                break;
            }
            ompix_cont_run(cont);
        }
        n++;
    } while (ompix_cont_has_ready(creq) && (max <= 0 || n < max));
    return n;
}

END_C_DECLS

#endif /* MPIEXT_CONTINUE_INTERNAL_H */
