/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The persistent-collective rows of the error matrix (errors_matrix.h):
 * the *_init calls coll/persist serves with a null datatype
 * (MPI_ERR_TYPE), a null operation (MPI_ERR_OP), a negative count
 * (MPI_ERR_COUNT), a root out of range (MPI_ERR_ROOT), and MPI_Startall
 * with one request twice (MPI_ERR_REQUEST).  With mpi_param_check on,
 * Open MPI's bindings answer the *_init rows before coll/persist runs
 * (ERRORS_BINDING); persist_nocheck.c runs them with it off, where the
 * component's own checks answer.  Rows are collective on a duplicate of
 * MPI_COMM_WORLD.
 */
#ifndef PERSIST_ROWS_H
#define PERSIST_ROWS_H

#include "errors_matrix.h"

enum { PI_ALLREDUCE, PI_BCAST, PI_REDUCE, PI_ALLGATHER, PI_ALLTOALL, PI_SCAN, PI_GATHER,
       PI_SCATTER, NPI };
static const char *const persist_init_name[] = {
    "MPIX_Allreduce_init", "MPIX_Bcast_init", "MPIX_Reduce_init", "MPIX_Allgather_init",
    "MPIX_Alltoall_init", "MPIX_Scan_init", "MPIX_Gather_init", "MPIX_Scatter_init"};

enum { PB_TYPE, PB_OP, PB_COUNT, PB_ROOT, NPB };
static const char *const persist_bad_name[] = {
    "MPI_DATATYPE_NULL", "MPI_OP_NULL", "count -1", "root = size"};
static const int persist_bad_class[] = {MPI_ERR_TYPE, MPI_ERR_OP, MPI_ERR_COUNT, MPI_ERR_ROOT};

static inline int persist_init(int which, int count, MPI_Datatype dt, MPI_Op op, int root,
                               MPI_Comm comm, MPI_Request *req)
{
    static int in[64], out[64 * 4];

    switch (which) {
    case PI_ALLREDUCE: return MPIX_Allreduce_init(in, out, count, dt, op, comm, MPI_INFO_NULL, req);
    case PI_BCAST: return MPIX_Bcast_init(in, count, dt, root, comm, MPI_INFO_NULL, req);
    case PI_REDUCE:
        return MPIX_Reduce_init(in, out, count, dt, op, root, comm, MPI_INFO_NULL, req);
    case PI_ALLGATHER:
        return MPIX_Allgather_init(in, count, dt, out, count, dt, comm, MPI_INFO_NULL, req);
    case PI_ALLTOALL:
        return MPIX_Alltoall_init(in, count, dt, out, count, dt, comm, MPI_INFO_NULL, req);
    case PI_SCAN: return MPIX_Scan_init(in, out, count, dt, op, comm, MPI_INFO_NULL, req);
    case PI_GATHER:
        return MPIX_Gather_init(in, count, dt, out, count, dt, root, comm, MPI_INFO_NULL, req);
    default:
        return MPIX_Scatter_init(out, count, dt, in, count, dt, root, comm, MPI_INFO_NULL, req);
    }
}

/* row->arg: the *_init; row->arg2: the bad argument */
static int persist_row_init(const errors_row_t *row)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Datatype dt = PB_TYPE == row->arg2 ? MPI_DATATYPE_NULL : MPI_INT;
    MPI_Op op = PB_OP == row->arg2 ? MPI_OP_NULL : MPI_SUM;
    int count = PB_COUNT == row->arg2 ? -1 : 1, root = PB_ROOT == row->arg2 ? size : 0, rc;
    MPI_Comm comm;

    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    errors_watch_comm(comm);
    rc = persist_init((int) row->arg, count, dt, op, root, comm, &req);
    if (MPI_REQUEST_NULL != req) MPI_Request_free(&req);
    MPI_Comm_free(&comm);
    return rc;
}

/* MPI_Startall with the same persistent allreduce twice: the second is
 * active when its turn comes.  Open MPI's MPI_Startall ignores what the
 * start function returns, so coll/persist completes the request with the
 * error: the row's code is MPI_Startall's, else MPI_Wait's (the
 * collective itself runs once, matching the other ranks' starts).  Open
 * MPI 4.1 reports request errors of persistent collectives, like its
 * MPI_Start/MPI_Startall checks, on MPI_COMM_WORLD's handler: watched too. */
static int persist_row_startall_twice(const errors_row_t *row)
{
    int in = 1, out = 0, rc;
    MPI_Request req[2];
    MPI_Comm comm;

    (void) row;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    errors_watch_comm(comm);
    errors_watch_comm(MPI_COMM_WORLD);
    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[0]);
    req[1] = req[0];
    if (0 == rank) {
        rc = MPI_Startall(2, req);
    } else {
        rc = MPI_Start(&req[0]);
    }
    if (MPI_SUCCESS == rc) {
        rc = MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    }
    if (out != size) rc = MPI_ERR_INTERN;       /* the collective ran once, correctly */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* Open MPI frees a request whose completion reported an error */
    if (MPI_REQUEST_NULL != req[0]) MPI_Request_free(&req[0]);
    MPI_Comm_free(&comm);
    return 0 == rank ? rc : ERRORS_NOCALL;
}

static inline int persist_rows(errors_row_t *rows)
{
    int n = 0;

    for (int i = 0; i < NPI; ++i) {
        for (int b = 0; b < NPB; ++b) {
            int takes_op = PI_ALLREDUCE == i || PI_REDUCE == i || PI_SCAN == i;
            int rooted = PI_BCAST == i || PI_REDUCE == i || PI_GATHER == i || PI_SCATTER == i;
            if ((PB_OP == b && !takes_op) || (PB_ROOT == b && !rooted)) continue;
            rows[n++] = (errors_row_t) {persist_init_name[i], persist_bad_name[b],
                                        persist_bad_class[b],
                                        persist_row_init, i, b, ERRORS_BINDING, 0, NULL};
        }
    }
    rows[n++] = (errors_row_t) {"MPI_Startall", "one persistent allreduce twice",
                                MPI_ERR_REQUEST, persist_row_startall_twice, 0, 0, 0, 0, NULL};
    return n;
}

#define PERSIST_MAX_ROWS (NPI * NPB + 8)

#endif
