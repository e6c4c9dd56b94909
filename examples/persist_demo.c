/*
 * Copyright (c) 2026 The ompix developers.
 *
 * ompix demo: persistent collectives.  An 8-byte allreduce is planned once
 * with MPIX_Allreduce_init and then replayed with MPI_Start/MPI_Wait; the
 * send buffer changes every iteration and every result is checked.  The
 * same loop with blocking MPI_Allreduce runs in the same process, rounds
 * interleaved, best round kept.  Which component serves MPIX_Allreduce_init
 * is chosen by mpirun, so run it twice and compare:
 *
 *   mpirun -np 2 ./persist_demo coll/persist                  (ompix, the default)
 *   mpirun -np 2 --mca coll ^persist ./persist_demo libnbc   (stock Open MPI)
 *
 * The argument only labels the output.  Lines starting with RESULT are for
 * examples/run-demo's table: RESULT <metric> <us/iteration> <label>.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>

#define ITERS 20000
#define ROUNDS 7

static int rank, size;
static long bad;    /* results that were not the expected sum */

/* Iteration i: every rank contributes rank + 1 + i, so the sum is known. */
static double expected(long i)
{
    return size * (size + 1) / 2.0 + (double) size * i;
}

static double loop(MPI_Request req, double *sbuf, double *rbuf, long first)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = first; i < first + ITERS; ++i) {
        *sbuf = rank + 1 + i;
        if (MPI_REQUEST_NULL != req) {
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Allreduce(sbuf, rbuf, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        bad += *rbuf != expected(i);
    }
    return (MPI_Wtime() - t0) / ITERS * 1e6;
}

int main(int argc, char **argv)
{
    const char *label = argc > 1 ? argv[1] : "this run";
    double sbuf = 0, rbuf = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Planned once: algorithm, buffers, requests (and with coll/persist on
     * one node, a shared segment). */
    MPIX_Allreduce_init(&sbuf, &rbuf, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
                        MPI_INFO_NULL, &req);

    double persistent = 1e30, blocking = 1e30;
    long first = 0;
    for (int r = 0; r < ROUNDS; ++r) {
        double t = loop(req, &sbuf, &rbuf, first);
        persistent = t < persistent ? t : persistent;
        first += ITERS;
        t = loop(MPI_REQUEST_NULL, &sbuf, &rbuf, first);
        blocking = t < blocking ? t : blocking;
        first += ITERS;
    }
    MPI_Request_free(&req);

    long all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("persistent allreduce served by %s, %d ranks, 8 bytes: %ld results checked, %s\n",
               label, size, (long) size * first, all_bad ? "WRONG RESULTS" : "all correct");
        printf("  start+wait of MPIX_Allreduce_init: %.3g us/iteration\n", persistent);
        printf("  blocking MPI_Allreduce:            %.3g us/iteration (persistent/blocking %.2f)\n", blocking,
               persistent / blocking);
        printf("RESULT allreduce_8B %.6f %s\n", persistent, label);
        printf("RESULT allreduce_8B %.6f MPI_Allreduce\n", blocking);
    }
    MPI_Finalize();
    return all_bad ? 1 : 0;
}
