/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Component: MCA parameters; staying loaded beside the selected PML
 * without being it (Open MPI 4.1 selects one PML and closes and unloads
 * the others: we decline selection, and in the close of an unselected
 * component retain ourselves, as pml/monitoring does); wrapping the
 * selected PML's isend_init and irecv_init, and nothing else of mca_pml;
 * the registry entry through which the channel extension reaches us; the
 * tear-down, chained to the selected PML's finalize.
 */
#include "ompi_config.h"

#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_component_repository.h"
#include "ompi/mca/pml/base/base.h"
#include "ompi/mca/common/ompix/common_ompix_compat_pml.h"
#include "ompi/mca/common/ompix/common_ompix_help.h"
#include "ompi/mca/common/ompix/common_ompix_registry.h"
#include "ompi/mca/common/ompix/common_ompix_var.h"
#include "ompi/mca/common/ompix/common_ompix_version.h"

#include "pml_chan.h"

static int mca_pml_chan_register(void);
static int mca_pml_chan_open(void);
static int mca_pml_chan_close(void);
static mca_pml_base_module_t *mca_pml_chan_init(int *priority, bool enable_progress_threads,
                                                bool enable_mpi_threads);
static int mca_pml_chan_finalize(void);

mca_pml_chan_component_t mca_pml_chan_component = {
    .super = {
        .pmlm_version = {
            OMPIX_PML_BASE_VERSION,
            .mca_component_name = "chan",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_open_component = mca_pml_chan_open,
            .mca_close_component = mca_pml_chan_close,
            .mca_register_component_params = mca_pml_chan_register,
        },
        .pmlm_data = {
            MCA_BASE_METADATA_PARAM_NONE
        },
        .pmlm_init = mca_pml_chan_init,
        .pmlm_finalize = mca_pml_chan_finalize,
    },
};

/* Keeps our code mapped while our variables or hooks point into it: a DSO
 * (the plugin build, 4.1's default in-tree build) takes a reference in the
 * component repository; linked into libmpi (5.0's default in-tree build:
 * one of the pml framework's static components) we have no repository
 * item, and are never unmapped. */
static int mca_pml_chan_retain(void)
{
    const mca_base_component_t **s = ompi_pml_base_framework.framework_static_components;
    const mca_base_component_t *self = &mca_pml_chan_component.super.pmlm_version;

    for (int i = 0; NULL != s && NULL != s[i]; ++i) {
        if (s[i] == self) {
            return OPAL_SUCCESS;
        }
    }
    return mca_base_component_repository_retain_component(self->mca_type_name,
                                                          self->mca_component_name);
}

/* pml_chan_enable: the numbers older settings used stay valid. */
static const mca_base_var_enum_value_t mca_pml_chan_enable_values[] = {
    { 0, "off" },
    { 1, "on" },
    { 0, NULL },
};

/* pml_chan_remote */
static const mca_base_var_enum_value_t mca_pml_chan_remote_values[] = {
    { MCA_PML_CHAN_REMOTE_TAG, "tag" },
    { MCA_PML_CHAN_REMOTE_AM, "am" },
    { 0, NULL },
};

/* pml_chan_ompix_version, pml_chan_ompix_provides */
static char *mca_pml_chan_ompix_version, *mca_pml_chan_ompix_provides;

/* Our variables, registered without MCA_BASE_VAR_FLAG_DWG (which
 * mca_base_component_var_register adds): PML selection closes us as an
 * unselected component and would deregister them with our group, so MPI_T
 * would lose them after MPI_Init, although we stay loaded (their storage
 * stays mapped).  mca_pml_chan_close deregisters them when we do not stay. */
static void mca_pml_chan_register_var(const char *name, const char *description,
                                      mca_base_var_type_t type, mca_base_var_enum_t *enumerator,
                                      mca_base_var_info_lvl_t level, mca_base_var_scope_t scope,
                                      void *storage)
{
    const mca_base_component_t *v = &mca_pml_chan_component.super.pmlm_version;

    (void) mca_base_var_register(v->mca_project_name, v->mca_type_name, v->mca_component_name,
                                 name, description, type, enumerator, 0, 0, level, scope,
                                 storage);
}

/* An int variable whose values have names: any other value is refused by
 * Open MPI's variable system (a message, and the default stays). */
static void mca_pml_chan_register_enum(const char *name, const mca_base_var_enum_value_t *values,
                                       const char *description, mca_base_var_info_lvl_t level,
                                       int *storage)
{
    /* No MCA_BASE_VAR_FLAG_DWG, as mca_pml_chan_register_var says. */
    mca_common_ompix_var_register_enum(&mca_pml_chan_component.super.pmlm_version, name,
                                       description, values, 0, level, MCA_BASE_VAR_SCOPE_GROUP,
                                       storage);
}

/* Every variable of our group (the framework deregisters only those flagged
 * DWG), before the close that unmaps their storage. */
static void mca_pml_chan_deregister(void)
{
    const mca_base_component_t *v = &mca_pml_chan_component.super.pmlm_version;
    const mca_base_var_group_t *group;
    opal_value_array_t *vars;
    int index = mca_base_var_group_find(v->mca_project_name, v->mca_type_name,
                                        v->mca_component_name);

    if (0 > index || OPAL_SUCCESS != mca_base_var_group_get(index, &group)) {
        return;
    }
    vars = (opal_value_array_t *) &group->group_vars;
    for (size_t i = 0; i < opal_value_array_get_size(vars); ++i) {
        (void) mca_base_var_deregister(OPAL_VALUE_ARRAY_GET_ITEM(vars, int, i));
    }
}

static int mca_pml_chan_register(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    c->enable = 1;
    mca_pml_chan_register_enum(
        "enable", mca_pml_chan_enable_values,
        "Bound channels (MPIX_Bind_channel) through pml/chan's engine: on (1, default) runs a "
        "channel over its own UCX worker (a shared-memory ring on one node, messages "
        "between nodes: pml_chan_remote); off (0) keeps pml/chan loaded only to describe "
        "persistent requests, and the channel extension runs every channel on its generic "
        "fallback.  pml/chan is never the selected "
        "PML: it stays loaded beside it and wraps only its isend_init and irecv_init (with an "
        "explicit --mca pml X, list it too: --mca pml X,chan)",
        OPAL_INFO_LVL_2, &c->enable);

    c->verbose = 0;
    mca_pml_chan_register_var(
        "verbose",
        "Verbosity of pml/chan (0: errors only, 10: loading and UCX bring-up, 20: each "
        "channel's path as it is connected and unbound)",
        MCA_BASE_VAR_TYPE_INT, NULL, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL,
        &c->verbose);

    c->debug_ready = false;
    mca_pml_chan_register_var(
        "debug_ready",
        "Check ready channels (bound from MPI_Rsend_init): "
        "a send start whose receive is not yet started is erroneous; when true, MPI_Start "
        "reports it (MPI_ERR_OTHER and a message) instead of overwriting the receiver's "
        "slot.  Costs the receiver one credit store per start; set it on every process",
        MCA_BASE_VAR_TYPE_BOOL, NULL, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_GROUP,
        &c->debug_ready);

    c->large_min = 1048576;
    mca_pml_chan_register_var(
        "large_min",
        "Smallest message (bytes) of a bound channel between two processes of one node that "
        "the sender writes straight into the receiver's buffer (one copy, by the kernel: "
        "cma, process_vm_writev) instead of through the receiver's shared-memory ring (a copy "
        "in, a copy out); 0: never.  Applies when the receive's buffer is contiguous; the "
        "receiver's value decides, at bind, and it stays on the ring if mapping its buffer "
        "with UCX fails.  Where cma is not allowed the sender uses UCX puts.  Default 1 MiB: "
        "below it the ring was faster in every measurement on the machine measured "
        "(README-design.md); from it the ring was faster only on a quiet machine, slower "
        "under load, and its shared memory (slack x size per channel) grows",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_LOCAL,
        &c->large_min);

    c->large_sync_min = 65536;
    mca_pml_chan_register_var(
        "large_sync_min",
        "A lower pml_chan_large_min for synchronous channels (bound from MPI_Ssend_init): "
        "they take the large path from the lower of the two (0: pml_chan_large_min; "
        "pml_chan_large_min 0 turns the path off for every channel).  A synchronous send completes only once its receive "
        "started, and a halo exchange starts its receives first, so the in-place write waits "
        "for nothing the ring would not; it saves the receiver's copy out and the ring's two "
        "slots per start (callgrind, a 64 KiB 2-D halo of 8 synchronous channels in a bundle, "
        "2 ranks: the starts' instructions 296 000 -> 2 200 per iteration)",
        MCA_BASE_VAR_TYPE_SIZE_T, NULL, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_LOCAL,
        &c->large_sync_min);

    c->large_cma = true;
    mca_pml_chan_register_var(
        "large_cma",
        "Whether a sender on pml_chan_large_min's path writes with cma (process_vm_writev) "
        "when the kernel allows it (true, default) or always with UCX puts and a flush, which "
        "UCX 1.13 emulates with active messages between processes of one node (for "
        "comparison and to test that way)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL,
        &c->large_cma);

    c->remote = MCA_PML_CHAN_REMOTE_TAG;
    mca_pml_chan_register_enum(
        "remote", mca_pml_chan_remote_values,
        "How a channel's messages travel when its two processes can not map each other's "
        "memory (other nodes, or UCX without shared memory): tag (default), one tag-matched "
        "UCX message into a receive posted into the receiver's slot (ucp_tag_send_nbx: over "
        "TCP one copy and a send() per message); am, one UCX active message whose handler "
        "copies it into the slot (ucp_am_send_nbx: over TCP a sendmsg() of three parts, "
        "slower; for comparison and to test that way).  A channel takes tag only when both "
        "processes allow it",
        OPAL_INFO_LVL_9, &c->remote);

    /* Strings, freed by the variable system: deregistered with our group
     * (coll/persist's copies stay visible after MPI_Init). */
    mca_common_ompix_version_register(&c->super.pmlm_version, &mca_pml_chan_ompix_version,
                                      &mca_pml_chan_ompix_provides);
    /* A framework that was registered but never opened (ompi_info, MPI_T
     * without MPI_Init) unloads us without calling our close: stay mapped,
     * since our variables, registered without DWG, point into our data. */
    (void) mca_pml_chan_retain();
    mca_common_ompix_ucx_register();
    mca_pml_chan_mpit_register();
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* What the channel extension reaches through common/ompix's registry     */

static mca_pml_chan_api_t mca_pml_chan_api = {
    .describe = mca_pml_chan_describe,
};

static mca_common_ompix_registry_entry_t mca_pml_chan_api_entry = {
    .name = MCA_PML_CHAN_API_NAME,
    .version = MCA_PML_CHAN_API_VERSION,
    .table = &mca_pml_chan_api,
};

static void mca_pml_chan_publish(void)
{
    if (mca_pml_chan_component.enable) {
        mca_pml_chan_api.prepare = mca_pml_chan_prepare;
        mca_pml_chan_api.connect = mca_pml_chan_connect;
        mca_pml_chan_api.abandon = mca_pml_chan_abandon;
        mca_pml_chan_api.unbind = mca_pml_chan_unbind;
        mca_pml_chan_api.start = mca_pml_chan_request_start;
        mca_pml_chan_api.settle = mca_pml_chan_request_settle;
        mca_pml_chan_api.hold = mca_pml_chan_request_hold;
        mca_pml_chan_api.poll = mca_pml_chan_request_test;
        mca_pml_chan_api.wait = mca_pml_chan_request_wait;
        mca_pml_chan_api.direction = mca_pml_chan_request_direction;
        mca_pml_chan_api.progress = mca_pml_chan_progress;
        mca_pml_chan_api.start_round = mca_pml_chan_request_start_round;
    }
    mca_common_ompix_registry_publish(&mca_pml_chan_api_entry);
}

/* ---------------------------------------------------------------------- */
/* Staying loaded beside the selected PML                                  */

static int mca_pml_chan_open(void)
{
    mca_common_ompix_help_init();
    mca_pml_chan_component.output = opal_output_open(NULL);
    opal_output_set_verbosity(mca_pml_chan_component.output, mca_pml_chan_component.verbose);
    return OMPI_SUCCESS;
}

/* Never selected: the default include list (ob1, yalla, ucx, cm) does not
 * name us, and were we asked, we decline. */
static mca_pml_base_module_t *mca_pml_chan_init(int *priority, bool enable_progress_threads,
                                                bool enable_mpi_threads)
{
    (void) enable_progress_threads; (void) enable_mpi_threads;
    *priority = -1;
    return NULL;
}

/* The selected PML's finalize, chained: our channels and UCX go first, while
 * Open MPI is still whole. */
static int mca_pml_chan_selected_finalize(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_base_component_finalize_fn_t next = c->pml_finalize;

    if (c->active) {
        mca_common_ompix_registry_withdraw(&mca_pml_chan_api_entry);
        mca_pml_chan_bind_fini();
        mca_pml_chan_ucx_fini();
        if (mca_pml.pml_isend_init == mca_pml_chan_isend_init) {
            mca_pml.pml_isend_init = c->isend_init;
        }
        if (mca_pml.pml_irecv_init == mca_pml_chan_irecv_init) {
            mca_pml.pml_irecv_init = c->irecv_init;
        }
        mca_pml_base_selected_component.pmlm_finalize = next;
        mca_pml_chan_describe_fini();
        OBJ_DESTRUCT(&c->lock);
        c->active = false;
        opal_output_close(c->output);
        /* The repository keeps our extra reference: the code stays mapped
         * until Open MPI unloads everything, as pml/monitoring's does. */
    }
    return NULL != next ? next() : OMPI_SUCCESS;
}

static int mca_pml_chan_activate(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    if (OPAL_SUCCESS != mca_pml_chan_retain()) {
        return OMPI_ERROR;
    }
    OBJ_CONSTRUCT(&c->lock, opal_mutex_t);
    OBJ_CONSTRUCT(&c->busy, opal_list_t);
    OBJ_CONSTRUCT(&c->ends, opal_list_t);
    OBJ_CONSTRUCT(&c->zombies, opal_list_t);
    OBJ_CONSTRUCT(&c->spares, opal_list_t);
    if (OMPI_SUCCESS != mca_pml_chan_describe_init()) {
        OBJ_DESTRUCT(&c->lock);
        return OMPI_ERROR;
    }
    c->isend_init = mca_pml.pml_isend_init;
    c->irecv_init = mca_pml.pml_irecv_init;
    mca_pml.pml_isend_init = mca_pml_chan_isend_init;
    mca_pml.pml_irecv_init = mca_pml_chan_irecv_init;
    c->pml_finalize = mca_pml_base_selected_component.pmlm_finalize;
    mca_pml_base_selected_component.pmlm_finalize = mca_pml_chan_selected_finalize;
    c->active = true;
    mca_pml_chan_publish();
    MCA_PML_CHAN_VERBOSE(10, "loaded beside pml %s, engine %s",
                         mca_pml_base_selected_component.pmlm_version.mca_component_name,
                         c->enable ? "on" : "off");
    return OMPI_SUCCESS;
}

/* Called when PML selection closes the components it did not select (and
 * when ompi_info closes the framework, no PML selected: then we just
 * close). */
static int mca_pml_chan_close(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    if (!c->active && NULL != mca_pml.pml_isend_init && NULL != mca_pml.pml_irecv_init &&
        OMPI_SUCCESS == mca_pml_chan_activate()) {
        return OMPI_SUCCESS;
    }
    if (!c->active) {
        opal_output_close(c->output);
        mca_pml_chan_deregister();
    }
    return OMPI_SUCCESS;
}

static int mca_pml_chan_finalize(void)
{
    return OMPI_SUCCESS;
}
