/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Component: MCA parameters, open/close (help files, the registry entry MPI
 * extensions find), init/finalize (request free list, UCX tear-down),
 * query (which windows we serve; select hands over to osc_rdma2_window.c).
 */
#include "ompi_config.h"

#include <stdio.h>

#include "opal/mca/base/mca_base_var.h"
#include "ompi/mca/common/ompix/common_ompix_help.h"
#include "ompi/mca/common/ompix/common_ompix_registry.h"
#include "ompi/mca/common/ompix/common_ompix_var.h"
#include "ompi/mca/common/ompix/common_ompix_version.h"
#include "ompi/mca/osc/base/base.h"

#include "osc_rdma2_am.h"
#include "osc_rdma2_module.h"
#include "osc_rdma2_notify.h"
#include "osc_rdma2_exposed.h"
#include "osc_rdma2_overlap.h"
#include "osc_rdma2_request.h"
#include "osc_rdma2_api.h"

static int mca_osc_rdma2_register(void);
static int mca_osc_rdma2_open(void);
static int mca_osc_rdma2_close(void);
static int mca_osc_rdma2_init(bool enable_progress_threads, bool enable_mpi_threads);
static int mca_osc_rdma2_finalize(void);
static int mca_osc_rdma2_query(struct ompi_win_t *win, void **base, size_t size, int disp_unit,
                               struct ompi_communicator_t *comm, struct opal_info_t *info,
                               int flavor);

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

/* osc_rdma2_progress_thread: names, and the numbers older settings used. */
static const mca_base_var_enum_value_t mca_osc_rdma2_thread_values[] = {
    { MCA_OSC_RDMA2_THREAD_NEVER, "never" },
    { MCA_OSC_RDMA2_THREAD_AUTO, "auto" },
    { MCA_OSC_RDMA2_THREAD_ALWAYS, "always" },
    { 0, NULL },
};

/* osc_rdma2_acc_path */
static const mca_base_var_enum_value_t mca_osc_rdma2_acc_path_values[] = {
    { MCA_OSC_RDMA2_ACC_PATH_AUTO, "auto" },
    { MCA_OSC_RDMA2_ACC_PATH_AM, "am" },
    { MCA_OSC_RDMA2_ACC_PATH_LOCK, "lock" },
    { 0, NULL },
};

static void mca_osc_rdma2_register_int(const char *name, const char *description,
                                       mca_base_var_info_lvl_t level, mca_base_var_scope_t scope,
                                       mca_base_var_enum_t *enumerator, int *storage)
{
    (void) mca_base_component_var_register(&mca_osc_rdma2_component.super.osc_version, name,
                                           description, MCA_BASE_VAR_TYPE_INT, enumerator, 0, 0,
                                           level, scope, storage);
}

/* An int parameter whose values have names (ompi_info shows them). */
static void mca_osc_rdma2_register_enum(const char *name, const mca_base_var_enum_value_t *values,
                                        const char *description, mca_base_var_info_lvl_t level,
                                        mca_base_var_scope_t scope, int *storage)
{
    mca_common_ompix_var_register_enum(&mca_osc_rdma2_component.super.osc_version, name,
                                       description, values, MCA_BASE_VAR_FLAG_DWG, level, scope,
                                       storage);
}

/* osc_rdma2_ompix_version, osc_rdma2_ompix_provides */
static char *mca_osc_rdma2_ompix_version, *mca_osc_rdma2_ompix_provides;

static int mca_osc_rdma2_register(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;

    /* Above osc rdma (101) and osc sm (100), so default selection picks us
     * for every window we serve; shared windows are declined (see
     * mca_osc_rdma2_query) and stay with osc sm. */
    c->priority = 120;
    mca_osc_rdma2_register_int(
        "priority",
        "Priority of osc/rdma2 for the windows it can serve (MPI_Win_create, MPI_Win_allocate, "
        "MPI_Win_create_dynamic; shared windows are left to osc sm); stock osc rdma is 101 and "
        "osc sm 100, so the default wins default selection; 0 or --mca osc ^rdma2 turns it off",
        OPAL_INFO_LVL_3, MCA_BASE_VAR_SCOPE_GROUP, NULL, &c->priority);

    c->use_cma = true;
    (void) mca_base_component_var_register(
        &c->super.osc_version, "cma",
        "Put/Get to same-node peers on memory UCX can not map (MPI_Win_create buffers, "
        "attached regions; allocated windows when UCX has no shared-memory transport) with "
        "process_vm_readv/writev: truly passive and cheaper than UCX's emulation with active "
        "messages (used toward a peer when a probe read of its memory works)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_GROUP,
        &c->use_cma);

    c->progress_thread = MCA_OSC_RDMA2_THREAD_AUTO;
    mca_osc_rdma2_register_enum(
        "progress_thread", mca_osc_rdma2_thread_values,
        "Progress thread serving peers that reach this process through UCX's active-message "
        "emulation (TCP, off-node peers, created and dynamic windows without CMA), so that a "
        "target computing outside MPI does not stall them: never (0: targets progress only "
        "inside MPI calls), auto (1: started by the first window whose ranks do not all map "
        "each other's memory, i.e. whose accumulates take the lock), always (2: started by "
        "the first window); once started it runs until MPI_Finalize",
        OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_GROUP, &c->progress_thread);

    c->thread_max_sleep = 200;
    mca_osc_rdma2_register_int(
        "progress_thread_max_sleep",
        "Longest nap in microseconds of the idle progress thread (it naps 1, 2, 4, ... "
        "microseconds up to this after finding no work): the latency a target outside MPI "
        "adds to the first operation after a quiet period, against wake-ups per second",
        OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_GROUP, NULL, &c->thread_max_sleep);

    c->acc_path = MCA_OSC_RDMA2_ACC_PATH_AUTO;
    mca_osc_rdma2_register_enum(
        "acc_path", mca_osc_rdma2_acc_path_values,
        "How accumulate-family operations that are not element atomics (every accumulate of "
        "windows whose ranks do not all map each other's memory) reach a target: auto (0: as "
        "one active message the target applies under its own accumulate lock, toward targets "
        "whose lock UCX only emulates, e.g. over TCP; elsewhere this rank takes the target's "
        "lock), am (1: active messages toward every other process), lock (2: always take the "
        "target's lock: a compare-and-swap, a get, a put and a release).  Active messages need "
        "the target's progress (its MPI calls or the progress thread), like UCX's emulation",
        OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_GROUP, &c->acc_path);

    c->acc_pass_bytes = 8;
    mca_osc_rdma2_register_int(
        "acc_pass_bytes",
        "Windows whose accumulates are element atomics (MPI_Win_allocate, every rank on one "
        "node): an accumulate or get_accumulate of several elements and at least this many "
        "bytes runs as one pass of the MPI operation over the whole range (ompi_op_reduce, "
        "vectorized) under the target's accumulate lock, which keeps element atomics to that "
        "target out meanwhile, instead of one atomic or compare-and-swap loop per element; "
        "-1: element atomics at every size.  A pass costs about 200 instructions and 4 "
        "atomics more than one element; an element about 90 instructions and an atomic "
        "(native integer ops) or 170 and a compare-and-swap (the rest), so from 8 bytes the "
        "pass is as cheap or cheaper for every type",
        OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_GROUP, NULL, &c->acc_pass_bytes);

    c->notify_slots = 65536;
    mca_osc_rdma2_register_int(
        "notify_slots",
        "Notification counters (64-bit) each process has per window for notified RMA "
        "(MPIX_Put_notify, MPIX_Win_read_notify, ...), until MPIX_Win_set_num_notify changes "
        "it: allocated with the window, so notifications need nothing from their target, but "
        "physical memory is used only for the pages of counters that are used (8 bytes each, "
        "at least 1)",
        OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_GROUP, NULL, &c->notify_slots);

    c->verbose = 0;
    mca_osc_rdma2_register_int(
        "verbose",
        "Verbosity of osc/rdma2 (0: errors only, 1: failed UCX and CMA operations, 10: window "
        "set-up and accumulate mechanism, 20: how each peer is reached)",
        OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL, NULL, &c->verbose);

    /* Open MPI's opal_common_ucx_tls/devices apply to us when set. */
    mca_common_ompix_ucx_register();
    mca_common_ompix_version_register(&c->super.osc_version, &mca_osc_rdma2_ompix_version,
                                      &mca_osc_rdma2_ompix_provides);
    mca_osc_rdma2_mpit_register();
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
    .notify_slots = mca_osc_rdma2_notify_slots,
    .read_notify = mca_osc_rdma2_notify_read,
    .put_notify = mca_osc_rdma2_notify_put,
    .get_notify = mca_osc_rdma2_notify_get,
    .accumulate_notify = mca_osc_rdma2_notify_accumulate,
    .set_num_notify = mca_osc_rdma2_notify_set_num,
    .get_accumulate_notify = mca_osc_rdma2_notify_get_accumulate,
};

static mca_common_ompix_registry_entry_t mca_osc_rdma2_api_entry = {
    .name = MCA_OSC_RDMA2_API_NAME,
    .version = MCA_OSC_RDMA2_API_VERSION,
    .table = &mca_osc_rdma2_api,
};

static int mca_osc_rdma2_open(void)
{
    /* help-osc-rdma2.txt: found beside Open MPI's own help files, or (a
     * plugin build with --prefix) where common/ompix says. */
    mca_common_ompix_help_init();
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
    for (int i = 0; i < MCA_OSC_RDMA2_ACC_TURNS; ++i) {
        OBJ_CONSTRUCT(&mca_osc_rdma2_component.acc_turn[i], opal_mutex_t);
    }
    mca_osc_rdma2_overlap_init();
    mca_osc_rdma2_exposed_init();
    return mca_osc_rdma2_request_init();
}

static int mca_osc_rdma2_finalize(void)
{
    mca_osc_rdma2_ucx_fini();
    mca_osc_rdma2_request_fini();
    mca_osc_rdma2_overlap_fini();
    mca_osc_rdma2_exposed_fini();
    for (int i = 0; i < MCA_OSC_RDMA2_ACC_TURNS; ++i) {
        OBJ_DESTRUCT(&mca_osc_rdma2_component.acc_turn[i]);
    }
    OBJ_DESTRUCT(&mca_osc_rdma2_component.lock);
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_query(struct ompi_win_t *win, void **base, size_t size, int disp_unit,
                               struct ompi_communicator_t *comm, struct opal_info_t *info,
                               int flavor)
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
