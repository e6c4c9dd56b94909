/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Component: its MCA parameters, and the module it gives each
 * intra-communicator.  The module fills only persistent-collective (*_init)
 * slots, so blocking and nonblocking collectives stay with the stock
 * components; slots it leaves empty are served by libnbc.
 */
#include "ompi_config.h"

#include "opal/runtime/opal_progress.h"
#include "ompi/mca/coll/base/base.h"
#include "ompi/mca/common/ompix/common_ompix_compat_coll.h"
#include "ompi/mca/common/ompix/common_ompix_var.h"
#include "ompi/mca/common/ompix/common_ompix_version.h"

#include "coll_persist.h"

const char *mca_coll_persist_component_version_string =
    "ompix persist collective MCA component version " OMPI_VERSION;

static int mca_coll_persist_component_register(void);
static int mca_coll_persist_component_open(void);
static int mca_coll_persist_component_close(void);
static int mca_coll_persist_init_query(bool enable_progress_threads, bool enable_mpi_threads);
static mca_coll_base_module_t *mca_coll_persist_comm_query(struct ompi_communicator_t *comm,
                                                           int *priority);

mca_coll_persist_component_t mca_coll_persist_component = {
    .super = {
        .collm_version = {
            OMPIX_COLL_BASE_VERSION,
            .mca_component_name = "persist",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_open_component = mca_coll_persist_component_open,
            .mca_close_component = mca_coll_persist_component_close,
            .mca_register_component_params = mca_coll_persist_component_register,
        },
        .collm_data = {
            MCA_BASE_METADATA_PARAM_CHECKPOINT
        },
        .collm_init_query = mca_coll_persist_init_query,
        .collm_comm_query = mca_coll_persist_comm_query,
    },
    /* Above coll libnbc (10), the other component with *_init slots. */
    .priority = 40,
    .bcast_algorithm = MCA_COLL_PERSIST_AUTO,
    .allreduce_algorithm = MCA_COLL_PERSIST_AUTO,
    .bcast_large = 128 * 1024,
    .allreduce_large = 64 * 1024,
    .allgather_algorithm = MCA_COLL_PERSIST_AUTO,
    .alltoall_algorithm = MCA_COLL_PERSIST_AUTO,
    .allgather_large = 32 * 1024,
    .alltoall_small = 256,
    .shm_max_bytes = 4096,
    .shm_max_ranks = 16,
    .shm_bcast_depth = 8,
    .bundle = 0,
};

/* The algorithm parameters' values, by name; the numbers older settings
 * used stay valid, any other value is refused by Open MPI's variable system
 * (a message, and the default stays). */
static const mca_base_var_enum_value_t mca_coll_persist_bcast_values[] = {
    { MCA_COLL_PERSIST_AUTO, "auto" },
    { MCA_COLL_PERSIST_BCAST_BINOMIAL, "binomial" },
    { MCA_COLL_PERSIST_BCAST_SCATTER_ALLGATHER, "scatter_allgather" },
    { 0, NULL },
};

static const mca_base_var_enum_value_t mca_coll_persist_allreduce_values[] = {
    { MCA_COLL_PERSIST_AUTO, "auto" },
    { MCA_COLL_PERSIST_ALLREDUCE_RECURSIVE_DOUBLING, "recursive_doubling" },
    { MCA_COLL_PERSIST_ALLREDUCE_RING, "ring" },
    { 0, NULL },
};

static const mca_base_var_enum_value_t mca_coll_persist_allgather_values[] = {
    { MCA_COLL_PERSIST_AUTO, "auto" },
    { MCA_COLL_PERSIST_EXCHANGE_BRUCK, "bruck" },
    { MCA_COLL_PERSIST_EXCHANGE_LINEAR, "ring" },
    { 0, NULL },
};

static const mca_base_var_enum_value_t mca_coll_persist_alltoall_values[] = {
    { MCA_COLL_PERSIST_AUTO, "auto" },
    { MCA_COLL_PERSIST_EXCHANGE_BRUCK, "bruck" },
    { MCA_COLL_PERSIST_EXCHANGE_LINEAR, "pairwise" },
    { 0, NULL },
};

static const mca_base_var_enum_value_t mca_coll_persist_bundle_values[] = {
    { MCA_COLL_PERSIST_BUNDLE_OFF, "off" },
    { MCA_COLL_PERSIST_BUNDLE_ON, "on" },
    { MCA_COLL_PERSIST_BUNDLE_NEIGHBOR, "neighbor" },
    { 0, NULL },
};

/* Every parameter is an int of the component, documented here; values
 * names those whose values are a choice. */
static const struct {
    const char *name;
    int *storage;
    const mca_base_var_enum_value_t *values;
    const char *description;
} mca_coll_persist_params[] = {
    {"priority", &mca_coll_persist_component.priority, NULL,
     "Priority of coll persist. It only fills the persistent-collective (MPIX_*_init) "
     "slots, so any value above coll libnbc's (10) makes it serve them; 0 or "
     "--mca coll ^persist leaves them to libnbc"},
    {"bcast_algorithm", &mca_coll_persist_component.bcast_algorithm,
     mca_coll_persist_bcast_values,
     "Persistent broadcast algorithm: auto (0) chooses by message size (see bcast_large "
     "and shm_max_bytes), binomial (1) a binomial tree, scatter_allgather (2) a binomial "
     "scatter then a ring allgather"},
    {"bcast_large", &mca_coll_persist_component.bcast_large, NULL,
     "Message size in bytes from which the automatic choice broadcasts by scatter "
     "and allgather instead of a binomial tree"},
    {"allreduce_algorithm", &mca_coll_persist_component.allreduce_algorithm,
     mca_coll_persist_allreduce_values,
     "Persistent allreduce algorithm: auto (0) chooses by message size and operation (see "
     "allreduce_large and shm_max_bytes), recursive_doubling (1), ring (2) a ring "
     "reduce-scatter then a ring allgather (commutative operations only; others use "
     "recursive doubling)"},
    {"allreduce_large", &mca_coll_persist_component.allreduce_large, NULL,
     "Message size in bytes from which the automatic choice uses the ring allreduce "
     "for commutative operations"},
    {"allgather_algorithm", &mca_coll_persist_component.allgather_algorithm,
     mca_coll_persist_allgather_values,
     "Persistent allgather algorithm: auto (0) chooses by size (see allgather_large), bruck "
     "(1) Bruck's (log2 p rounds through a scratch buffer), ring (2) a ring on the user's "
     "buffer"},
    {"allgather_large", &mca_coll_persist_component.allgather_large, NULL,
     "Total gathered bytes from which the automatic choice uses the ring allgather "
     "instead of Bruck's (which it uses for more than 2 ranks below this)"},
    {"alltoall_algorithm", &mca_coll_persist_component.alltoall_algorithm,
     mca_coll_persist_alltoall_values,
     "Persistent alltoall algorithm: auto (0) chooses by size (see alltoall_small), bruck "
     "(1) Bruck's (log2 p rounds, blocks packed by copies), pairwise (2) a pairwise "
     "exchange"},
    {"alltoall_small", &mca_coll_persist_component.alltoall_small, NULL,
     "Block size in bytes below which the automatic choice uses Bruck's alltoall (for "
     "more than 2 ranks) instead of the pairwise exchange"},
    {"shm_max_bytes", &mca_coll_persist_component.shm_max_bytes, NULL,
     "Largest message in bytes for which a barrier, broadcast or allreduce on a "
     "communicator within one node is planned over a shared segment (a start is a copy "
     "and a flag store) instead of point-to-point requests, when the algorithm is chosen "
     "automatically; 0 disables the shared-memory plans"},
    {"shm_max_ranks", &mca_coll_persist_component.shm_max_ranks, NULL,
     "Largest communicator served by the shared-memory plans (every rank reads every "
     "other rank's slot, so the cost grows with the size)"},
    {"shm_bcast_depth", &mca_coll_persist_component.shm_bcast_depth, NULL,
     "Slots of a shared-memory broadcast: how many starts the root may complete before "
     "every other rank has copied the oldest one out (at least 1)"},
    {"bundle", &mca_coll_persist_component.bundle, mca_coll_persist_bundle_values,
     "Run the point-to-point plans of barrier, bcast, allreduce, allgather, alltoall and the "
     "neighborhood collectives as bundles of bound channels (the channel extension's "
     "MPIX_Bundle_init) when pml/chan's engine serves every channel of the plan: on (1) all "
     "of them, neighbor (2) the neighborhood collectives only, or off (0, the plans' own "
     "persistent requests); init then binds the channels (collective)"},
};

/* coll_persist_ompix_version, coll_persist_ompix_provides */
static char *mca_coll_persist_ompix_version, *mca_coll_persist_ompix_provides;

static int mca_coll_persist_component_register(void)
{
    for (size_t i = 0; i < sizeof(mca_coll_persist_params) / sizeof(mca_coll_persist_params[0]);
         ++i) {
        const mca_base_component_t *v = &mca_coll_persist_component.super.collm_version;

        if (NULL != mca_coll_persist_params[i].values) {
            mca_common_ompix_var_register_enum(
                v, mca_coll_persist_params[i].name, mca_coll_persist_params[i].description,
                mca_coll_persist_params[i].values, MCA_BASE_VAR_FLAG_DWG, OPAL_INFO_LVL_6,
                MCA_BASE_VAR_SCOPE_READONLY, mca_coll_persist_params[i].storage);
            continue;
        }
        (void) mca_base_component_var_register(
            v, mca_coll_persist_params[i].name, mca_coll_persist_params[i].description,
            MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
            mca_coll_persist_params[i].storage);
    }
    mca_common_ompix_version_register(&mca_coll_persist_component.super.collm_version,
                                      &mca_coll_persist_ompix_version,
                                      &mca_coll_persist_ompix_provides);
    mca_coll_persist_mpit_register();
    if (mca_coll_persist_component.shm_bcast_depth < 1) {
        mca_coll_persist_component.shm_bcast_depth = 1;
    }
    return OMPI_SUCCESS;
}

static int mca_coll_persist_component_open(void)
{
    OBJ_CONSTRUCT(&mca_coll_persist_component.active, opal_list_t);
    OBJ_CONSTRUCT(&mca_coll_persist_component.lock, opal_mutex_t);
    mca_coll_persist_component.progress_registered = false;
    return OMPI_SUCCESS;
}

static int mca_coll_persist_component_close(void)
{
    if (mca_coll_persist_component.progress_registered) {
        opal_progress_unregister(mca_coll_persist_progress);
        mca_coll_persist_component.progress_registered = false;
    }
    OBJ_DESTRUCT(&mca_coll_persist_component.active);
    OBJ_DESTRUCT(&mca_coll_persist_component.lock);
    return OMPI_SUCCESS;
}

static int mca_coll_persist_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    (void) enable_progress_threads;
    (void) enable_mpi_threads;
    return OMPI_SUCCESS;
}

static int mca_coll_persist_module_enable(mca_coll_base_module_t *module,
                                          struct ompi_communicator_t *comm)
{
    (void) module;
    (void) comm;
    OPAL_THREAD_LOCK(&mca_coll_persist_component.lock);
    if (!mca_coll_persist_component.progress_registered) {
        opal_progress_register(mca_coll_persist_progress);
        mca_coll_persist_component.progress_registered = true;
    }
    OPAL_THREAD_UNLOCK(&mca_coll_persist_component.lock);
    return OMPI_SUCCESS;
}

static mca_coll_base_module_t *mca_coll_persist_comm_query(struct ompi_communicator_t *comm,
                                                           int *priority)
{
    mca_coll_persist_module_t *module;

    /* Inter-communicators: decline, so the stock component serves them. */
    if (OMPI_COMM_IS_INTER(comm) || mca_coll_persist_component.priority <= 0) {
        return NULL;
    }
    module = OBJ_NEW(mca_coll_persist_module_t);
    if (NULL == module) {
        return NULL;
    }
    *priority = mca_coll_persist_component.priority;
    module->super.coll_module_enable = mca_coll_persist_module_enable;
    module->super.coll_barrier_init = mca_coll_persist_barrier_init;
    module->super.coll_bcast_init = mca_coll_persist_bcast_init;
    module->super.coll_allreduce_init = mca_coll_persist_allreduce_init;
    module->super.coll_allgather_init = mca_coll_persist_allgather_init;
    module->super.coll_alltoall_init = mca_coll_persist_alltoall_init;
    module->super.coll_scan_init = mca_coll_persist_scan_init;
    module->super.coll_exscan_init = mca_coll_persist_exscan_init;
    module->super.coll_gather_init = mca_coll_persist_gather_init;
    module->super.coll_gatherv_init = mca_coll_persist_gatherv_init;
    module->super.coll_scatter_init = mca_coll_persist_scatter_init;
    module->super.coll_scatterv_init = mca_coll_persist_scatterv_init;
    module->super.coll_allgatherv_init = mca_coll_persist_allgatherv_init;
    module->super.coll_alltoallv_init = mca_coll_persist_alltoallv_init;
    module->super.coll_alltoallw_init = mca_coll_persist_alltoallw_init;
    module->super.coll_reduce_init = mca_coll_persist_reduce_init;
    module->super.coll_reduce_scatter_init = mca_coll_persist_reduce_scatter_init;
    module->super.coll_reduce_scatter_block_init = mca_coll_persist_reduce_scatter_block_init;
    module->super.coll_neighbor_allgather_init = mca_coll_persist_neighbor_allgather_init;
    module->super.coll_neighbor_allgatherv_init = mca_coll_persist_neighbor_allgatherv_init;
    module->super.coll_neighbor_alltoall_init = mca_coll_persist_neighbor_alltoall_init;
    module->super.coll_neighbor_alltoallv_init = mca_coll_persist_neighbor_alltoallv_init;
    module->super.coll_neighbor_alltoallw_init = mca_coll_persist_neighbor_alltoallw_init;
    return &module->super;
}

OBJ_CLASS_INSTANCE(mca_coll_persist_module_t, mca_coll_base_module_t, NULL, NULL);
