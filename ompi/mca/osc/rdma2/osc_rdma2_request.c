/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Request-based operations (Rput, Rget, Raccumulate, Rget_accumulate).
 * They are only allowed in passive-target epochs.  For now each one is
 * completed before it returns: the operation, then a flush of that one
 * endpoint if it went through UCX (a memcpy to a mapped peer is already
 * complete), and the request is handed back complete.  Never one worker
 * flush per request, so any number may be outstanding.
 */
#include "ompi_config.h"

#include "osc_rdma2.h"

typedef struct mca_osc_rdma2_request_t {
    ompi_request_t super;
} mca_osc_rdma2_request_t;

static int rdma2_request_free(struct ompi_request_t **req)
{
    OMPI_REQUEST_FINI(*req);
    OBJ_RELEASE(*req);
    *req = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int rdma2_request_cancel(struct ompi_request_t *req, int complete)
{
    (void) req; (void) complete;
    return OMPI_SUCCESS;   /* already complete: nothing to cancel */
}

static void rdma2_request_construct(mca_osc_rdma2_request_t *req)
{
    req->super.req_type = OMPI_REQUEST_WIN;
    req->super.req_status._cancelled = 0;
    req->super.req_free = rdma2_request_free;
    req->super.req_cancel = rdma2_request_cancel;
}

static OBJ_CLASS_INSTANCE(mca_osc_rdma2_request_t, ompi_request_t, rdma2_request_construct,
                          NULL);

static bool rdma2_in_passive_epoch(mca_osc_rdma2_module_t *module, int target)
{
    mca_osc_rdma2_peer_t *peer = module->peers[target];
    return module->lock_all || (NULL != peer && RDMA2_LOCK_NONE != peer->lock_type);
}

/* Completes what the operation just issued and returns a done request. */
static int rdma2_finish(mca_osc_rdma2_module_t *module, int target, int ret,
                        struct ompi_request_t **request)
{
    mca_osc_rdma2_request_t *req;

    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_complete_peer(module, module->peers[target]);
    }
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    req = OBJ_NEW(mca_osc_rdma2_request_t);
    if (NULL == req) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    OMPI_REQUEST_INIT(&req->super, false);
    req->super.req_mpi_object.win = module->win;
    req->super.req_state = OMPI_REQUEST_ACTIVE;
    req->super.req_status.MPI_ERROR = MPI_SUCCESS;
    ompi_request_complete(&req->super, true);
    *request = &req->super;
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_rput(const void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt, struct ompi_win_t *win,
                       struct ompi_request_t **request)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);
    if (!rdma2_in_passive_epoch(module, target)) return OMPI_ERR_RMA_SYNC;
    return rdma2_finish(module, target,
                        mca_osc_rdma2_put(origin_addr, origin_count, origin_dt, target,
                                          target_disp, target_count, target_dt, win),
                        request);
}

int mca_osc_rdma2_rget(void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt, struct ompi_win_t *win,
                       struct ompi_request_t **request)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);
    if (!rdma2_in_passive_epoch(module, target)) return OMPI_ERR_RMA_SYNC;
    return rdma2_finish(module, target,
                        mca_osc_rdma2_get(origin_addr, origin_count, origin_dt, target,
                                          target_disp, target_count, target_dt, win),
                        request);
}

int mca_osc_rdma2_raccumulate(const void *origin_addr, int origin_count,
                              struct ompi_datatype_t *origin_dt, int target, ptrdiff_t target_disp,
                              int target_count, struct ompi_datatype_t *target_dt,
                              struct ompi_op_t *op, struct ompi_win_t *win,
                              struct ompi_request_t **request)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);
    if (!rdma2_in_passive_epoch(module, target)) return OMPI_ERR_RMA_SYNC;
    return rdma2_finish(module, target,
                        mca_osc_rdma2_accumulate(origin_addr, origin_count, origin_dt, target,
                                                 target_disp, target_count, target_dt, op, win),
                        request);
}

int mca_osc_rdma2_rget_accumulate(const void *origin_addr, int origin_count,
                                  struct ompi_datatype_t *origin_dt, void *result_addr,
                                  int result_count, struct ompi_datatype_t *result_dt,
                                  int target, ptrdiff_t target_disp, int target_count,
                                  struct ompi_datatype_t *target_dt, struct ompi_op_t *op,
                                  struct ompi_win_t *win, struct ompi_request_t **request)
{
    mca_osc_rdma2_module_t *module = RDMA2_MODULE(win);
    if (!rdma2_in_passive_epoch(module, target)) return OMPI_ERR_RMA_SYNC;
    return rdma2_finish(module, target,
                        mca_osc_rdma2_get_accumulate(origin_addr, origin_count, origin_dt,
                                                     result_addr, result_count, result_dt,
                                                     target, target_disp, target_count,
                                                     target_dt, op, win),
                        request);
}
