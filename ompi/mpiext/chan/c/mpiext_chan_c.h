/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Bound persistent channels (the MPI Forum persistence working group's
 * early-binding proposal): a matching pair of persistent point-to-point
 * requests is bound once into a channel; every MPI_Start of the channel
 * then needs no matching.  Included from <mpi-ext.h>, which defines
 * OMPI_HAVE_MPI_EXT_CHAN.
 */

#ifndef MPIEXT_CHAN_C_H
#define MPIEXT_CHAN_C_H

/* C linkage for C++ programs (mpicxx), as Open MPI's own mpi-ext.h
 * does; nested inside its extern "C" in an in-tree build. */
#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* Info key of the bind calls: elements of the request's datatype (may be
 * negative) by which every start moves the buffer address, modulo
 * slack * increment. */
#define MPIX_CHAN_INFO_ADDRESS_BASE_INCREMENT "address_base_increment"

OMPI_DECLSPEC int MPIX_Bind_channel(MPI_Request req_in, MPI_Request *req_out, MPI_Info info);
OMPI_DECLSPEC int MPIX_Ibind_channel(MPI_Request req_in, MPI_Request *req_out, MPI_Info info);
OMPI_DECLSPEC int MPIX_Bind_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                     MPI_Info infos[]);
OMPI_DECLSPEC int MPIX_Ibind_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                      MPI_Info infos[]);
OMPI_DECLSPEC int MPIX_Bind_slack_channel(MPI_Request req_in, MPI_Request *req_out, int slack,
                                          MPI_Info info);
OMPI_DECLSPEC int MPIX_Ibind_slack_channel(MPI_Request req_in, MPI_Request *req_out, int slack,
                                           MPI_Info info);
OMPI_DECLSPEC int MPIX_Bind_slack_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                           const int slacks[], MPI_Info infos[]);
OMPI_DECLSPEC int MPIX_Ibind_slack_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                            const int slacks[], MPI_Info infos[]);
OMPI_DECLSPEC int MPIX_Unbind_channel(MPI_Request *chan);
OMPI_DECLSPEC int MPIX_Iunbind_channel(MPI_Request *chan, MPI_Info info);
OMPI_DECLSPEC int MPIX_Unbind_channels(int n, MPI_Request chans[]);
OMPI_DECLSPEC int MPIX_Iunbind_channels(int n, MPI_Request chans[], MPI_Info infos[]);

/* Bundles: a persistent request over rounds of persistent members (any
 * kind, any communicator); MPI_Start starts round 0, round r+1 starts when
 * every member of round r completed, the bundle completes after the last. */
OMPI_DECLSPEC int MPIX_Bundle_init(int nrounds, const int round_sizes[], MPI_Request members[],
                                   MPI_Info info, MPI_Request *bundle);

/* A persistent generalized request: start_fn at each MPI_Start, poll_fn
 * from progress until it reports completion, free_fn at MPI_Request_free. */
typedef int MPIX_Grequest_start_function(void *extra_state);
typedef int MPIX_Grequest_poll_function(void *extra_state, int *completed);
OMPI_DECLSPEC int MPIX_Grequest_persistent_init(MPIX_Grequest_start_function *start_fn,
                                                MPIX_Grequest_poll_function *poll_fn,
                                                MPI_Grequest_free_function *free_fn,
                                                void *extra_state, MPI_Request *request);

/* The profiling entry points PMPIX_..., installed next to this header. */
#include "pmpiext_chan_c.h"

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* MPIEXT_CHAN_C_H */
