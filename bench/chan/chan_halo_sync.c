/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Synchronous halo exchange between 2 ranks (bench/run chan runs it): each
 * rank has a bound synchronous channel to the other (MPI_Ssend_init) and
 * one from it (MPI_Recv_init), 8 bytes, and each iteration starts the
 * receive, then the send (one MPI_Startall), and waits for both
 * (MPI_Waitall), checking the value received.
 *   chan_halo_sync N chan|persist [instr]
 *       N iterations after 100 more; "persist": the same persistent
 *       requests on the selected PML, not bound.  The Startall is
 *       chan_halo_m_start, the Waitall chan_halo_m_wait (for callgrind's
 *       --toggle-collect); with "instr" rank 0 calls its Waitall only
 *       once rank 1 finished its own (chan_halo_iter).
 * bench/run counts rank 0's instructions in both per iteration (instr)
 * and, over TCP, the messages per iteration: the socket sends (strace)
 * of both ranks in a run of N iterations less those in a run of 0,
 * divided by N (without instr: no other message).
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../test/chan_engine/chan_engine.h"
#include "../include/ompix_bench.h"

#define WARMUP 100

static double out, in;

__attribute__((noinline)) static void chan_halo_m_start(MPI_Request req[2])
{
    MPI_Startall(2, req);
}

__attribute__((noinline)) static void chan_halo_m_wait(MPI_Request req[2])
{
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
}

/* One iteration.  counted: rank 0 waits only once rank 1 said (an
 * ordinary zero-byte message, after its own Waitall) that everything is
 * there, so that chan_halo_m_wait counts no polling: the count is the same
 * on a loaded machine (what rank 0's progress does meanwhile is not
 * counted). */
static void chan_halo_iter(MPI_Request req[2], int counted)
{
    chan_halo_m_start(req);
    if (counted && 0 == rank) {
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    chan_halo_m_wait(req);
    if (counted && 1 == rank) {
        MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
}

static void chan_halo_run(MPI_Request req[2], int from, int n, int counted)
{
    int peer = 1 - rank;

    for (int i = from; i < from + n; ++i) {
        out = (double) (rank * 1000000 + i);
        chan_halo_iter(req, counted);
        if (in != (double) (peer * 1000000 + i)) {
            fprintf(stderr, "chan_halo_sync: rank %d iteration %d got %g\n", rank, i, in);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int chan = argc <= 2 || 0 == strcmp(argv[2], "chan");
    int counted = argc > 3 && 0 == strcmp(argv[3], "instr");
    MPI_Request p[2], req[2];

    chan_engine_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (2 != size) {
        fprintf(stderr, "chan_halo_sync: 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Recv_init(&in, 1, MPI_DOUBLE, 1 - rank, 1, MPI_COMM_WORLD, &p[0]);
    MPI_Ssend_init(&out, 1, MPI_DOUBLE, 1 - rank, 1, MPI_COMM_WORLD, &p[1]);
    req[0] = p[0];
    req[1] = p[1];
    if (chan) {
        if (NULL == chan_api || NULL == chan_api->prepare) {
            fprintf(stderr, "chan_halo_sync: engine not available\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPIX_Bind_channels(2, p, req, NULL);
    }
    chan_halo_run(req, 0, WARMUP, counted);
    chan_halo_run(req, WARMUP, n, counted);
    MPI_Barrier(MPI_COMM_WORLD);
    if (chan) {
        MPIX_Unbind_channels(2, req);
    }
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    if (0 == rank) {
        printf("RESULT halo_sync done %d\n", n);
    }
    MPI_Finalize();
    return 0;
}
