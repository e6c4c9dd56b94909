/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The bundle contract (issue 25): what a component (coll/persist) needs of
 * the channel extension (ompi/mpiext/chan) to build its persistent plans
 * as bundles of bound channels: bind and unbind channels, and init, start
 * and free a bundle.  The extension lives in libompix (plugin build) or
 * libmpi (in-tree build), which a component can not link against; it
 * publishes this table in common/ompix's registry
 * (common_ompix_registry.h) under MCA_COMMON_OMPIX_BUNDLE_OPS_NAME when
 * its library is loaded (never withdrawn), so a component looks it up (with
 * MCA_COMMON_OMPIX_BUNDLE_OPS_VERSION) when it builds a plan; NULL means
 * the extension is not in this process (or another version): the
 * component keeps its own plans.  Only <mpi.h> types here, like
 * common_ompix_notify_ops.h, so any component can include it.
 *
 * Every entry has the semantics of the MPIX_ function it names
 * (README.md, "Channels" and "Bundles"; the man pages), returns an MPI
 * error class, and reports an error through the error handler of the
 * communicator concerned with `func` as the function's name (the
 * component passes its own MPI function's, e.g. "MPI_Allreduce_init").
 *
 * bind: MPIX_Bind_channels (blocking; collective over each pair: the
 *   partner process binds the matching request too, in any order).
 *   chans[i] is the channel of reqs[i] (on pml/chan's engine when both
 *   ends have it, else the extension's fallback); reqs stay the caller's
 *   (free them once bound, or keep them: they are untouched).
 * unbind: MPIX_Unbind_channels (local; no start may be outstanding and
 *   the channels must not be in a bundle).  chans become MPI_REQUEST_NULL.
 * init: MPIX_Bundle_init with MPI_INFO_NULL.  A bundle whose members are
 *   all engine channels (or requests to MPI_PROC_NULL) runs on the
 *   extension's engine path (one start per round, a counter per round,
 *   rounds advanced by pml/chan's progress); any other on the generic one.
 * start: MPI_Start of each of n bundles (req_start; so a component may
 *   equally call the bundle's req_start itself).
 * free: MPI_Request_free of a bundle: the members go back to the caller,
 *   inactive, usable on their own or in another bundle.  A bundle freed
 *   while active goes when its last round completes.
 */
#ifndef MCA_COMMON_OMPIX_BUNDLE_OPS_H
#define MCA_COMMON_OMPIX_BUNDLE_OPS_H

#include <mpi.h>

#define MCA_COMMON_OMPIX_BUNDLE_OPS_NAME "mpiext/chan"
#define MCA_COMMON_OMPIX_BUNDLE_OPS_VERSION 1

typedef struct mca_common_ompix_bundle_ops_t {
    int (*bind)(int n, MPI_Request reqs[], MPI_Request chans[], const char *func);
    int (*unbind)(int n, MPI_Request chans[], const char *func);
    int (*init)(int nrounds, const int round_sizes[], MPI_Request members[],
                MPI_Request *bundle, const char *func);
    int (*start)(int n, MPI_Request bundles[]);
    int (*free)(MPI_Request *bundle);
} mca_common_ompix_bundle_ops_t;

#endif /* MCA_COMMON_OMPIX_BUNDLE_OPS_H */
