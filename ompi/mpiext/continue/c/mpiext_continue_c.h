/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPI continuations: a callback that the library runs once all of a set of
 * operation requests have completed.  Included from <mpi-ext.h>.
 */

#ifndef MPIEXT_CONTINUE_C_H
#define MPIEXT_CONTINUE_C_H

/* C linkage for C++ programs (mpicxx), as Open MPI's own mpi-ext.h
 * does; nested inside its extern "C" in an in-tree build. */
#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* Flags for MPIX_Continue / MPIX_Continueall (OR them together). */

/* If every operation is already complete, the callback may run inside the
 * registering call instead of being queued. */
#define MPIX_CONT_IMMEDIATE  0x1
/* Keep the continuation attached to persistent operations: every MPI_Start
 * re-arms it, until the operation is freed or another continuation is
 * attached while it is inactive. */
#define MPIX_CONT_PERSISTENT 0x2

/* Info keys understood by MPIX_Continue_init. */
#define MPIX_CONT_INFO_POLL_ONLY         "mpi_continue_poll_only"
#define MPIX_CONT_INFO_THREAD            "mpi_continue_thread"
#define MPIX_CONT_INFO_ENQUEUE_COMPLETE  "mpi_continue_enqueue_complete"
#define MPIX_CONT_INFO_MAX_POLL          "mpi_continue_max_poll"
#define MPIX_CONT_INFO_ASYNC_SIGNAL_SAFE "mpi_continue_async_signal_safe"

typedef void MPIX_Continue_cb_function(MPI_Status *array_of_statuses,
                                       void *cb_data);

OMPI_DECLSPEC int MPIX_Continue_init(MPI_Info info, MPI_Request *cont_req);

OMPI_DECLSPEC int MPIX_Continue(MPI_Request *op_request,
                                MPIX_Continue_cb_function *cb, void *cb_data,
                                int flags, MPI_Status *status,
                                MPI_Request cont_req);

OMPI_DECLSPEC int MPIX_Continueall(int count, MPI_Request array_of_op_requests[],
                                   MPIX_Continue_cb_function *cb, void *cb_data,
                                   int flags, MPI_Status array_of_statuses[],
                                   MPI_Request cont_req);

/* The profiling entry points PMPIX_Continue_init, PMPIX_Continue and
 * PMPIX_Continueall, installed next to this header. */
#include "pmpiext_continue_c.h"

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* MPIEXT_CONTINUE_C_H */
