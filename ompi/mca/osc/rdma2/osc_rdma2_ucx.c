/*
 * Copyright (c) 2026 The ompix developers.
 *
 * UCX plumbing: our own ucp context and worker (independent of the PML),
 * the per-process endpoint table, and blocking helpers.  Every wait loop
 * calls opal_progress(), which runs mca_osc_rdma2_progress() and with it
 * the worker; nothing here is ever called from inside a UCX callback.
 */
#include "ompi_config.h"

#include <string.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/proc/proc.h"

#include "osc_rdma2.h"

int mca_osc_rdma2_progress(void)
{
    if (!mca_osc_rdma2_component.ucx_ready) {
        return 0;
    }
    mca_osc_rdma2_thread_note_progress();
    return (int) ucp_worker_progress(mca_osc_rdma2_component.ucp_worker) +
           mca_osc_rdma2_request_drain();
}

/* Our progress thread calls into the worker too. */
static bool rdma2_worker_shared(void)
{
    return mca_osc_rdma2_component.enable_mpi_threads ||
           RDMA2_THREAD_NEVER != mca_osc_rdma2_component.progress_thread;
}

static int rdma2_create_context(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;
    ucp_config_t *config;
    ucp_params_t params;
    ucs_status_t status;

    status = ucp_config_read("MPI", NULL, &config);
    if (UCS_OK != status) {
        return OMPI_ERROR;
    }
    /* Same-node peers use CPU atomics on the lock words directly; UCX's
     * own atomics on those words must be CPU-coherent with them (device
     * atomics on InfiniBand are not).  Older UCX may not know the knob. */
    (void) ucp_config_modify(config, "ATOMIC_MODE", "cpu");

    memset(&params, 0, sizeof(params));
    params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                        UCP_PARAM_FIELD_ESTIMATED_NUM_EPS;
    params.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64;
    params.mt_workers_shared = rdma2_worker_shared() ? 1 : 0;
    params.estimated_num_eps = ompi_proc_world_size();
    status = ucp_init(&params, config, &c->ucp_context);
    ucp_config_release(config);
    return UCS_OK == status ? OMPI_SUCCESS : OMPI_ERROR;
}

static int rdma2_create_worker(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;
    ucp_worker_params_t params;
    ucp_worker_attr_t attr;

    memset(&params, 0, sizeof(params));
    params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    params.thread_mode = rdma2_worker_shared() ? UCS_THREAD_MODE_MULTI : UCS_THREAD_MODE_SINGLE;
    if (UCS_OK != ucp_worker_create(c->ucp_context, &params, &c->ucp_worker)) {
        return OMPI_ERROR;
    }
    attr.field_mask = UCP_WORKER_ATTR_FIELD_THREAD_MODE;
    if (UCS_OK != ucp_worker_query(c->ucp_worker, &attr) ||
        (rdma2_worker_shared() && UCS_THREAD_MODE_MULTI != attr.thread_mode)) {
        ucp_worker_destroy(c->ucp_worker);
        return OMPI_ERROR;
    }
    return OMPI_SUCCESS;
}

/* The per-process state block (accumulate lock) lives for the whole run. */
static int rdma2_create_pstate(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;
    void *base = NULL;
    int ret;

    ret = mca_osc_rdma2_ucx_mem_map(NULL, sizeof(mca_osc_rdma2_pstate_t), true,
                                    &c->pstate_memh, &base);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    c->pstate = (mca_osc_rdma2_pstate_t *) base;
    memset(base, 0, sizeof(mca_osc_rdma2_pstate_t));
    ret = mca_osc_rdma2_ucx_rkey_pack(c->pstate_memh, &c->pstate_rkey, &c->pstate_rkey_len);
    if (OMPI_SUCCESS != ret) {
        ucp_mem_unmap(c->ucp_context, c->pstate_memh);
    }
    return ret;
}

/* Called by each window creation (collectively, under the component lock). */
int mca_osc_rdma2_ucx_init(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;
    int ret;

    if (c->ucx_ready) {
        return OMPI_SUCCESS;
    }
    if (c->ucx_failed) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    c->ucx_failed = true;           /* until proven otherwise: tried once */
    ret = rdma2_create_context();
    if (OMPI_SUCCESS != ret) {
        opal_output(0, "osc/rdma2: cannot create a UCX context");
        return ret;
    }
    ret = rdma2_create_worker();
    if (OMPI_SUCCESS != ret) {
        opal_output(0, "osc/rdma2: cannot create a UCX worker");
        ucp_cleanup(c->ucp_context);
        return ret;
    }
    c->ucx_ready = true;
    ret = rdma2_create_pstate();
    if (OMPI_SUCCESS != ret) {
        c->ucx_ready = false;
        ucp_worker_destroy(c->ucp_worker);
        ucp_cleanup(c->ucp_context);
        return ret;
    }
    c->ucx_failed = false;
    RDMA2_VERBOSE(10, "UCX context and worker created");
    return OMPI_SUCCESS;
}

/* Endpoints are not closed one by one: a flushing close waits for peers
 * that may already have left MPI_Finalize, and UCX 1.13 refuses a forced
 * close (UCS_ERR_INVALID_PARAM) on endpoints created without peer error
 * handling.  ucp_worker_destroy releases them. */
static void rdma2_forget_procs(void)
{
    opal_hash_table_t *procs = &mca_osc_rdma2_component.procs;
    uint64_t key;
    void *value, *node = NULL;

    while (OPAL_SUCCESS == (NULL == node
                            ? opal_hash_table_get_first_key_uint64(procs, &key, &value, &node)
                            : opal_hash_table_get_next_key_uint64(procs, &key, &value, node,
                                                                  &node))) {
        mca_osc_rdma2_proc_t *proc = (mca_osc_rdma2_proc_t *) value;
        free(proc->address);
        free(proc);
    }
    opal_hash_table_remove_all(procs);
}

void mca_osc_rdma2_ucx_fini(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;

    if (!c->ucx_ready) {
        return;
    }
    mca_osc_rdma2_thread_stop();
    rdma2_forget_procs();
    ucp_rkey_buffer_release(c->pstate_rkey);
    ucp_mem_unmap(c->ucp_context, c->pstate_memh);
    c->ucx_ready = false;
    ucp_worker_destroy(c->ucp_worker);
    ucp_cleanup(c->ucp_context);
}

/* ---------------------------------------------------------------------- */
/* Endpoints: one per remote process, shared by all windows, created on    */
/* first use from the address exchanged with the first window.             */

static mca_osc_rdma2_proc_t *rdma2_proc_lookup(ompi_proc_t *proc)
{
    void *value = NULL;
    if (OPAL_SUCCESS != opal_hash_table_get_value_uint64(&mca_osc_rdma2_component.procs,
                                                         (uint64_t) (uintptr_t) proc, &value)) {
        return NULL;
    }
    return (mca_osc_rdma2_proc_t *) value;
}

bool mca_osc_rdma2_proc_known(ompi_proc_t *proc)
{
    bool known;
    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    known = NULL != rdma2_proc_lookup(proc);
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    return known;
}

int mca_osc_rdma2_proc_set_address(ompi_proc_t *proc, const void *addr, size_t len)
{
    mca_osc_rdma2_proc_t *p;
    int ret = OMPI_SUCCESS;

    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    if (NULL == rdma2_proc_lookup(proc)) {
        p = calloc(1, sizeof(*p));
        if (NULL != p) {
            p->address = malloc(len);
        }
        if (NULL == p || NULL == p->address) {
            free(p);
            ret = OMPI_ERR_OUT_OF_RESOURCE;
        } else {
            memcpy(p->address, addr, len);
            p->address_len = len;
            ret = opal_hash_table_set_value_uint64(&mca_osc_rdma2_component.procs,
                                                   (uint64_t) (uintptr_t) proc, p);
        }
    }
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    return ret;
}

int mca_osc_rdma2_proc_ep(ompi_proc_t *proc, ucp_ep_h *ep)
{
    mca_osc_rdma2_proc_t *p;
    ucp_ep_params_t params;
    int ret = OMPI_SUCCESS;

    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    p = rdma2_proc_lookup(proc);
    if (NULL == p) {
        ret = OMPI_ERR_UNREACH;
    } else if (NULL == p->ep) {
        memset(&params, 0, sizeof(params));
        params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
        params.address = (const ucp_address_t *) p->address;
        if (UCS_OK != ucp_ep_create(mca_osc_rdma2_component.ucp_worker, &params, &p->ep)) {
            p->ep = NULL;
            ret = OMPI_ERR_UNREACH;
        }
    }
    *ep = NULL != p ? p->ep : NULL;
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Blocking helpers                                                        */

int mca_osc_rdma2_ucx_wait(ucs_status_ptr_t sp)
{
    ucs_status_t status;

    if (NULL == sp) {
        return OMPI_SUCCESS;
    }
    if (UCS_PTR_IS_ERR(sp)) {
        RDMA2_VERBOSE(1, "UCX operation failed: %s", ucs_status_string(UCS_PTR_STATUS(sp)));
        return OMPI_ERROR;
    }
    while (UCS_INPROGRESS == (status = ucp_request_check_status(sp))) {
        opal_progress();
    }
    ucp_request_free(sp);
    /* A flush may have finished Rput/Rget pieces: complete their requests
     * here too, in case no window (hence no progress callback) is left. */
    mca_osc_rdma2_request_drain();
    if (UCS_OK != status) {
        RDMA2_VERBOSE(1, "UCX operation failed: %s", ucs_status_string(status));
        return OMPI_ERROR;
    }
    return OMPI_SUCCESS;
}

/* For operations completed later by a flush: release the request now
 * (UCX keeps it until completion) and report only immediate errors. */
int mca_osc_rdma2_ucx_check(ucs_status_ptr_t sp)
{
    if (NULL == sp) {
        return OMPI_SUCCESS;
    }
    if (UCS_PTR_IS_ERR(sp)) {
        RDMA2_VERBOSE(1, "UCX operation failed: %s", ucs_status_string(UCS_PTR_STATUS(sp)));
        return OMPI_ERROR;
    }
    ucp_request_free(sp);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_ucx_flush_ep(ucp_ep_h ep)
{
    ucp_request_param_t param;
    memset(&param, 0, sizeof(param));
    return mca_osc_rdma2_ucx_wait(ucp_ep_flush_nbx(ep, &param));
}

int mca_osc_rdma2_ucx_flush_worker(void)
{
    ucp_request_param_t param;
    memset(&param, 0, sizeof(param));
    return mca_osc_rdma2_ucx_wait(ucp_worker_flush_nbx(mca_osc_rdma2_component.ucp_worker,
                                                       &param));
}

static ucp_datatype_t rdma2_amo_dt(size_t size)
{
    return ucp_dt_make_contig(size);
}

/* Fetching atomic of 4 or 8 bytes; result may be NULL (result discarded,
 * but still waited for so the caller sees it complete). */
int mca_osc_rdma2_ucx_atomic(ucp_ep_h ep, ucp_atomic_op_t op, uint64_t value, uint64_t *result,
                             size_t size, uint64_t addr, ucp_rkey_h rkey)
{
    ucp_request_param_t param;
    uint64_t reply = 0;
    uint32_t v32 = (uint32_t) value, r32 = 0;
    int ret;

    memset(&param, 0, sizeof(param));
    param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
    param.datatype = rdma2_amo_dt(size);
    param.reply_buffer = 8 == size ? (void *) &reply : (void *) &r32;
    ret = mca_osc_rdma2_ucx_wait(ucp_atomic_op_nbx(ep, op, 8 == size ? (void *) &value
                                                                     : (void *) &v32,
                                                   1, addr, rkey, &param));
    if (NULL != result) {
        *result = 8 == size ? reply : r32;
    }
    return ret;
}

/* Non-fetching 8-byte add, waited for only until it has left (its
 * buffer is free): lock releases need no answer from the target, and
 * leaving now keeps them from sitting in our send queue while this
 * process computes outside MPI.  Operations issued before it are ordered
 * by the caller (a worker fence or a flush). */
int mca_osc_rdma2_ucx_atomic_post(ucp_ep_h ep, uint64_t value, uint64_t addr, ucp_rkey_h rkey)
{
    ucp_request_param_t param;

    memset(&param, 0, sizeof(param));
    param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE;
    param.datatype = rdma2_amo_dt(8);
    return mca_osc_rdma2_ucx_wait(ucp_atomic_op_nbx(ep, UCP_ATOMIC_OP_ADD, &value, 1, addr, rkey,
                                                    &param));
}

/* Compare-and-swap: UCX takes the compare value in `buffer` and the swap
 * value in the reply buffer, which returns the old value. */
int mca_osc_rdma2_ucx_cswap(ucp_ep_h ep, uint64_t compare, uint64_t *swap_result, size_t size,
                            uint64_t addr, ucp_rkey_h rkey)
{
    ucp_request_param_t param;
    uint32_t c32 = (uint32_t) compare, s32 = (uint32_t) *swap_result;
    int ret;

    memset(&param, 0, sizeof(param));
    param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
    param.datatype = rdma2_amo_dt(size);
    param.reply_buffer = 8 == size ? (void *) swap_result : (void *) &s32;
    ret = mca_osc_rdma2_ucx_wait(ucp_atomic_op_nbx(ep, UCP_ATOMIC_OP_CSWAP,
                                                   8 == size ? (void *) &compare : (void *) &c32,
                                                   1, addr, rkey, &param));
    if (4 == size) {
        *swap_result = s32;
    }
    return ret;
}

int mca_osc_rdma2_ucx_mem_map(void *addr, size_t size, bool allocate, ucp_mem_h *memh,
                              void **base)
{
    ucp_mem_map_params_t params;
    ucp_mem_attr_t attr;

    memset(&params, 0, sizeof(params));
    params.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                        UCP_MEM_MAP_PARAM_FIELD_FLAGS;
    params.address = allocate ? NULL : addr;
    params.length = size;
    params.flags = allocate ? UCP_MEM_MAP_ALLOCATE : 0;
    if (UCS_OK != ucp_mem_map(mca_osc_rdma2_component.ucp_context, &params, memh)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (!allocate) {
        /* Not ucp_mem_query's address: for memory inside a region UCX
         * allocated or registered before, UCX may hand back that region's
         * handle, which starts below addr. */
        *base = addr;
        return OMPI_SUCCESS;
    }
    attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS;
    if (UCS_OK != ucp_mem_query(*memh, &attr)) {
        ucp_mem_unmap(mca_osc_rdma2_component.ucp_context, *memh);
        return OMPI_ERROR;
    }
    *base = attr.address;
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_ucx_rkey_pack(ucp_mem_h memh, void **buf, size_t *len)
{
    if (UCS_OK != ucp_rkey_pack(mca_osc_rdma2_component.ucp_context, memh, buf, len)) {
        return OMPI_ERROR;
    }
    return OMPI_SUCCESS;
}
