/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Continuation benchmarks; ours and the stock baseline run back to back,
 * interleaved repetition by repetition, in one process.  Prints one line
 * per metric: "RESULT <metric> <unit> <ours-median> <baseline-median>".
 *
 *   cont_bench pingpong   (2 ranks) half round trip of 8 bytes; ours: the
 *                         exchange is registered as a continuation and the
 *                         loop waits on the continuation request; baseline:
 *                         MPI_Waitall on the same two requests.
 *   cont_bench rate       (2 ranks) 1024 receives outstanding on rank 1;
 *                         ours: one continuation per receive; baseline: an
 *                         MPI_Testsome loop handling each completion.
 *   cont_bench instr N cont|wait  (1 rank) N self exchanges, for callgrind.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompix_bench.h"

#define REPS 15
#define NOPS 1024

static int rank;
static long handled;

static void count_cb(MPI_Status *st, void *data)
{
    (void)st;
    (void)data;
    handled++;
}

/* One round trip; `cr` selects continuation-driven (ours) or Waitall. */
static void round_trip(int peer, char *sbuf, char *rbuf, MPI_Request cr)
{
    MPI_Request r[2];
    for (int leg = 0; leg < 2; ++leg) {
        if ((0 == rank) == (0 == leg)) {
            MPI_Isend(sbuf, 8, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r[0]);
            r[1] = MPI_REQUEST_NULL;
        } else {
            MPI_Irecv(rbuf, 8, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r[0]);
            r[1] = MPI_REQUEST_NULL;
        }
        if (MPI_REQUEST_NULL != cr) {
            MPIX_Continueall(1, r, count_cb, NULL, MPIX_CONT_IMMEDIATE, MPI_STATUSES_IGNORE, cr);
            MPI_Wait(&cr, MPI_STATUS_IGNORE);
        } else {
            MPI_Waitall(1, r, MPI_STATUSES_IGNORE);
        }
    }
}

static void pingpong(void)
{
    const int iters = 20000;
    char sbuf[8] = {0}, rbuf[8];
    double t[2][REPS];
    MPI_Request cr;
    int peer = 1 - rank;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    for (int rep = -1; rep < REPS; ++rep) {
        for (int mode = 0; mode < 2; ++mode) {
            MPI_Request use = (0 == mode) ? cr : MPI_REQUEST_NULL;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < iters; ++i) {
                round_trip(peer, sbuf, rbuf, use);
            }
            if (rep >= 0) {
                t[mode][rep] = (MPI_Wtime() - t0) / iters / 2 * 1e6;
            }
        }
    }
    if (0 == rank) {
        printf("RESULT pingpong_8B us %.4f %.4f\n", ompix_bench_median(t[0], REPS),
               ompix_bench_median(t[1], REPS));
    }
    MPI_Request_free(&cr);
}

static void rate(void)
{
    static int bufs[NOPS];
    MPI_Request reqs[NOPS], cr;
    int indices[NOPS];
    double t[2][REPS];
    int go = 1;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    for (int rep = -1; rep < REPS; ++rep) {
        for (int mode = 0; mode < 2; ++mode) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (0 == rank) {
                MPI_Recv(&go, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                for (int i = 0; i < NOPS; ++i) {
                    MPI_Send(&bufs[i], 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
                }
                continue;
            }
            handled = 0;
            double t0 = MPI_Wtime();
            for (int i = 0; i < NOPS; ++i) {
                MPI_Irecv(&bufs[i], 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &reqs[i]);
                if (0 == mode) {
                    MPIX_Continue(&reqs[i], count_cb, NULL, 0, MPI_STATUS_IGNORE, cr);
                }
            }
            MPI_Send(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
            if (0 == mode) {
                MPI_Wait(&cr, MPI_STATUS_IGNORE);
            } else {
                while (handled < NOPS) {
                    int n;
                    MPI_Testsome(NOPS, reqs, &n, indices, MPI_STATUSES_IGNORE);
                    for (int k = 0; k < n; ++k) {
                        count_cb(MPI_STATUS_IGNORE, &bufs[indices[k]]);
                    }
                }
            }
            if (rep >= 0) {
                t[mode][rep] = NOPS / (MPI_Wtime() - t0);
            }
            if (NOPS != handled) {
                fprintf(stderr, "cont_bench: handled %ld of %d\n", handled, NOPS);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
    }
    if (1 == rank) {
        printf("RESULT completion_rate ops/s %.0f %.0f\n", ompix_bench_median(t[0], REPS),
               ompix_bench_median(t[1], REPS));
    }
    MPI_Request_free(&cr);
}

/* N self exchanges, each completed by a continuation or by MPI_Waitall.
 * Not inlined: bench/run counts instructions inside it only
 * (--toggle-collect), so start-up and finalize polling stay out. */
static __attribute__((noinline)) void cont_bench_measured(int n, int cont)
{
    MPI_Request cr, r[2];
    int sbuf = 1, rbuf;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    for (int i = 0; i < n; ++i) {
        MPI_Irecv(&rbuf, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &r[0]);
        MPI_Isend(&sbuf, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &r[1]);
        if (cont) {
            MPIX_Continueall(2, r, count_cb, NULL, 0, MPI_STATUSES_IGNORE, cr);
            MPI_Wait(&cr, MPI_STATUS_IGNORE);
        } else {
            MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        }
    }
    MPI_Request_free(&cr);
}

int main(int argc, char **argv)
{
    int size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc >= 2 && 0 == strcmp(argv[1], "pingpong") && 2 == size) {
        pingpong();
    } else if (argc >= 2 && 0 == strcmp(argv[1], "rate") && 2 == size) {
        rate();
    } else if (argc >= 4 && 0 == strcmp(argv[1], "instr")) {
        cont_bench_measured(atoi(argv[2]), 0 == strcmp(argv[3], "cont"));
    } else {
        if (0 == rank) {
            fprintf(stderr, "usage: cont_bench pingpong|rate (2 ranks) | instr N cont|wait\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    return 0;
}
