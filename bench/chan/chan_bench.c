/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan ping-pong, 8 bytes, half round trip in microseconds (median of
 * 5 runs): a bound ready channel each way (through pml/chan's registry
 * table, as the extension will bind it) against Send_init/Recv_init +
 * Start/Wait on the selected PML.  Run with 2 ranks; with an explicit
 * --mca pml X, add chan (--mca pml X,chan).  Under callgrind the phases
 * are the functions chan_bench_persist_rounds and chan_bench_chan_rounds.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../test/chan_engine/chan_engine.h"
#include "../include/ompix_bench.h"

#define ITERS 20000
#define RUNS 5

static double buf_out, buf_in;

/* The receive for the next round is started before replying/sending, so
 * ready channels are used correctly without a barrier. */
__attribute__((noinline)) static void chan_bench_rounds(MPI_Request *s, MPI_Request *r, int iters)
{
    int peer = 1 - rank;

    for (int i = 0; i < iters; ++i) {
        if (0 == rank) {
            MPI_Start(s);
            MPI_Wait(s, MPI_STATUS_IGNORE);
            MPI_Wait(r, MPI_STATUS_IGNORE);
            MPI_Start(r);
        } else {
            MPI_Wait(r, MPI_STATUS_IGNORE);
            MPI_Start(r);
            MPI_Start(s);
            MPI_Wait(s, MPI_STATUS_IGNORE);
        }
    }
    (void) peer;
}

__attribute__((noinline)) static void chan_bench_persist_rounds(MPI_Request *s, MPI_Request *r,
                                                               int iters)
{
    chan_bench_rounds(s, r, iters);
}

__attribute__((noinline)) static void chan_bench_chan_rounds(MPI_Request *s, MPI_Request *r,
                                                            int iters)
{
    chan_bench_rounds(s, r, iters);
}

static double chan_bench_time(void (*fn)(MPI_Request *, MPI_Request *, int), MPI_Request *s,
                              MPI_Request *r, int iters)
{
    double t[RUNS];

    for (int k = 0; k < RUNS; ++k) {
        MPI_Start(r);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = ompix_bench_now();
        fn(s, r, iters);
        t[k] = (ompix_bench_now() - t0) / iters / 2 * 1e6;
        /* Both left a receive started: one more message each way. */
        if (0 == rank) {
            MPI_Wait(r, MPI_STATUS_IGNORE);
            MPI_Start(s);
            MPI_Wait(s, MPI_STATUS_IGNORE);
        } else {
            MPI_Start(s);
            MPI_Wait(s, MPI_STATUS_IGNORE);
            MPI_Wait(r, MPI_STATUS_IGNORE);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return ompix_bench_median(t, RUNS);
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : ITERS;
    MPI_Request s, r, cs = MPI_REQUEST_NULL, cr = MPI_REQUEST_NULL;
    int peer;

    chan_engine_init(&argc, &argv);
    peer = 1 - rank;
    MPI_Send_init(&buf_out, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &s);
    MPI_Recv_init(&buf_in, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &r);
    double persist = chan_bench_time(chan_bench_persist_rounds, &s, &r, iters);
    if (NULL != chan_api && NULL != chan_api->prepare) {
        if (0 == rank) {
            chan_engine_bind(s, peer, 0, 1, 0, 8, &cs);
            chan_engine_bind(r, peer, 0, 1, 0, 8, &cr);
        } else {
            chan_engine_bind(r, peer, 0, 1, 0, 8, &cr);
            chan_engine_bind(s, peer, 0, 1, 0, 8, &cs);
        }
    }
    if (0 == rank) {
        printf("pingpong_8B persistent  %.3f us\n", persist);
    }
    if (MPI_REQUEST_NULL != cs && MPI_REQUEST_NULL != cr) {
        double chan = chan_bench_time(chan_bench_chan_rounds, &cs, &cr, iters);
        if (0 == rank) {
            printf("pingpong_8B channel     %.3f us  (%.2fx)\n", chan, chan / persist);
        }
        chan_engine_unbind(&cs);
        chan_engine_unbind(&cr);
    } else if (0 == rank) {
        printf("pingpong_8B channel     (engine not available)\n");
    }
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    MPI_Finalize();
    return 0;
}
