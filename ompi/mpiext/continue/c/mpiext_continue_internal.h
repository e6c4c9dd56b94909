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
#include "opal/sys/atomic.h"
#include "opal/threads/mutex.h"
#include "ompi/info/info.h"
#include "ompi/request/request.h"
#include "ompi/runtime/mpiruntime.h"

#include "mpiext_continue_c.h"

BEGIN_C_DECLS

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
    int num_active;                /* registered and not yet run (global lock) */
    int num_conts;                 /* continuations alive, persistent ones included */
    bool completing;               /* completion in flight outside the lock */
    bool reactivate;               /* registered while completing: re-arm after */
    bool failed;                   /* an operation failed since activation */
    bool delivering;               /* its failure is being reported by Wait/Test */
    bool poll_only;
    bool enqueue_complete;
    bool any_thread;
    bool async_signal_safe;
    int max_poll;                  /* 0: unlimited */
};
OBJ_CLASS_DECLARATION(ompix_cont_request_t);

/* Process-wide state, created at the first MPIX_Continue_init. */
typedef struct ompix_cont_global_t {
    opal_mutex_t lock;
    opal_list_t creqs;             /* every live continuation request */
    opal_list_t watch;             /* ops whose completion callback may be missed */
    opal_hash_table_t persistent;  /* ompi_request_t* -> ompix_cont_op_t* for hooked ops */
    opal_free_list_t conts;
    volatile int32_t num_ready; /* continuations queued on any ready list */
    volatile int32_t num_watched;
    ompi_request_fns_t orig_fns;   /* Open MPI's test/wait functions we wrap */
    bool initialized;
} ompix_cont_global_t;

extern ompix_cont_global_t ompix_cont_global;

/* mpiext_continue_progress.c */
int ompix_cont_global_init(void);
int ompix_cont_drain(ompix_cont_request_t *creq, int max);
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
bool ompix_cont_is_request(const ompi_request_t *req);
bool ompix_cont_request_busy(ompix_cont_request_t *creq);
void ompix_cont_request_activate(ompix_cont_request_t *creq);
void ompix_cont_request_deactivate(ompix_cont_request_t *creq, bool failed);

/* mpiext_continue_check.c: argument checks of the MPIX_ entry points.
 * Each returns an MPI error class and sets *why; the entry point reports
 * it with ompix_cont_error(rc, FUNC_NAME, why).  Parameter checks: */
static inline int ompix_cont_check_args(MPIX_Continue_cb_function *cb, int flags,
                                        MPI_Request cont_req, const char **why)
{
    if (NULL == cb) {
        *why = "the callback is NULL";
        return MPI_ERR_ARG;
    }
    if (0 != (flags & ~(MPIX_CONT_IMMEDIATE | MPIX_CONT_PERSISTENT))) {
        *why = "unknown bits in flags (allowed: MPIX_CONT_IMMEDIATE, MPIX_CONT_PERSISTENT)";
        return MPI_ERR_ARG;
    }
    if (NULL == cont_req || MPI_REQUEST_NULL == cont_req || !ompix_cont_is_request(cont_req)) {
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
/* Both, in one pass over the operation requests (parameters if `params`): */
int ompix_cont_check_ops(int count, MPI_Request reqs[], MPI_Request cont_req, int flags,
                         bool params, const char **why);
int ompix_cont_error(int rc, const char *func_name, const char *why);

/* mpiext_continue_attach.c */
int ompix_cont_op_check_state(ompi_request_t *req, bool persistent_cont, const char **why);
int ompix_cont_register(ompix_cont_request_t *creq, int count,
                        ompi_request_t **reqs, MPIX_Continue_cb_function *cb,
                        void *cb_data, int flags, MPI_Status *statuses);
void ompix_cont_op_detach(ompix_cont_op_t *op);
void ompix_cont_op_settle(ompix_cont_op_t *op);
void ompix_cont_op_done(ompix_cont_op_t *op);
void ompix_cont_release(ompix_cont_t *cont);

END_C_DECLS

#endif /* MPIEXT_CONTINUE_INTERNAL_H */
