/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Component: MCA parameters, query (which windows we serve), select (hands
 * over to osc_rdma2_window.c), finalize, and the module's function table.
 */
#include "ompi_config.h"

#include "opal/mca/base/mca_base_var.h"
#include "ompi/mca/common/ompix/common_ompix_registry.h"
#include "ompi/mca/osc/base/base.h"

#include "osc_rdma2_module.h"
#include "osc_rdma2_overlap.h"
#include "osc_rdma2_request.h"
#include "osc_rdma2_api.h"

static int mca_osc_rdma2_register(void);
static int mca_osc_rdma2_open(void);
static int mca_osc_rdma2_close(void);
static int mca_osc_rdma2_init(bool enable_progress_threads, bool enable_mpi_threads);
static int mca_osc_rdma2_finalize(void);
static int mca_osc_rdma2_query(struct ompi_win_t *win, void **base, size_t size, int disp_unit,
                       struct ompi_communicator_t *comm, struct opal_info_t *info, int flavor);

mca_osc_rdma2_component_t mca_osc_rdma2_component = {
    .super = {
        .osc_version = {
            OMPI_OSC_BASE_VERSION_3_0_0,
            .mca_component_name = "rdma2",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_open_component = mca_osc_rdma2_open,
            .mca_close_component = mca_osc_rdma2_close,
            .mca_register_component_params = mca_osc_rdma2_register,
        },
        .osc_data = {
            MCA_BASE_METADATA_PARAM_NONE
        },
        .osc_init = mca_osc_rdma2_init,
        .osc_query = mca_osc_rdma2_query,
        .osc_select = mca_osc_rdma2_window_create,
        .osc_finalize = mca_osc_rdma2_finalize,
    },
};

static int mca_osc_rdma2_register(void)
{
    /* Above osc rdma (101) and osc sm (100), so default selection picks us
     * for every window we serve; shared windows are declined (see
     * mca_osc_rdma2_query) and stay with osc sm. */
    mca_osc_rdma2_component.priority = 120;
    (void) mca_base_component_var_register(
        &mca_osc_rdma2_component.super.osc_version, "priority",
        "Priority of osc/rdma2 for the windows it can serve (MPI_Win_create, "
        "MPI_Win_allocate, MPI_Win_create_dynamic); stock osc rdma is 101 and osc sm 100, so the default wins "
        "default selection; 0 or --mca osc ^rdma2 turns it off",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_3, MCA_BASE_VAR_SCOPE_GROUP,
        &mca_osc_rdma2_component.priority);

    mca_osc_rdma2_component.max_attach = 64;
    (void) mca_base_component_var_register(
        &mca_osc_rdma2_component.super.osc_version, "max_attach",
        "Most regions one rank may have attached to one dynamic window at a time "
        "(each costs 224 bytes in that window's state block); must be the same on "
        "every process",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_GROUP,
        &mca_osc_rdma2_component.max_attach);

    mca_osc_rdma2_component.use_cma = true;
    (void) mca_base_component_var_register(
        &mca_osc_rdma2_component.super.osc_version, "cma",
        "Put/Get to same-node peers on memory UCX can not map (MPI_Win_create buffers, "
        "dynamic regions) with process_vm_readv/writev: truly passive and cheaper than "
        "UCX's emulation with active messages (used when the probe read works)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_GROUP,
        &mca_osc_rdma2_component.use_cma);

    mca_osc_rdma2_component.progress_thread = MCA_OSC_RDMA2_THREAD_AUTO;
    (void) mca_base_component_var_register(
        &mca_osc_rdma2_component.super.osc_version, "progress_thread",
        "Progress thread serving peers that reach this process through UCX's active-message "
        "emulation (TCP, off-node peers, created and dynamic windows), so that a target "
        "computing outside MPI does not stall them: 0 never (targets progress only inside "
        "MPI calls), 1 started by the first window some peer reaches through UCX, "
        "2 started by the first window",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_GROUP,
        &mca_osc_rdma2_component.progress_thread);

    mca_osc_rdma2_component.thread_max_sleep = 200;
    (void) mca_base_component_var_register(
        &mca_osc_rdma2_component.super.osc_version, "progress_thread_max_sleep",
        "Longest nap in microseconds of the idle progress thread (it naps 1, 2, 4, ... "
        "microseconds up to this after finding no work): the latency a target outside "
        "MPI adds to the first operation after a quiet period, against wake-ups per second",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_GROUP,
        &mca_osc_rdma2_component.thread_max_sleep);

    mca_osc_rdma2_component.verbose = 0;
    (void) mca_base_component_var_register(
        &mca_osc_rdma2_component.super.osc_version, "verbose",
        "Verbosity of osc/rdma2 (0: errors only, 1: failed UCX operations, 10: window "
        "set-up and accumulate mechanism, 20: how each peer is reached)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL,
        &mca_osc_rdma2_component.verbose);

    /* Open MPI's opal_common_ucx_tls/devices apply to us when set. */
    mca_common_ompix_ucx_register();
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* What MPI extensions reach through common/ompix's registry               */

static int mca_osc_rdma2_api_serves(MPI_Win win)
{
    return NULL != win && NULL != win->w_osc_module &&
           mca_osc_rdma2_free == win->w_osc_module->osc_free;
}

static const mca_osc_rdma2_api_t mca_osc_rdma2_api = {
    .serves = mca_osc_rdma2_api_serves,
};

static mca_common_ompix_registry_entry_t mca_osc_rdma2_api_entry = {
    .name = MCA_OSC_RDMA2_API_NAME,
    .version = MCA_OSC_RDMA2_API_VERSION,
    .table = &mca_osc_rdma2_api,
};

static int mca_osc_rdma2_open(void)
{
    mca_osc_rdma2_component.output = opal_output_open(NULL);
    opal_output_set_verbosity(mca_osc_rdma2_component.output,
                              mca_osc_rdma2_component.verbose);
    mca_common_ompix_registry_publish(&mca_osc_rdma2_api_entry);
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_close(void)
{
    mca_common_ompix_registry_withdraw(&mca_osc_rdma2_api_entry);
    opal_output_close(mca_osc_rdma2_component.output);
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_init(bool enable_progress_threads, bool enable_mpi_threads)
{
    (void) enable_progress_threads;
    /* UCX itself is started by the first window, so programs that never
     * create one pay nothing. */
    mca_osc_rdma2_component.enable_mpi_threads = enable_mpi_threads;
    mca_osc_rdma2_component.ucx_ready = false;
    mca_osc_rdma2_component.ucx_failed = false;
    mca_osc_rdma2_component.thread_polls = false;
    mca_osc_rdma2_component.num_modules = 0;
    OBJ_CONSTRUCT(&mca_osc_rdma2_component.lock, opal_recursive_mutex_t);
    mca_osc_rdma2_overlap_init();
    return mca_osc_rdma2_request_init();
}

static int mca_osc_rdma2_finalize(void)
{
    mca_osc_rdma2_ucx_fini();
    mca_osc_rdma2_request_fini();
    mca_osc_rdma2_overlap_fini();
    OBJ_DESTRUCT(&mca_osc_rdma2_component.lock);
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_query(struct ompi_win_t *win, void **base, size_t size, int disp_unit,
                       struct ompi_communicator_t *comm, struct opal_info_t *info, int flavor)
{
    int ret;

    (void) win; (void) base; (void) size; (void) disp_unit; (void) info;
    /* Shared windows need one contiguous segment mapped by every rank: osc
     * sm serves them. */
    if (MPI_WIN_FLAVOR_SHARED == flavor) {
        return -1;
    }
    if (OMPI_COMM_IS_INTER(comm) || mca_osc_rdma2_component.priority <= 0) {
        return -1;
    }
    /* Open MPI calls only the best component's select, with no fallback:
     * make sure UCX starts here, so that if it can not, the stock
     * components serve the window instead of window creation failing. */
    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    ret = mca_osc_rdma2_ucx_init();
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    if (OMPI_SUCCESS != ret) {
        return -1;
    }
    return mca_osc_rdma2_component.priority;
}
