/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The continuation request: a persistent request that the user never starts.
 * Registering a continuation activates it; it completes when every
 * continuation registered with it has run.
 */

#include "ompi_config.h"

#include <sched.h>
#include <string.h>

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/mca/common/ompix/common_ompix_compat_info.h"

#include "mpiext_continue_internal.h"

static int ompix_cont_request_start(size_t count, ompi_request_t **reqs)
{
    (void) count;
    (void) reqs;
    /* Reached only from MPI_Startall with parameter checks off (the
     * request's type makes MPI_Start refuse it always and MPI_Startall
     * with checks on, see ompix_cont_request_create); MPI_Startall does not
     * report what req_start returns, so we do. */
    return mca_common_ompix_errhandler_startall(MPI_ERR_REQUEST,
                                                "MPI_Startall: a continuation request is "
                                                "started by registering a continuation, not by "
                                                "MPI_Start or MPI_Startall");
}

/* Cancelling a continuation request has no effect: MPI allows a cancel
 * that does not succeed, and the request then completes normally. */
int ompix_cont_request_cancel(ompi_request_t *req, int flag)
{
    (void) req;
    (void) flag;
    return OMPI_SUCCESS;
}

bool ompix_cont_request_busy(ompix_cont_request_t *creq)
{
    bool busy;

    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    busy = 0 != creq->num_active + creq->num_conts;
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
    return busy;
}

static int ompix_cont_request_free(ompi_request_t **rptr)
{
    ompix_cont_request_t *creq = (ompix_cont_request_t *) *rptr;
    int active;

    if (creq->delivering) {
        /* Called by Open MPI's error reporting, not by the user: keep the
         * request, whose failure has now been reported. */
        creq->delivering = false;
        creq->super.req_status.MPI_ERROR = MPI_SUCCESS;
        return OMPI_SUCCESS;
    }

    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    while (creq->completing) {
        /* Another thread is finishing this request's completion (the
         * user saw it complete a moment early); it still touches it. */
        OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
        sched_yield();
        OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    }
    active = creq->num_active + creq->num_conts;
    if (0 == active) {
        opal_list_remove_item(&ompix_cont_global.creqs, &creq->live);
    }
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);

    if (0 != active) {
        /* The request stays valid: the user can wait for it and free it. */
        return MPI_ERR_REQUEST;
    }
    if (NULL != creq->spare) {
        opal_free_list_return(&ompix_cont_global.conts, &creq->spare->super);
    }
    OMPI_REQUEST_FINI(&creq->super);
    OBJ_RELEASE(creq);
    *rptr = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static void ompix_cont_request_construct(ompix_cont_request_t *creq)
{
    OBJ_CONSTRUCT(&creq->live, opal_list_item_t);
    OBJ_CONSTRUCT(&creq->ready, opal_list_t);
    creq->num_active = 0;
    creq->num_conts = 0;
    creq->completing = false;
    creq->reactivate = false;
    creq->delivering = false;
    creq->failed = false;
    creq->spare = NULL;
    creq->first = NULL;
}

static void ompix_cont_request_destruct(ompix_cont_request_t *creq)
{
    OBJ_DESTRUCT(&creq->ready);
    OBJ_DESTRUCT(&creq->live);
}

OBJ_CLASS_INSTANCE(ompix_cont_request_t, ompi_request_t,
                   ompix_cont_request_construct, ompix_cont_request_destruct);

static bool ompix_cont_info_bool(ompi_info_t *info, const char *key)
{
    bool value = false;
    int flag = 0;

    if (NULL != info && &ompi_mpi_info_null.info != info) {
        ompi_info_get_bool(info, (char *) key, &value, &flag);
    }
    return flag && value;
}

static int ompix_cont_info_parse(ompi_info_t *info, ompix_cont_request_t *creq)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;

    creq->poll_only = ompix_cont_info_bool(info, MPIX_CONT_INFO_POLL_ONLY);
    creq->enqueue_complete = ompix_cont_info_bool(info, MPIX_CONT_INFO_ENQUEUE_COMPLETE);
    creq->async_signal_safe = ompix_cont_info_bool(info, MPIX_CONT_INFO_ASYNC_SIGNAL_SAFE);
    creq->any_thread = false;
    creq->max_poll = 0;
    if (NULL == info || &ompi_mpi_info_null.info == info) {
        return OMPI_SUCCESS;
    }

    mca_common_ompix_info_get(info, MPIX_CONT_INFO_THREAD, MPI_MAX_INFO_VAL, value, &flag);
    if (flag) {
        if (0 == strcmp(value, "any")) {
            creq->any_thread = true;
        } else if (0 != strcmp(value, "application")) {
            return MPI_ERR_INFO_VALUE;
        }
    }
    mca_common_ompix_info_get(info, MPIX_CONT_INFO_MAX_POLL, MPI_MAX_INFO_VAL, value, &flag);
    if (flag) {
        char *end = NULL;
        long n = strtol(value, &end, 10);
        if (end == value || '\0' != *end) {
            return MPI_ERR_INFO_VALUE;
        }
        /* Zero or negative (runtimes pass MPI_UNDEFINED) means unlimited. */
        creq->max_poll = (n > 0 && n < INT32_MAX) ? (int) n : 0;
    }
    return OMPI_SUCCESS;
}

int ompix_cont_request_create(ompi_info_t *info, ompix_cont_request_t **out)
{
    ompix_cont_request_t *creq = OBJ_NEW(ompix_cont_request_t);
    int rc;

    if (NULL == creq) {
        return MPI_ERR_NO_MEM;
    }
    rc = ompix_cont_info_parse(info, creq);
    if (OMPI_SUCCESS != rc) {
        OBJ_RELEASE(creq);
        return rc;
    }
    OMPI_REQUEST_INIT(&creq->super, true);
    /* Persistent, but of no kind MPI_Start and MPI_Startall start (they
     * accept PML, COLL and NOOP): both then refuse it with MPI_ERR_REQUEST
     * themselves.  MPI_Startall ignores what req_start returns, so with the
     * PML type it reported success.  Not PML also keeps debuggers' message
     * queue code (ompi_msgq_dll) from reading it as a PML request.  The
     * Test/Wait family and MPI_Request_free look at no type but GEN. */
    creq->super.req_type = OMPI_REQUEST_COMM;
    creq->super.req_start = ompix_cont_request_start;
    creq->super.req_free = ompix_cont_request_free;
    creq->super.req_cancel = ompix_cont_request_cancel;
    creq->super.req_mpi_object.comm = MPI_COMM_WORLD;
    creq->super.req_status = ompi_status_empty;

    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    opal_list_append(&ompix_cont_global.creqs, &creq->live);
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
    *out = creq;
    return OMPI_SUCCESS;
}

/* Outside the lock: completing may run the completion callback of a
 * continuation attached to this continuation request, which takes it. */
void ompix_cont_request_complete_slow(ompix_cont_request_t *creq)
{
    ompi_request_complete(&creq->super, true);
    if (!opal_using_threads()) {
        return;                 /* nobody could re-activate it meanwhile */
    }

    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    creq->completing = false;
    if (creq->reactivate) {
        creq->reactivate = false;
        ompix_cont_request_reset(creq);
    }
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
}
