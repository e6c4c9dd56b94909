/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Request-based operations (Rput, Rget, Raccumulate, Rget_accumulate),
 * allowed in passive-target epochs only.
 *
 * Rput/Rget: pieces to mapped peers are memcpy (complete at once); pieces
 * through UCX carry a completion callback, and the request completes when
 * the last one has run (for a put that means the origin buffer is
 * reusable, for a get that the data is here) — no flush per request, no
 * remote atomic, so any number may be outstanding.  The callbacks only
 * count down and complete the MPI request; they never call into UCX.
 * Raccumulate/Rget_accumulate: where the accumulate goes through the
 * target's accumulate lock and UCX carries the data, a state machine
 * (osc_rdma2_accumulate.c) takes the lock, fetches, updates, writes back,
 * flushes and releases, advanced by the drain below (or by our progress
 * thread, while the application computes outside MPI) each time its
 * pieces are done; everywhere else (mapped, CMA, element atomics) the
 * accumulate is complete on return, and so is the request.
 *
 * UCX callbacks never complete the MPI request themselves: completing it
 * may run user-visible completion callbacks that call MPI and progress
 * the worker from inside UCX (Open MPI #13064).  The callback pushes the
 * request on a done LIFO; our progress callback, and every blocking
 * UCX wait of ours, complete the requests on it.  Requests come from the
 * component's free list.
 */
#include "ompi_config.h"

#include "opal/runtime/opal_progress.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "osc_rdma2_request.h"
#include "osc_rdma2_comm.h"
#include "osc_rdma2_accumulate.h"
#include "osc_rdma2_peer.h"
#include "osc_rdma2_component.h"

static int mca_osc_rdma2_request_free(struct ompi_request_t **req)
{
    /* MPI lets users free an active request; ours must not vanish under a
     * pending UCX callback, so finish it first (bounded: it was issued). */
    while (!REQUEST_COMPLETE(*req)) {
        opal_progress();
        mca_osc_rdma2_progress();   /* also when no window is left */
    }
    OMPI_REQUEST_FINI(*req);
    opal_free_list_return(&mca_osc_rdma2_component.requests, (opal_free_list_item_t *) *req);
    *req = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_request_cancel(struct ompi_request_t *req, int complete)
{
    (void) req; (void) complete;
    return OMPI_SUCCESS;   /* RMA requests can not be cancelled */
}

static void mca_osc_rdma2_request_construct(mca_osc_rdma2_request_t *req)
{
    req->super.req_type = OMPI_REQUEST_WIN;
    req->super.req_status._cancelled = 0;
    req->super.req_free = mca_osc_rdma2_request_free;
    req->super.req_cancel = mca_osc_rdma2_request_cancel;
}

OBJ_CLASS_INSTANCE(mca_osc_rdma2_request_t, ompi_request_t, mca_osc_rdma2_request_construct, NULL);

/* Requests come from a free list, so that thousands in flight cost no
 * allocation each.  Built when MPI starts (nothing allocated until the
 * first request), released at finalize. */
int mca_osc_rdma2_request_init(void)
{
    OBJ_CONSTRUCT(&mca_osc_rdma2_component.requests, opal_free_list_t);
    OBJ_CONSTRUCT(&mca_osc_rdma2_component.requests_done, opal_lifo_t);
    OBJ_CONSTRUCT(&mca_osc_rdma2_component.requests_acc, opal_lifo_t);
    return opal_free_list_init(&mca_osc_rdma2_component.requests,
                               sizeof(mca_osc_rdma2_request_t), opal_cache_line_size,
                               OBJ_CLASS(mca_osc_rdma2_request_t), 0, opal_cache_line_size,
                               0, -1, 32, NULL, 0, NULL, NULL, NULL);
}

void mca_osc_rdma2_request_fini(void)
{
    OBJ_DESTRUCT(&mca_osc_rdma2_component.requests_acc);
    OBJ_DESTRUCT(&mca_osc_rdma2_component.requests_done);
    OBJ_DESTRUCT(&mca_osc_rdma2_component.requests);
}

static void mca_osc_rdma2_request_done(mca_osc_rdma2_request_t *req)
{
    req->super.req_status.MPI_ERROR = req->error;
    ompi_request_complete(&req->super, true);
}

void mca_osc_rdma2_request_complete(mca_osc_rdma2_request_t *req)
{
    mca_osc_rdma2_request_done(req);
}

/* Pieces may finish on our progress thread even in a single-threaded
 * program, so both lists always take the atomic LIFO operations (the
 * plain opal_lifo_push/pop are atomic only when opal_using_threads()). */
static void mca_osc_rdma2_request_defer(mca_osc_rdma2_request_t *req)
{
    opal_lifo_push_atomic(&mca_osc_rdma2_component.requests_done,
                          &req->super.super.super);
}

void mca_osc_rdma2_request_finished(mca_osc_rdma2_request_t *req)
{
    mca_osc_rdma2_request_defer(req);
}

void mca_osc_rdma2_request_requeue(mca_osc_rdma2_request_t *req)
{
    opal_lifo_push_atomic(&mca_osc_rdma2_component.requests_acc, &req->super.super.super);
}

/* Runs the next step of every accumulate state machine whose pieces are
 * done.  A finished one is retired and completed here on an application
 * thread (app), else it waits on the done LIFO for the next drain.  Machines
 * waiting for a busy lock come back to their LIFO after this pass, so
 * that one pass ends; they are not counted as work (the progress thread
 * then naps). */
int mca_osc_rdma2_request_advance(bool app)
{
    mca_osc_rdma2_request_t *req, *retry = NULL;
    opal_list_item_t *item;
    int n = 0, r;

    if (opal_lifo_is_empty(&mca_osc_rdma2_component.requests_acc)) {
        return 0;
    }
    while (NULL != (item = opal_lifo_pop_atomic(&mca_osc_rdma2_component.requests_acc))) {
        req = (mca_osc_rdma2_request_t *) item;
        r = mca_osc_rdma2_acc_op_resume(req, app);
        if (MCA_OSC_RDMA2_ACC_OP_RETRY == r) {
            item->opal_list_next = (opal_list_item_t *) retry;
            retry = req;
            continue;
        }
        ++n;
        if (app && MCA_OSC_RDMA2_ACC_OP_FINISHED == r) {
            mca_osc_rdma2_acc_op_retire(req);
            mca_osc_rdma2_request_done(req);
        }
    }
    while (NULL != retry) {
        req = retry;
        retry = (mca_osc_rdma2_request_t *) req->super.super.super.opal_list_next;
        mca_osc_rdma2_request_requeue(req);
    }
    return n;
}

int mca_osc_rdma2_request_drain(void)
{
    mca_osc_rdma2_request_t *req;
    opal_list_item_t *item;
    int n = mca_osc_rdma2_request_advance(true);

    if (opal_lifo_is_empty(&mca_osc_rdma2_component.requests_done)) {
        return n;
    }
    while (NULL != (item = opal_lifo_pop_atomic(&mca_osc_rdma2_component.requests_done))) {
        req = (mca_osc_rdma2_request_t *) item;
        ++n;
        if (NULL != req->notify) {
            /* a read_notify's counter: its slot was incremented already */
            opal_free_list_return(&mca_osc_rdma2_component.requests,
                                  (opal_free_list_item_t *) req);
            continue;
        }
        if (OPAL_UNLIKELY(NULL != req->acc_op)) {
            mca_osc_rdma2_acc_op_retire(req);   /* finished on the progress thread */
        }
        mca_osc_rdma2_request_done(req);
    }
    return n;
}

/* A state machine's pieces: its next step is due. */
void mca_osc_rdma2_request_piece_cb(void *ucx_req, ucs_status_t status, void *user_data)
{
    mca_osc_rdma2_request_t *req = (mca_osc_rdma2_request_t *) user_data;

    if (UCS_OK != status) {
        req->error = MPI_ERR_OTHER;
    }
    ucp_request_free(ucx_req);
    if (0 == opal_atomic_add_fetch_32(&req->outstanding, -1)) {
        if (NULL != req->acc_op) {
            mca_osc_rdma2_request_requeue(req);
            return;
        }
        if (NULL != req->notify && MPI_SUCCESS == req->error) {
            /* the data is in the origin buffer: announce it (release) */
            mca_common_ompix_atomic_add_rel_64((volatile uint64_t *) req->notify, 1);
        }
        mca_osc_rdma2_request_defer(req);
    }
}

mca_osc_rdma2_request_t *mca_osc_rdma2_request_notify_new(volatile int64_t *slot)
{
    mca_osc_rdma2_request_t *req =
        (mca_osc_rdma2_request_t *) opal_free_list_get(&mca_osc_rdma2_component.requests);

    if (NULL != req) {
        req->error = MPI_SUCCESS;
        req->outstanding = 1;       /* held by the issuer until all pieces are out */
        req->acc_op = NULL;
        req->notify = slot;
    }
    return req;
}

int mca_osc_rdma2_request_notify_issued(mca_osc_rdma2_request_t *req, int ret)
{
    if (OMPI_SUCCESS != ret) {
        req->error = MPI_ERR_OTHER;
    }
    if (0 == opal_atomic_add_fetch_32(&req->outstanding, -1)) {
        if (MPI_SUCCESS == req->error) {
            mca_common_ompix_atomic_add_rel_64((volatile uint64_t *) req->notify, 1);
        }
        opal_free_list_return(&mca_osc_rdma2_component.requests, (opal_free_list_item_t *) req);
    }
    return ret;
}

static bool mca_osc_rdma2_in_passive_epoch(mca_osc_rdma2_module_t *module, int target)
{
    return mca_osc_rdma2_sync_passive(&module->sync, target);
}

static mca_osc_rdma2_request_t *mca_osc_rdma2_request_new(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_request_t *req =
        (mca_osc_rdma2_request_t *) opal_free_list_get(&mca_osc_rdma2_component.requests);

    if (NULL != req) {
        OMPI_REQUEST_INIT(&req->super, false);
        req->super.req_mpi_object.win = module->win;
        req->super.req_state = OMPI_REQUEST_ACTIVE;
        req->error = MPI_SUCCESS;
        req->outstanding = 1;       /* held by the issuer until all pieces are out */
        req->acc_op = NULL;
        req->notify = NULL;
    }
    return req;
}

/* Drops the issuer's hold; the request completes now or in a callback. */
static int mca_osc_rdma2_request_issued(mca_osc_rdma2_request_t *req, int ret,
                                        struct ompi_request_t **request)
{
    if (OMPI_SUCCESS != ret) {
        req->error = MPI_ERR_OTHER;
    }
    if (0 == opal_atomic_add_fetch_32(&req->outstanding, -1)) {
        mca_osc_rdma2_request_done(req);
    }
    if (OMPI_SUCCESS != ret) {
        /* Pieces already issued still hold the request: let them finish. */
        struct ompi_request_t *r = &req->super;
        mca_osc_rdma2_request_free(&r);
        return ret;
    }
    *request = &req->super;
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_rput_rget(bool is_put, void *origin_addr, int origin_count,
                                   struct ompi_datatype_t *origin_dt, int target,
                                   ptrdiff_t target_disp, int target_count,
                                   struct ompi_datatype_t *target_dt, struct ompi_win_t *win,
                                   struct ompi_request_t **request)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_request_t *req;
    int ret;

    if (NULL == request) return MPI_ERR_REQUEST;    /* nowhere to return it */
    if (!mca_osc_rdma2_in_passive_epoch(module, target)) return OMPI_ERR_RMA_SYNC;
    req = mca_osc_rdma2_request_new(module);
    if (NULL == req) return OMPI_ERR_OUT_OF_RESOURCE;
    ret = mca_osc_rdma2_rdma(module, req, is_put, origin_addr, origin_count, origin_dt, target,
                             target_disp, target_count, target_dt);
    return mca_osc_rdma2_request_issued(req, ret, request);
}

int mca_osc_rdma2_rput(const void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt, struct ompi_win_t *win,
                       struct ompi_request_t **request)
{
    return mca_osc_rdma2_rput_rget(true, (void *) origin_addr, origin_count, origin_dt, target,
                                   target_disp, target_count, target_dt, win, request);
}

int mca_osc_rdma2_rget(void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt, struct ompi_win_t *win,
                       struct ompi_request_t **request)
{
    return mca_osc_rdma2_rput_rget(false, origin_addr, origin_count, origin_dt, target, target_disp,
                                   target_count, target_dt, win, request);
}

/* The accumulate runs as a state machine where it would wait for UCX
 * (mca_osc_rdma2_acc_start says whether it took the request), else it is
 * complete on return and so is the request. */
static int mca_osc_rdma2_racc(const void *origin_addr, int origin_count,
                              struct ompi_datatype_t *origin_dt, void *result_addr,
                              int result_count, struct ompi_datatype_t *result_dt, int target,
                              ptrdiff_t target_disp, int target_count,
                              struct ompi_datatype_t *target_dt, struct ompi_op_t *op,
                              struct ompi_win_t *win, struct ompi_request_t **request)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_request_t *req;
    bool owned = false;
    int ret;

    if (NULL == request) return MPI_ERR_REQUEST;    /* nowhere to return it */
    if (!mca_osc_rdma2_in_passive_epoch(module, target)) return OMPI_ERR_RMA_SYNC;
    req = mca_osc_rdma2_request_new(module);
    if (NULL == req) return OMPI_ERR_OUT_OF_RESOURCE;
    ret = mca_osc_rdma2_acc_start(req, origin_addr, origin_count, origin_dt, result_addr,
                                  result_count, result_dt, target, target_disp, target_count,
                                  target_dt, op, win, &owned);
    if (owned) {
        *request = &req->super;
        return OMPI_SUCCESS;
    }
    if (OMPI_SUCCESS != ret) {
        /* nothing was issued: back to the list, the error to the caller */
        OMPI_REQUEST_FINI(&req->super);
        opal_free_list_return(&mca_osc_rdma2_component.requests, (opal_free_list_item_t *) req);
        return ret;
    }
    return mca_osc_rdma2_request_issued(req, OMPI_SUCCESS, request);
}

int mca_osc_rdma2_raccumulate(const void *origin_addr, int origin_count,
                              struct ompi_datatype_t *origin_dt, int target, ptrdiff_t target_disp,
                              int target_count, struct ompi_datatype_t *target_dt,
                              struct ompi_op_t *op, struct ompi_win_t *win,
                              struct ompi_request_t **request)
{
    return mca_osc_rdma2_racc(origin_addr, origin_count, origin_dt, NULL, 0, NULL, target,
                              target_disp, target_count, target_dt, op, win, request);
}

int mca_osc_rdma2_rget_accumulate(const void *origin_addr, int origin_count,
                                  struct ompi_datatype_t *origin_dt, void *result_addr,
                                  int result_count, struct ompi_datatype_t *result_dt,
                                  int target, ptrdiff_t target_disp, int target_count,
                                  struct ompi_datatype_t *target_dt, struct ompi_op_t *op,
                                  struct ompi_win_t *win, struct ompi_request_t **request)
{
    if (mca_osc_rdma2_bad_buffer(result_addr, result_count, result_dt)) {
        return MPI_ERR_BUFFER;
    }
    return mca_osc_rdma2_racc(origin_addr, origin_count, origin_dt,
                              0 == result_count ? NULL : result_addr, result_count, result_dt,
                              target, target_disp, target_count, target_dt, op, win, request);
}
