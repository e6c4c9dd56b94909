/*
 * Copyright (c) 2026 The ompix developers.
 *
 * UCX bring-up for ompix components (see common_ompix_ucx.h).
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_var.h"
#include "opal/memoryhooks/memory.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"
#include "opal/util/proc.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/coll.h"

#include "common_ompix_help.h"
#include "common_ompix_ucx.h"

typedef struct {
    ucp_ep_h ep;                    /* created on first use */
    void *address;                  /* the process's worker address (copied) */
    size_t address_len;
} mca_common_ompix_ucx_proc_t;

/* Registers the parameters only.  Open MPI's opal_common_ucx_mca_register
 * also switches UCX to Open MPI's memory hooks (opal_common_ucx_opal_mem_hooks),
 * which made MPI_Win_allocate + MPI_Win_free 15 times slower here (60 to
 * 900 us); our workers keep UCX's own hooks, as before common/ompix. */
void mca_common_ompix_ucx_register(void)
{
    /* No synonyms: the components have their own verbose parameter. */
    opal_common_ucx_mca_var_register(NULL);
}

/* Whether the user (command line, environment or a file) set an
 * opal_common_ucx parameter, rather than leaving Open MPI's default. */
static bool mca_common_ompix_ucx_user_set(const char *name)
{
    const mca_base_var_t *var;
    int index = mca_base_var_find("opal", "opal_common", "ucx", name);

    return index >= 0 && OPAL_SUCCESS == mca_base_var_get(index, &var) &&
           MCA_BASE_VAR_SOURCE_DEFAULT != var->mbv_source;
}

/* The user's transport and device lists, where set, must match some
 * resource of the context: transports alone may match when only the
 * transport list was set. */
static bool mca_common_ompix_ucx_allowed(mca_common_ompix_ucx_t *ucx)
{
    bool tls = mca_common_ompix_ucx_user_set("tls");
    bool devices = mca_common_ompix_ucx_user_set("devices");
    opal_common_ucx_support_level_t need, level;

    if (!tls && !devices) {
        return true;
    }
    need = devices ? OPAL_COMMON_UCX_SUPPORT_DEVICE : OPAL_COMMON_UCX_SUPPORT_TRANSPORT;
    level = opal_common_ucx_support_level(ucx->context);
    if (level < need) {
        if (opal_common_ucx.verbose > 0) {
            opal_output(0, "%s: no UCX resource matches opal_common_ucx_tls=%s "
                        "opal_common_ucx_devices=%s", ucx->owner, *opal_common_ucx.tls,
                        *opal_common_ucx.devices);
        }
        return false;
    }
    return true;
}

/* Where ucp_mem_map(ALLOCATE) memory comes from (windows, channel rings,
 * notification slots).  UCX's default ALLOC_PRIO puts System V shared
 * memory first.  But when Open MPI's memory hooks are on (pml ucx turns
 * them on: opal_common_ucx_mca_register, opal_common_ucx_opal_mem_hooks),
 * its patcher intercepts every shmdt() and first reads all of
 * /proc/self/maps to learn the segment's size
 * (memory_patcher_get_shm_seg_size: 27 to 36 reads of 1 KiB here), which
 * made MPIX_Unbind_channel 0.5-1 ms and MPI_Win_allocate + MPI_Win_free
 * 3.4 ms under pml ucx.  POSIX shared memory is released with munmap(),
 * whose hook is given the length; UCX falls back along the list when it
 * can not allocate.  Without the hooks System V stays first (fewer system
 * calls per allocation).  The user's UCX_ALLOC_PRIO wins either way. */
static void mca_common_ompix_ucx_alloc_prio(ucp_config_t *config)
{
    if (0 == (OPAL_MEMORY_MUNMAP_SUPPORT & opal_mem_hooks_support_level()) ||
        NULL != getenv("UCX_ALLOC_PRIO") || NULL != getenv("UCX_MPI_ALLOC_PRIO")) {
        return;
    }
    (void) ucp_config_modify(config, "ALLOC_PRIO", "md:posix,md:sysv,huge,thp,md:*,mmap,heap");
}

static int mca_common_ompix_ucx_create_context(mca_common_ompix_ucx_t *ucx,
                                               const mca_common_ompix_ucx_params_t *params)
{
    ucp_config_t *config;
    ucp_params_t p;
    ucs_status_t status;

    if (UCS_OK != ucp_config_read("MPI", NULL, &config)) {
        return OMPI_ERROR;
    }
    if (params->cpu_atomics) {
        /* Device atomics (InfiniBand) are not coherent with the CPU's.
         * Older UCX may not know the knob. */
        (void) ucp_config_modify(config, "ATOMIC_MODE", "cpu");
    }
    mca_common_ompix_ucx_alloc_prio(config);
    memset(&p, 0, sizeof(p));
    p.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                   UCP_PARAM_FIELD_ESTIMATED_NUM_EPS;
    p.features = params->features;
    p.mt_workers_shared = params->multi_threaded ? 1 : 0;
    p.estimated_num_eps = ompi_proc_world_size();
    status = ucp_init(&p, config, &ucx->context);
    ucp_config_release(config);
    return UCS_OK == status ? OMPI_SUCCESS : OMPI_ERROR;
}

/* Open MPI 4.1's common/ucx has no thread-mode helper (5.0 adds one). */
static int mca_common_ompix_ucx_create_worker(mca_common_ompix_ucx_t *ucx)
{
    ucp_worker_params_t params;
    ucp_worker_attr_t attr;

    memset(&params, 0, sizeof(params));
    params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    params.thread_mode = ucx->multi_threaded ? UCS_THREAD_MODE_MULTI : UCS_THREAD_MODE_SINGLE;
    if (UCS_OK != ucp_worker_create(ucx->context, &params, &ucx->worker)) {
        return OMPI_ERROR;
    }
    attr.field_mask = UCP_WORKER_ATTR_FIELD_THREAD_MODE;
    if (UCS_OK != ucp_worker_query(ucx->worker, &attr) ||
        (ucx->multi_threaded && UCS_THREAD_MODE_MULTI != attr.thread_mode)) {
        ucp_worker_destroy(ucx->worker);
        return OMPI_ERROR;
    }
    return OMPI_SUCCESS;
}

int mca_common_ompix_ucx_open(mca_common_ompix_ucx_t *ucx, const char *owner,
                              const mca_common_ompix_ucx_params_t *params)
{
    memset(ucx, 0, sizeof(*ucx));
    ucx->owner = owner;
    ucx->multi_threaded = params->multi_threaded;
    if (OMPI_SUCCESS != mca_common_ompix_ucx_create_context(ucx, params)) {
        mca_common_ompix_help_init();
        opal_show_help("help-common-ompix.txt", "ucx context", true, owner,
                       opal_process_info.nodename, owner);
        goto fail;
    }
    if (!mca_common_ompix_ucx_allowed(ucx)) {
        goto fail_context;
    }
    if (OMPI_SUCCESS != mca_common_ompix_ucx_create_worker(ucx)) {
        mca_common_ompix_help_init();
        opal_show_help("help-common-ompix.txt", "ucx worker", true, owner,
                       ucx->multi_threaded ? " for several threads" : "",
                       opal_process_info.nodename, owner);
        goto fail_context;
    }
    OBJ_CONSTRUCT(&ucx->lock, opal_mutex_t);
    OBJ_CONSTRUCT(&ucx->procs, opal_hash_table_t);
    if (OPAL_SUCCESS != opal_hash_table_init(&ucx->procs, 64)) {
        OBJ_DESTRUCT(&ucx->procs);
        OBJ_DESTRUCT(&ucx->lock);
        ucp_worker_destroy(ucx->worker);
        goto fail_context;
    }
    return OMPI_SUCCESS;

fail_context:
    ucp_cleanup(ucx->context);
fail:
    ucx->context = NULL;
    ucx->worker = NULL;
    return OMPI_ERR_NOT_AVAILABLE;
}

void mca_common_ompix_ucx_close(mca_common_ompix_ucx_t *ucx)
{
    uint64_t key;
    void *value, *node = NULL;

    if (NULL == ucx->worker) {
        return;
    }
    while (OPAL_SUCCESS == (NULL == node
                            ? opal_hash_table_get_first_key_uint64(&ucx->procs, &key, &value,
                                                                   &node)
                            : opal_hash_table_get_next_key_uint64(&ucx->procs, &key, &value,
                                                                  node, &node))) {
        mca_common_ompix_ucx_proc_t *p = (mca_common_ompix_ucx_proc_t *) value;
        free(p->address);
        free(p);
    }
    OBJ_DESTRUCT(&ucx->procs);
    OBJ_DESTRUCT(&ucx->lock);
    ucp_worker_destroy(ucx->worker);
    ucp_cleanup(ucx->context);
    ucx->worker = NULL;
    ucx->context = NULL;
}

/* ---------------------------------------------------------------------- */
/* Endpoint table                                                          */

static mca_common_ompix_ucx_proc_t *mca_common_ompix_ucx_lookup(mca_common_ompix_ucx_t *ucx,
                                                                ompi_proc_t *proc)
{
    void *value = NULL;

    if (OPAL_SUCCESS != opal_hash_table_get_value_uint64(&ucx->procs, (uint64_t) (uintptr_t) proc,
                                                         &value)) {
        return NULL;
    }
    return (mca_common_ompix_ucx_proc_t *) value;
}

bool mca_common_ompix_ucx_proc_known(mca_common_ompix_ucx_t *ucx, ompi_proc_t *proc)
{
    bool known;

    OPAL_THREAD_LOCK(&ucx->lock);
    known = NULL != mca_common_ompix_ucx_lookup(ucx, proc);
    OPAL_THREAD_UNLOCK(&ucx->lock);
    return known;
}

int mca_common_ompix_ucx_proc_set_address(mca_common_ompix_ucx_t *ucx, ompi_proc_t *proc,
                                          const void *addr, size_t len)
{
    mca_common_ompix_ucx_proc_t *p;
    int ret = OMPI_SUCCESS;

    OPAL_THREAD_LOCK(&ucx->lock);
    if (NULL == mca_common_ompix_ucx_lookup(ucx, proc)) {
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
            ret = opal_hash_table_set_value_uint64(&ucx->procs, (uint64_t) (uintptr_t) proc, p);
        }
    }
    OPAL_THREAD_UNLOCK(&ucx->lock);
    return ret;
}

/* The endpoint to `proc`, created if there is none yet (*created says
 * whether this call created it). */
static int mca_common_ompix_ucx_get_ep(mca_common_ompix_ucx_t *ucx, ompi_proc_t *proc,
                                       ucp_ep_h *ep, bool *created)
{
    mca_common_ompix_ucx_proc_t *p;
    ucp_ep_params_t params;
    int ret = OMPI_SUCCESS;

    *created = false;
    OPAL_THREAD_LOCK(&ucx->lock);
    p = mca_common_ompix_ucx_lookup(ucx, proc);
    if (NULL == p) {
        ret = OMPI_ERR_UNREACH;
    } else if (NULL == p->ep) {
        memset(&params, 0, sizeof(params));
        params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
        params.address = (const ucp_address_t *) p->address;
        if (UCS_OK != ucp_ep_create(ucx->worker, &params, &p->ep)) {
            p->ep = NULL;
            ret = OMPI_ERR_UNREACH;
        }
        *created = NULL != p->ep;
    }
    *ep = NULL != p ? p->ep : NULL;
    OPAL_THREAD_UNLOCK(&ucx->lock);
    return ret;
}

int mca_common_ompix_ucx_proc_ep(mca_common_ompix_ucx_t *ucx, ompi_proc_t *proc, ucp_ep_h *ep)
{
    bool created;

    return mca_common_ompix_ucx_get_ep(ucx, proc, ep, &created);
}

bool mca_common_ompix_ucx_proc_connected(mca_common_ompix_ucx_t *ucx, ompi_proc_t *proc)
{
    mca_common_ompix_ucx_proc_t *p;
    bool connected;

    OPAL_THREAD_LOCK(&ucx->lock);
    p = mca_common_ompix_ucx_lookup(ucx, proc);
    connected = NULL != p && NULL != p->ep;
    OPAL_THREAD_UNLOCK(&ucx->lock);
    return connected;
}

/* Endpoints to the ranks above us, each flushed once created: the flush
 * returns when UCX's connection to that process is up (over TCP, when
 * the peer accepted our socket), so the peer's own endpoint, created
 * after the barrier, takes over that connection. */
static int mca_common_ompix_ucx_connect_up(mca_common_ompix_ucx_t *ucx,
                                           ompi_communicator_t *comm)
{
    int i, ret = OMPI_SUCCESS, me = ompi_comm_rank(comm);
    bool created;
    ucp_ep_h ep;

    for (i = me + 1; i < ompi_comm_size(comm) && OMPI_SUCCESS == ret; ++i) {
        ret = mca_common_ompix_ucx_get_ep(ucx, ompi_comm_peer_lookup(comm, i), &ep, &created);
        if (OMPI_SUCCESS == ret && created) {
            ret = opal_common_ucx_ep_flush(ep, ucx->worker);
        }
    }
    return ret;
}

int mca_common_ompix_ucx_connect_comm(mca_common_ompix_ucx_t *ucx, ompi_communicator_t *comm)
{
    int i, ret, bret;
    ucp_ep_h ep;

    ret = mca_common_ompix_ucx_connect_up(ucx, comm);
    /* Entered even after a failure: the others wait in it. */
    bret = comm->c_coll->coll_barrier(comm, comm->c_coll->coll_barrier_module);
    for (i = 0; i < ompi_comm_rank(comm) && OMPI_SUCCESS == ret; ++i) {
        ret = mca_common_ompix_ucx_proc_ep(ucx, ompi_comm_peer_lookup(comm, i), &ep);
    }
    return OMPI_SUCCESS != ret ? ret : bret;
}

/* ---------------------------------------------------------------------- */
/* Operations where ompix differs                                          */

int mca_common_ompix_ucx_atomic_post(mca_common_ompix_ucx_t *ucx, ucp_ep_h ep, uint64_t value,
                                     uint64_t addr, ucp_rkey_h rkey)
{
    ucp_request_param_t param;

    memset(&param, 0, sizeof(param));
    param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE;
    param.datatype = ucp_dt_make_contig(sizeof(value));
    return mca_common_ompix_ucx_wait(ucx, ucp_atomic_op_nbx(ep, UCP_ATOMIC_OP_ADD, &value, 1,
                                                            addr, rkey, &param),
                                     "ucp_atomic_op_nbx");
}

int mca_common_ompix_ucx_mem_map(mca_common_ompix_ucx_t *ucx, void *addr, size_t size,
                                 bool allocate, ucp_mem_h *memh, void **base)
{
    ucp_mem_map_params_t params;
    ucp_mem_attr_t attr;

    memset(&params, 0, sizeof(params));
    params.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH |
                        UCP_MEM_MAP_PARAM_FIELD_FLAGS;
    params.address = allocate ? NULL : addr;
    params.length = size;
    params.flags = allocate ? UCP_MEM_MAP_ALLOCATE : 0;
    if (UCS_OK != ucp_mem_map(ucx->context, &params, memh)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (!allocate) {
        *base = addr;
        return OMPI_SUCCESS;
    }
    attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS;
    if (UCS_OK != ucp_mem_query(*memh, &attr)) {
        ucp_mem_unmap(ucx->context, *memh);
        return OMPI_ERROR;
    }
    *base = attr.address;
    return OMPI_SUCCESS;
}
