/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: where errors tied to no communicator, window, file or
 * session are raised (a request's, an invalid window handle's).  4.1
 * follows MPI-3.1: on MPI_COMM_WORLD.  5.0 decides by its mpi_compat_mpi3
 * parameter: MPI_COMM_WORLD by default, MPI-4's MPI_COMM_SELF when it is
 * false, and the initial error handler outside MPI_Init..MPI_Finalize
 * (OMPI_ERRHANDLER_NOHANDLE_INVOKE).  And 5.0's MPI_Start raises the error
 * a request's req_start returns itself, where 4.1's returns it unreported:
 * a req_start reports it only on 4.1, else the error handler would run
 * twice.  MPI_Startall ignores what req_start returns in both series (it
 * reports success), so a req_start that only MPI_Startall reaches reports
 * it always.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_ERRHANDLER_H
#define MCA_COMMON_OMPIX_COMPAT_ERRHANDLER_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"

/* Raises rc, an error tied to no object, where this series raises those;
 * returns the MPI error code. */
static inline int mca_common_ompix_errhandler_nohandle(int rc, const char *message)
{
#if OMPIX_OMPI_SERIES >= 50
    return OMPI_ERRHANDLER_NOHANDLE_INVOKE(rc, message);
#else
    return OMPI_ERRHANDLER_INVOKE(MPI_COMM_WORLD, rc, message);
#endif
}

/* What a req_start returns for error rc: reported here where MPI_Start
 * does not report it (4.1), left to MPI_Start where it does (5.0, whose
 * report names MPI_Start instead of `message`). */
static inline int mca_common_ompix_errhandler_start(int rc, const char *message)
{
#if OMPIX_OMPI_SERIES >= 50
    (void) message;
    return rc;
#else
    return mca_common_ompix_errhandler_nohandle(rc, message);
#endif
}

/* What a req_start that only MPI_Startall reaches (that of a request whose
 * type MPI_Start refuses before calling it) returns for error rc: reported
 * here in both series, since no MPI_Startall reports it. */
static inline int mca_common_ompix_errhandler_startall(int rc, const char *message)
{
    return mca_common_ompix_errhandler_nohandle(rc, message);
}

#endif /* MCA_COMMON_OMPIX_COMPAT_ERRHANDLER_H */
