/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The bundle contract's table (common/ompix's common_ompix_bundle_ops.h),
 * published in common/ompix's registry by this file's ELF constructor,
 * when the library holding the extension is loaded (libmpi in a source
 * tree, libompix in the plugin build): MCA components (coll/persist) plan
 * with bundles of channels through it without linking the extension.
 * The entries are the internal paths of the MPIX_ functions they name.
 */

#include "ompi_config.h"

#include "ompi/mca/common/ompix/common_ompix_bundle_ops.h"
#include "ompi/mca/common/ompix/common_ompix_registry.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

static int ompix_bundle_ops_bind(int n, MPI_Request reqs[], MPI_Request chans[])
{
    return ompix_chan_bind(n, reqs, chans, NULL, NULL, false, NULL, "MPIX_Bind_channels");
}

static int ompix_bundle_ops_engine(MPI_Request chan)
{
    void *kind = ompix_chan_kind(chan);
    return OMPIX_CHAN_KIND_ENGINE == kind || OMPIX_CHAN_KIND_ENGINE_SLACK == kind;
}

static int ompix_bundle_ops_unbind(int n, MPI_Request chans[])
{
    return ompix_chan_unbind(n, chans, false, "MPIX_Unbind_channels");
}

static int ompix_bundle_ops_bundle_init(int nrounds, const int round_sizes[],
                                        MPI_Request members[], MPI_Request *bundle)
{
    return ompix_bundle_create(nrounds, round_sizes, members, bundle, "MPIX_Bundle_init");
}

static const mca_common_ompix_bundle_ops_t ompix_bundle_ops = {
    .bind = ompix_bundle_ops_bind,
    .engine = ompix_bundle_ops_engine,
    .unbind = ompix_bundle_ops_unbind,
    .bundle_init = ompix_bundle_ops_bundle_init,
    .greq_init = ompix_bundle_greq_create,
};

static mca_common_ompix_registry_entry_t ompix_bundle_ops_entry = {
    .name = MCA_COMMON_OMPIX_BUNDLE_OPS_NAME,
    .version = MCA_COMMON_OMPIX_BUNDLE_OPS_VERSION,
    .table = &ompix_bundle_ops,
};

/* Never withdrawn: the library holding the extension is the program's
 * (linked, not dlopened), so the table lives as long as the process; a
 * destructor would walk the registry at exit, after components whose
 * entries it may still list were unloaded. */
static void __attribute__((constructor)) ompix_bundle_ops_publish(void)
{
    mca_common_ompix_registry_publish(&ompix_bundle_ops_entry);
}
