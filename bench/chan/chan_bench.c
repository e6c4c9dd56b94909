/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan benchmarks, 2 ranks (bench/run chan runs them):
 *   chan_bench [iters]        ping-pong, 8 bytes, half round trip in
 *                             microseconds (median of 5 runs): a bound ready
 *                             channel each way (MPIX_Bind_channel, so with
 *                             what the extension adds: its Wait/Test) against
 *                             Send_init/Recv_init +
 *                             Start/Wait on the selected PML;
 *                             RESULT pingpong_8B us <channel> <persistent>
 *   chan_bench sendrecv [nochan]
 *                             ordinary MPI_Send/MPI_Recv ping-pong, 8 bytes;
 *                             RESULT sendrecv_8B us <t> 0 ("nochan": pml/chan
 *                             not added to the PML list)
 *   chan_bench instr_sendrecv N chan|bound|nochan
 *                             the ping-pong of sendrecv, N rounds after 100
 *                             uncounted: rank 0's MPI_Send in
 *                             chan_bench_m_send, its MPI_Recv in
 *                             chan_bench_m_recv, called once MPI_Iprobe saw
 *                             the reply (no polling counted): pml/chan on
 *                             (nothing bound), on with a channel pair bound
 *                             and idle (its progress registered), or not
 *                             added to the PML list
 *   chan_bench instr N chan|persist
 *                             N one-way 8-byte messages, rank 0 sending: its
 *                             MPI_Start calls in chan_bench_m_start, its
 *                             MPI_Test calls (until complete) in
 *                             chan_bench_m_test, for callgrind's
 *                             --toggle-collect.
 * With an explicit --mca pml X the program adds chan (--mca pml X,chan).
 * Every ready send starts after its receive (bench/run checks that with
 * --mca pml_chan_debug_ready 1); errors abort.
 */
#include <mpi.h>
#include <mpi-ext.h>
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
        /* Both left a receive started: one more round trip completes them,
         * in the ping-pong's order.  Rank 1 must not send again before rank
         * 0 replied: rank 0 starts its receive only after taking rank 1's
         * last message, and a ready send ahead of its receive overwrites
         * that message in the one-slot ring (rank 0 then waits forever). */
        if (0 == rank) {
            MPI_Start(s);
            MPI_Wait(s, MPI_STATUS_IGNORE);
            MPI_Wait(r, MPI_STATUS_IGNORE);
        } else {
            MPI_Wait(r, MPI_STATUS_IGNORE);
            MPI_Start(s);
            MPI_Wait(s, MPI_STATUS_IGNORE);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return ompix_bench_median(t, RUNS);
}

/* Ordinary MPI_Send/MPI_Recv ping-pong: what pml/chan must not slow down. */
static double chan_bench_sendrecv(int iters)
{
    double t[RUNS];
    int peer = 1 - rank;

    for (int k = 0; k < RUNS; ++k) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = ompix_bench_now();
        for (int i = 0; i < iters; ++i) {
            if (0 == rank) {
                MPI_Send(&buf_out, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
                MPI_Recv(&buf_in, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&buf_in, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&buf_out, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
            }
        }
        t[k] = (ompix_bench_now() - t0) / iters / 2 * 1e6;
    }
    return ompix_bench_median(t, RUNS);
}

__attribute__((noinline)) int chan_bench_m_start(MPI_Request *req)
{
    return MPI_Start(req);
}

__attribute__((noinline)) int chan_bench_m_test(MPI_Request *req, int *flag)
{
    return MPI_Test(req, flag, MPI_STATUS_IGNORE);
}

__attribute__((noinline)) int chan_bench_m_send(void)
{
    return MPI_Send(&buf_out, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
}

__attribute__((noinline)) int chan_bench_m_recv(void)
{
    return MPI_Recv(&buf_in, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* instr_sendrecv: n + 100 rounds, the first 100 not counted. */
static void chan_bench_instr_sendrecv(int n)
{
    int flag;

    for (int i = 0; i < n + 100; ++i) {
        if (0 == rank) {
            if (i < 100) {
                MPI_Send(&buf_out, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
            } else {
                chan_bench_m_send();
            }
            do {
                MPI_Iprobe(1, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            } while (!flag);
            if (i < 100) {
                MPI_Recv(&buf_in, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                chan_bench_m_recv();
            }
        } else {
            MPI_Recv(&buf_in, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&buf_out, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
        }
    }
}

/* One-way messages from rank 0; rank 1 starts each receive before an
 * ordinary zero-byte message tells rank 0 to send (ready channels). */
static void chan_bench_instr(MPI_Request *s, MPI_Request *r, int n)
{
    int flag = 0;

    for (int i = 0; i < n; ++i) {
        if (0 == rank) {
            MPI_Recv(NULL, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            chan_bench_m_start(s);
            do {
                chan_bench_m_test(s, &flag);
            } while (!flag);
        } else {
            MPI_Start(r);
            MPI_Send(NULL, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
            MPI_Wait(r, MPI_STATUS_IGNORE);
        }
    }
}

static void chan_bench_check(int rc)
{
    if (MPI_SUCCESS != rc) {
        fprintf(stderr, "chan_bench: MPIX_Bind_channel failed (%d)\n", rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* The ping-pong's persistent pair (8 bytes, tag 1, toward the other
 * rank) and, when the engine is there, its channels (else cs and cr stay
 * MPI_REQUEST_NULL). */
static void chan_bench_pair(MPI_Request *s, MPI_Request *r, MPI_Request *cs, MPI_Request *cr)
{
    MPI_Send_init(&buf_out, 1, MPI_DOUBLE, 1 - rank, 1, MPI_COMM_WORLD, s);
    MPI_Recv_init(&buf_in, 1, MPI_DOUBLE, 1 - rank, 1, MPI_COMM_WORLD, r);
    *cs = *cr = MPI_REQUEST_NULL;
    if (NULL == chan_api || NULL == chan_api->prepare) {
        return;
    }
    /* The engine must serve them: the table's engine entries are NULL when
     * it is off, and then the extension would bind on its fallback. */
    if (0 == rank) {
        chan_bench_check(MPIX_Bind_channel(*s, cs, MPI_INFO_NULL));
        chan_bench_check(MPIX_Bind_channel(*r, cr, MPI_INFO_NULL));
    } else {
        chan_bench_check(MPIX_Bind_channel(*r, cr, MPI_INFO_NULL));
        chan_bench_check(MPIX_Bind_channel(*s, cs, MPI_INFO_NULL));
    }
}

/* Undoes chan_bench_pair (s, r: MPI_REQUEST_NULL when it never ran). */
static void chan_bench_unpair(MPI_Request *s, MPI_Request *r, MPI_Request *cs, MPI_Request *cr)
{
    if (MPI_REQUEST_NULL != *cs) {
        MPIX_Unbind_channel(cs);
        MPIX_Unbind_channel(cr);
    }
    if (MPI_REQUEST_NULL != *s) {
        MPI_Request_free(s);
        MPI_Request_free(r);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int iters = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : ITERS;
    MPI_Request s = MPI_REQUEST_NULL, r = MPI_REQUEST_NULL;
    MPI_Request cs = MPI_REQUEST_NULL, cr = MPI_REQUEST_NULL;

    if (0 == strcmp(mode, "sendrecv")) {
        if (argc > 2 && 0 == strcmp(argv[2], "nochan")) {
            ompix_test_init(&argc, &argv);
        } else {
            chan_engine_init(&argc, &argv);
        }
        double t = chan_bench_sendrecv(ITERS);
        if (0 == rank) {
            printf("RESULT sendrecv_8B us %.4f 0\n", t);
        }
        MPI_Finalize();
        return 0;
    }
    if (0 == strcmp(mode, "instr_sendrecv") && argc > 3) {
        if (0 == strcmp(argv[3], "nochan")) {
            ompix_test_init(&argc, &argv);
        } else {
            chan_engine_init(&argc, &argv);
        }
        if (0 == strcmp(argv[3], "bound")) {
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
            chan_bench_pair(&s, &r, &cs, &cr);
            if (MPI_REQUEST_NULL == cs) {
                fprintf(stderr, "chan_bench: engine not available\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        chan_bench_instr_sendrecv(atoi(argv[2]));
        chan_bench_unpair(&s, &r, &cs, &cr);
        MPI_Finalize();
        return 0;
    }
    chan_engine_init(&argc, &argv);
    /* An error (a start refused under pml_chan_debug_ready, a failed bind)
     * must end the run, not leave a rank waiting. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    chan_bench_pair(&s, &r, &cs, &cr);
    if (0 == strcmp(mode, "instr") && argc > 3) {
        int chan = 0 == strcmp(argv[3], "chan");
        if (chan && MPI_REQUEST_NULL == cs) {
            fprintf(stderr, "chan_bench: engine not available\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        chan_bench_instr(chan ? &cs : &s, chan ? &cr : &r, atoi(argv[2]));
    } else {
        double persist = chan_bench_time(chan_bench_persist_rounds, &s, &r, iters);
        if (MPI_REQUEST_NULL == cs || MPI_REQUEST_NULL == cr) {
            if (0 == rank) {
                fprintf(stderr, "chan_bench: engine not available\n");
            }
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        double chan = chan_bench_time(chan_bench_chan_rounds, &cs, &cr, iters);
        if (0 == rank) {
            printf("RESULT pingpong_8B us %.4f %.4f\n", chan, persist);
        }
    }
    chan_bench_unpair(&s, &r, &cs, &cr);
    MPI_Finalize();
    return 0;
}
