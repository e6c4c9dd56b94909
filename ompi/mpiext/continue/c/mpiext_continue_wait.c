/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Testing and waiting on continuation requests.
 *
 * MPI_Test and friends reach Open MPI's request functions through the
 * ompi_request_functions table.  We wrap its entries (one layer of
 * common_ompix_reqfn.h): calls that involve no
 * continuation request go straight to the original; calls that do first run
 * that request's ready continuations (this is the only place where
 * poll-only continuations run, and where max_poll applies), and waits turn
 * into test loops so that they keep running them.
 */

#include "ompi_config.h"

#include "mpiext_continue_internal.h"

/* The continuation request this thread is polling: the progress callback
 * leaves its continuations to the poller, which counts them for max_poll. */
OMPIX_CONT_TLS ompix_cont_request_t *ompix_cont_polled = NULL;

/* What our wrappers call: the request functions below our layer. */
#define OMPIX_CONT_ORIG (ompix_cont_global.reqfn.below)

/* Open MPI 4.1's MPI_Wait/MPI_Test free every request whose status carries
 * an error right after returning it (ompi_errhandler_request_invoke), even
 * persistent ones.  A continuation request that reports a failed operation
 * must survive that: mark it, and its free function then only clears the
 * error (see ompix_cont_request_free). */
static void ompix_cont_mark_delivery(size_t count, ompi_request_t **reqs)
{
    for (size_t i = 0; i < count; ++i) {
        if (ompix_cont_is_request(reqs[i]) && MPI_SUCCESS != reqs[i]->req_status.MPI_ERROR
            && OMPI_REQUEST_INACTIVE == reqs[i]->req_state) {
            ((ompix_cont_request_t *) reqs[i])->delivering = true;
        }
    }
}

/* A continuation request that just completed because an operation failed.
 * Open MPI's any/some/all forms make a completed persistent request inactive
 * without looking at its error, so we report it ourselves; delivery clears
 * the error (see ompix_cont_request_free), so each failure is reported once. */
static bool ompix_cont_failed_done(ompi_request_t *req)
{
    return MPI_REQUEST_NULL != req && ompix_cont_is_request(req)
        && OMPI_REQUEST_INACTIVE == req->req_state
        && MPI_ERR_IN_STATUS == req->req_status.MPI_ERROR;
}

/* MPI_ERR_IN_STATUS if one of the n requests reqs[idx[k]] (reqs[k] when
 * idx is NULL) is a continuation request that just completed with a
 * failure; its status statuses[k] then says so too. */
static int ompix_cont_report_failed(size_t n, ompi_request_t **reqs, const int *idx,
                                    ompi_status_public_t *statuses)
{
    int rc = OMPI_SUCCESS;

    for (size_t k = 0; k < n; ++k) {
        if (ompix_cont_failed_done(reqs[NULL == idx ? k : (size_t) idx[k]])) {
            rc = MPI_ERR_IN_STATUS;
            if (MPI_STATUSES_IGNORE != statuses) {
                statuses[k].MPI_ERROR = MPI_ERR_IN_STATUS;
            }
        }
    }
    return rc;
}

static bool ompix_cont_any_request(size_t count, ompi_request_t **reqs)
{
    for (size_t i = 0; i < count; ++i) {
        if (ompix_cont_is_request(reqs[i])) {
            return true;
        }
    }
    return false;
}

static void ompix_cont_drain_all(size_t count, ompi_request_t **reqs)
{
    for (size_t i = 0; i < count; ++i) {
        if (ompix_cont_is_request(reqs[i])) {
            ompix_cont_request_t *creq = (ompix_cont_request_t *) reqs[i];
            ompix_cont_drain_ready(creq, creq->max_poll);
        }
    }
}

/* Open MPI's test of a persistent request that is inactive or complete
 * (ompi_request_default_test), without its call and full barrier: the
 * continuation request usually is complete once its continuations ran.
 * False when the request is still pending. */
static inline bool ompix_cont_test_finished(ompi_request_t *req, int *completed,
                                            ompi_status_public_t *status, int *rc)
{
    if (OMPI_REQUEST_INACTIVE == req->req_state) {
        *completed = true;
        if (MPI_STATUS_IGNORE != status) {
            OMPI_COPY_STATUS(status, ompi_status_empty, false);
        }
        *rc = OMPI_SUCCESS;
        return true;
    }
    if (!REQUEST_COMPLETE(req)) {
        return false;
    }
    opal_atomic_rmb();
    *completed = true;
    if (MPI_STATUS_IGNORE != status) {
        OMPI_COPY_STATUS(status, req->req_status, false);
    }
    req->req_state = OMPI_REQUEST_INACTIVE;
    *rc = req->req_status.MPI_ERROR;
    return true;
}

/* MPI_Test on one continuation request. */
static inline __opal_attribute_always_inline__ int
ompix_cont_test_one(ompi_request_t **rptr, int *completed, ompi_status_public_t *status)
{
    ompix_cont_request_t *creq = (ompix_cont_request_t *) *rptr;
    ompix_cont_request_t *prev = ompix_cont_polled;
    int rc, ran;

    ompix_cont_polled = creq;
    ran = ompix_cont_drain_inline(creq, creq->max_poll);
    if (!ompix_cont_test_finished(*rptr, completed, status, &rc)) {
        /* Open MPI's test, for the progress call it makes. */
        rc = OMPIX_CONT_ORIG.req_test(rptr, completed, status);
    }
    if (!*completed && (creq->max_poll <= 0 || ran < creq->max_poll)
        && ompix_cont_has_ready(creq)) {
        /* The progress inside that test made continuations ready: run
         * them now rather than one MPI_Test later. */
        ompix_cont_drain(creq, creq->max_poll <= 0 ? 0 : creq->max_poll - ran);
        rc = OMPIX_CONT_ORIG.req_test(rptr, completed, status);
    }
    ompix_cont_polled = prev;
    if (OPAL_UNLIKELY(OMPI_SUCCESS != rc)) {
        ompix_cont_mark_delivery(1, rptr);
    }
    return rc;
}

static int ompix_cont_test(ompi_request_t **rptr, int *completed, ompi_status_public_t *status)
{
    if (!ompix_cont_is_request(*rptr)) {
        return OMPIX_CONT_ORIG.req_test(rptr, completed, status);
    }
    return ompix_cont_test_one(rptr, completed, status);
}

static int ompix_cont_test_any(size_t count, ompi_request_t **reqs, int *index,
                               int *completed, ompi_status_public_t *status)
{
    int rc;

    if (!ompix_cont_any_request(count, reqs)) {
        return OMPIX_CONT_ORIG.req_test_any(count, reqs, index, completed, status);
    }
    ompix_cont_drain_all(count, reqs);
    rc = OMPIX_CONT_ORIG.req_test_any(count, reqs, index, completed, status);
    if (OMPI_SUCCESS == rc && *completed && MPI_UNDEFINED != *index) {
        rc = ompix_cont_report_failed(1, reqs, index, status);
    }
    if (OMPI_SUCCESS != rc) {
        ompix_cont_mark_delivery(count, reqs);
    }
    return rc;
}

static int ompix_cont_test_all(size_t count, ompi_request_t **reqs, int *completed,
                               ompi_status_public_t *statuses)
{
    int rc;

    if (!ompix_cont_any_request(count, reqs)) {
        return OMPIX_CONT_ORIG.req_test_all(count, reqs, completed, statuses);
    }
    ompix_cont_drain_all(count, reqs);
    rc = OMPIX_CONT_ORIG.req_test_all(count, reqs, completed, statuses);
    if (OMPI_SUCCESS == rc && *completed) {
        rc = ompix_cont_report_failed(count, reqs, NULL, statuses);
    }
    if (OMPI_SUCCESS != rc) {
        ompix_cont_mark_delivery(count, reqs);
    }
    return rc;
}

static int ompix_cont_test_some(size_t count, ompi_request_t **reqs, int *outcount,
                                int *indices, ompi_status_public_t *statuses)
{
    int rc;

    if (!ompix_cont_any_request(count, reqs)) {
        return OMPIX_CONT_ORIG.req_test_some(count, reqs, outcount, indices, statuses);
    }
    ompix_cont_drain_all(count, reqs);
    rc = OMPIX_CONT_ORIG.req_test_some(count, reqs, outcount, indices, statuses);
    if (OMPI_SUCCESS == rc && MPI_UNDEFINED != *outcount) {
        rc = ompix_cont_report_failed((size_t) *outcount, reqs, indices, statuses);
    }
    if (OMPI_SUCCESS != rc) {
        ompix_cont_mark_delivery(count, reqs);
    }
    return rc;
}

static int ompix_cont_wait(ompi_request_t **rptr, ompi_status_public_t *status)
{
    int completed = 0, rc;

    if (!ompix_cont_is_request(*rptr)) {
        return OMPIX_CONT_ORIG.req_wait(rptr, status);
    }
    do {
        rc = ompix_cont_test_one(rptr, &completed, status);
    } while (!completed);
    return rc;
}

static int ompix_cont_wait_any(size_t count, ompi_request_t **reqs, int *index,
                               ompi_status_public_t *status)
{
    int completed = 0, rc;

    if (!ompix_cont_any_request(count, reqs)) {
        return OMPIX_CONT_ORIG.req_wait_any(count, reqs, index, status);
    }
    do {
        rc = ompix_cont_test_any(count, reqs, index, &completed, status);
    } while (OMPI_SUCCESS == rc && !completed);
    return rc;
}

static int ompix_cont_wait_all(size_t count, ompi_request_t **reqs,
                               ompi_status_public_t *statuses)
{
    int completed = 0, rc;

    if (!ompix_cont_any_request(count, reqs)) {
        return OMPIX_CONT_ORIG.req_wait_all(count, reqs, statuses);
    }
    do {
        rc = ompix_cont_test_all(count, reqs, &completed, statuses);
    } while (OMPI_SUCCESS == rc && !completed);
    return rc;
}

static int ompix_cont_wait_some(size_t count, ompi_request_t **reqs, int *outcount,
                                int *indices, ompi_status_public_t *statuses)
{
    int rc;

    if (!ompix_cont_any_request(count, reqs)) {
        return OMPIX_CONT_ORIG.req_wait_some(count, reqs, outcount, indices, statuses);
    }
    do {
        rc = ompix_cont_test_some(count, reqs, outcount, indices, statuses);
    } while (OMPI_SUCCESS == rc && 0 == *outcount);
    return rc;
}

static const ompi_request_fns_t ompix_cont_fns = {
    .req_test = ompix_cont_test,
    .req_test_any = ompix_cont_test_any,
    .req_test_all = ompix_cont_test_all,
    .req_test_some = ompix_cont_test_some,
    .req_wait = ompix_cont_wait,
    .req_wait_any = ompix_cont_wait_any,
    .req_wait_all = ompix_cont_wait_all,
    .req_wait_some = ompix_cont_wait_some,
};

/* One layer over Open MPI's request functions (common_ompix_reqfn.h), on
 * from the first MPIX_Continue_init to MPI_Finalize. */
void ompix_cont_wait_install(void)
{
    ompix_cont_global.reqfn.name = "continue";
    ompix_cont_global.reqfn.fns = &ompix_cont_fns;
    mca_common_ompix_reqfn_push(&ompix_cont_global.reqfn);
}

void ompix_cont_wait_uninstall(void)
{
    mca_common_ompix_reqfn_pop(&ompix_cont_global.reqfn);
}
