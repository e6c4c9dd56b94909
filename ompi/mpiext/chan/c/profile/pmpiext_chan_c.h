/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Profiling interface of channels: a tool defines its own MPIX_ functions
 * and forwards to these.  Included from mpiext_chan_c.h, hence from
 * <mpi-ext.h>.
 */

#ifndef PMPIEXT_CHAN_C_H
#define PMPIEXT_CHAN_C_H

/* C linkage for C++ programs (mpicxx), as Open MPI's own mpi-ext.h
 * does; nested inside its extern "C" in an in-tree build. */
#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

OMPI_DECLSPEC int PMPIX_Bind_channel(MPI_Request req_in, MPI_Request *req_out, MPI_Info info);
OMPI_DECLSPEC int PMPIX_Ibind_channel(MPI_Request req_in, MPI_Request *req_out, MPI_Info info);
OMPI_DECLSPEC int PMPIX_Bind_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                      MPI_Info infos[]);
OMPI_DECLSPEC int PMPIX_Ibind_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                      MPI_Info infos[]);
OMPI_DECLSPEC int PMPIX_Bind_slack_channel(MPI_Request req_in, MPI_Request *req_out, int slack,
                                          MPI_Info info);
OMPI_DECLSPEC int PMPIX_Ibind_slack_channel(MPI_Request req_in, MPI_Request *req_out, int slack,
                                           MPI_Info info);
OMPI_DECLSPEC int PMPIX_Bind_slack_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                           const int slacks[], MPI_Info infos[]);
OMPI_DECLSPEC int PMPIX_Ibind_slack_channels(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                            const int slacks[], MPI_Info infos[]);
OMPI_DECLSPEC int PMPIX_Unbind_channel(MPI_Request *chan);
OMPI_DECLSPEC int PMPIX_Iunbind_channel(MPI_Request *chan, MPI_Info info);
OMPI_DECLSPEC int PMPIX_Unbind_channels(int n, MPI_Request chans[]);
OMPI_DECLSPEC int PMPIX_Iunbind_channels(int n, MPI_Request chans[], MPI_Info infos[]);

OMPI_DECLSPEC int PMPIX_Bundle_init(int nrounds, const int round_sizes[], MPI_Request members[],
                                    MPI_Info info, MPI_Request *bundle);
OMPI_DECLSPEC int PMPIX_Grequest_persistent_init(MPIX_Grequest_start_function *start_fn,
                                                 MPIX_Grequest_poll_function *poll_fn,
                                                 MPI_Grequest_free_function *free_fn,
                                                 void *extra_state, MPI_Request *request);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMPIEXT_CHAN_C_H */
