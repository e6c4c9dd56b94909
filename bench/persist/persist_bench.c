/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Persistent collectives: start+wait latency of the persistent collective
 * (whichever coll component serves MPIX_*_init in this run) against the
 * blocking collective, interleaved repetition by repetition.  Prints
 * "RESULT <metric> us <persistent-median> <blocking-median>".
 *
 *   persist_bench latency             allreduce_8B bcast_8B barrier allreduce_1MiB bcast_1MiB
 *   persist_bench instr N persistent|blocking   N allreduce_8B, for callgrind
 *
 * In instr mode rank 0 naps 2 ms between MPI_Start and MPI_Wait of a
 * persistent allreduce, so that the other ranks (slowed down by callgrind,
 * four of them on two cores) have sent everything by the time it waits:
 * its count is then the collective's own work, not how often it polled
 * while they were descheduled (which moved the ratio from 0.23 to 0.50 run
 * to run).
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ompix_bench.h"
#include "../../test/include/ompix_pcoll.h"    /* MPIX_*_init on 5.0 too */

#define REPS 15

static int rank;

typedef enum { ALLREDUCE, BCAST, BARRIER } kind_t;

static void one(kind_t kind, int blocking, MPI_Request req, double *sbuf, double *rbuf, int n)
{
    if (!blocking) {
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (ALLREDUCE == kind) {
        MPI_Allreduce(sbuf, rbuf, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    } else if (BCAST == kind) {
        MPI_Bcast(sbuf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

static MPI_Request init(kind_t kind, double *sbuf, double *rbuf, int n)
{
    MPI_Request req;
    if (ALLREDUCE == kind) {
        MPIX_Allreduce_init(sbuf, rbuf, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    } else if (BCAST == kind) {
        MPIX_Bcast_init(sbuf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    } else {
        MPIX_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    }
    return req;
}

static void latency(const char *metric, kind_t kind, int n, int iters)
{
    double *sbuf = calloc((size_t) n + 1, sizeof(double)), *rbuf = calloc((size_t) n + 1, sizeof(double));
    double t[2][REPS];
    MPI_Request req = init(kind, sbuf, rbuf, n);

    for (int rep = -1; rep < REPS; ++rep) {
        for (int blocking = 0; blocking < 2; ++blocking) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < iters; ++i) {
                one(kind, blocking, req, sbuf, rbuf, n);
            }
            double dt = (MPI_Wtime() - t0) / iters * 1e6, worst;
            /* a collective takes as long as its slowest rank */
            MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (rep >= 0) {
                t[blocking][rep] = worst;
            }
        }
    }
    if (0 == rank) {
        printf("RESULT %s us %.4f %.4f\n", metric, ompix_bench_median(t[0], REPS),
               ompix_bench_median(t[1], REPS));
    }
    MPI_Request_free(&req);
    free(sbuf);
    free(rbuf);
}

/* The loop callgrind counts (bench/run collects inside this function
 * only: MPI_Init and MPI_Finalize poll for as long as the other ranks
 * take, which moved whole-program totals by more than 1000 starts cost). */
__attribute__((noinline)) void persist_bench_measured(int n, int blocking, MPI_Request req,
                                                      double *s, double *r);
__attribute__((noinline)) void persist_bench_measured(int n, int blocking, MPI_Request req,
                                                      double *s, double *r)
{
    struct timespec nap = { 0, 2000000 };

    for (int i = 0; i < n; ++i) {
        if (blocking) {
            one(ALLREDUCE, blocking, req, s, r, 1);
            continue;
        }
        MPI_Start(&req);
        if (0 == rank) {
            nanosleep(&nap, NULL);
        }
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc >= 2 && 0 == strcmp(argv[1], "latency")) {
        latency("allreduce_8B", ALLREDUCE, 1, 20000);
        latency("bcast_8B", BCAST, 1, 20000);
        latency("barrier", BARRIER, 0, 20000);
        latency("allreduce_1MiB", ALLREDUCE, 131072, 100);
        latency("bcast_1MiB", BCAST, 131072, 200);
    } else if (argc >= 4 && 0 == strcmp(argv[1], "instr")) {
        double s = 1, r;
        MPI_Request req = init(ALLREDUCE, &s, &r, 1);
        persist_bench_measured(atoi(argv[2]), 0 == strcmp(argv[3], "blocking"), req, &s, &r);
        MPI_Request_free(&req);
    } else {
        if (0 == rank) fprintf(stderr, "usage: persist_bench latency | instr N persistent|blocking\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    return 0;
}
