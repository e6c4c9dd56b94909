/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The bundle contract (ompi/mca/common/ompix/common_ompix_bundle_ops.h):
 * what coll/persist needs to build its plans as bundles of channels,
 * published in common/ompix's registry when this library is loaded (a
 * component can not link against the extension's library, and nothing of
 * ours runs before a component builds its first plan).  It is never
 * withdrawn: this library is linked with the program and stays until the
 * process exits (at exit the registry may list entries of components
 * already unloaded, so walking it from a destructor is not safe).  Each entry is the MPIX_ function's own path.
 */

#include "ompi_config.h"

#include "ompi/mca/common/ompix/common_ompix_bundle_ops.h"
#include "ompi/mca/common/ompix/common_ompix_registry.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

static int ompix_bundle_ops_bind(int n, MPI_Request reqs[], MPI_Request chans[], const char *func)
{
    return ompix_chan_bind_entry(n, reqs, chans, NULL, false, NULL, false, func);
}

static int ompix_bundle_ops_unbind(int n, MPI_Request chans[], const char *func)
{
    int rc = ompix_chan_state_check(func);

    return MPI_SUCCESS != rc ? rc : ompix_chan_unbind(n, chans, false, func);
}

static int ompix_bundle_ops_init(int nrounds, const int round_sizes[], MPI_Request members[],
                                 MPI_Request *bundle, const char *func)
{
    int rc = ompix_chan_state_check(func);

    if (MPI_SUCCESS == rc) {
        rc = ompix_bundle_check_args(nrounds, round_sizes, members, MPI_INFO_NULL, bundle, func);
    }
    return MPI_SUCCESS != rc ? rc : ompix_bundle_create(nrounds, round_sizes, members, bundle,
                                                        func);
}

static int ompix_bundle_ops_start(int n, MPI_Request bundles[])
{
    int rc = MPI_SUCCESS;

    for (int i = 0; i < n; ++i) {
        int r = bundles[i]->req_start(1, &bundles[i]);

        rc = MPI_SUCCESS != r ? r : rc;
    }
    return rc;
}

static int ompix_bundle_ops_free(MPI_Request *bundle)
{
    return ompi_request_free(bundle);
}

static const mca_common_ompix_bundle_ops_t ompix_bundle_ops = {
    .bind = ompix_bundle_ops_bind,
    .unbind = ompix_bundle_ops_unbind,
    .init = ompix_bundle_ops_init,
    .start = ompix_bundle_ops_start,
    .free = ompix_bundle_ops_free,
};

static mca_common_ompix_registry_entry_t ompix_bundle_ops_entry = {
    .name = MCA_COMMON_OMPIX_BUNDLE_OPS_NAME,
    .version = MCA_COMMON_OMPIX_BUNDLE_OPS_VERSION,
    .table = &ompix_bundle_ops,
};

static void __attribute__((constructor)) ompix_bundle_ops_publish(void)
{
    mca_common_ompix_registry_publish(&ompix_bundle_ops_entry);
}
