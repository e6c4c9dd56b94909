/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The bundle contract: what an MCA component (coll/persist) may ask of the
 * channel extension's bundle engine (ompi/mpiext/chan) without linking
 * against the extension, which may not even be loaded (plugin build: a
 * program that does not link libompix has no bundles).  The extension
 * publishes this table in common/ompix's registry when its library is
 * loaded (ompi/mpiext/chan/c/mpiext_chan_bundle_ops.c) under
 * MCA_COMMON_OMPIX_BUNDLE_OPS_NAME; a component looks it up at each use
 * with MCA_COMMON_OMPIX_BUNDLE_OPS_VERSION (bumped on every change) and
 * plans without bundles when it finds nothing.  Only <mpi.h> types here.
 *
 * Every entry returns an MPI error class.  bind and unbind report errors
 * through the requests' communicator's error handler as the MPIX_
 * functions they stand for do (a caller inside a collective init would
 * report the same class through the same handler); the others do not
 * invoke a handler.
 *
 * bind: MPIX_Bind_channels(n, reqs, chans) with slack 1 for every
 *   request: blocking, collective over each pair, deadlock-free whatever
 *   order the partners list their requests in.  On failure every chans[i]
 *   is MPI_REQUEST_NULL; reqs stay usable persistent requests either way.
 * engine: 1 when chan is served by pml/chan's engine, 0 when by the
 *   generic fallback (ordinary persistent requests underneath).
 * unbind: MPIX_Unbind_channels (local; no start outstanding).
 * bundle_init: MPIX_Bundle_init with MPI_INFO_NULL: takes the members
 *   (starting them directly is then MPI_ERR_REQUEST); freeing the bundle
 *   (ompi_request_free) gives them back.
 * greq_init: MPIX_Grequest_persistent_init: start_fn at each start of
 *   the member, poll_fn until it reports completion, free_fn (may be NULL)
 *   at its free.
 */
#ifndef MCA_COMMON_OMPIX_BUNDLE_OPS_H
#define MCA_COMMON_OMPIX_BUNDLE_OPS_H

#include <mpi.h>

#define MCA_COMMON_OMPIX_BUNDLE_OPS_NAME "mpiext/chan-bundle"
#define MCA_COMMON_OMPIX_BUNDLE_OPS_VERSION 1u

typedef int mca_common_ompix_greq_start_fn_t(void *extra_state);
typedef int mca_common_ompix_greq_poll_fn_t(void *extra_state, int *completed);

typedef struct mca_common_ompix_bundle_ops_t {
    int (*bind)(int n, MPI_Request reqs[], MPI_Request chans[]);
    int (*engine)(MPI_Request chan);
    int (*unbind)(int n, MPI_Request chans[]);
    int (*bundle_init)(int nrounds, const int round_sizes[], MPI_Request members[],
                       MPI_Request *bundle);
    int (*greq_init)(mca_common_ompix_greq_start_fn_t *start_fn,
                     mca_common_ompix_greq_poll_fn_t *poll_fn, MPI_Grequest_free_function *free_fn,
                     void *extra_state, MPI_Request *request);
} mca_common_ompix_bundle_ops_t;

#endif /* MCA_COMMON_OMPIX_BUNDLE_OPS_H */
