/*
 * Copyright (c) 2026 The ompix developers.
 *
 * ompix demo: MPI continuations.  Two ranks exchange messages; instead of
 * polling requests, each exchange registers a callback that the library
 * runs once the exchange is complete.  Then the same exchange is driven by
 * stock Open MPI (MPI_Waitall) for comparison.
 *
 *   mpicc $(pkg-config --cflags ompix) continue_demo.c -o continue_demo $(pkg-config --libs ompix)
 *   mpirun -np 2 ./continue_demo
 *
 * Lines starting with RESULT are for examples/run-demo's table:
 * RESULT <metric> <us/iteration> <label>.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>

#ifndef OMPI_HAVE_MPI_EXT_CONTINUE
#error "this Open MPI has no continuations: build with ompix (see README.md)"
#endif

#define ROUNDS 1000
#define TIMED 20000

static int rank, peer;

typedef struct {
    int ran;           /* callbacks run */
    long sum;          /* of the values received */
    int rbuf;
} tally_t;

/* Runs once the receive and the send of one exchange are both complete. */
static void exchanged(MPI_Status *statuses, void *data)
{
    tally_t *t = data;
    t->ran++;
    t->sum += t->rbuf;
    if (MPI_STATUSES_IGNORE != statuses && statuses[0].MPI_SOURCE != peer) {
        printf("rank %d: unexpected source %d\n", rank, statuses[0].MPI_SOURCE);
    }
}

/* A persistent exchange that restarts itself from its own callback. */
typedef struct {
    MPI_Request pr[2];
    int rounds;
} pump_t;

static void pump(MPI_Status *statuses, void *data)
{
    pump_t *p = data;
    (void)statuses;
    if (++p->rounds < ROUNDS) {
        MPI_Startall(2, p->pr);
    }
}

static double time_exchanges(MPI_Request cont)
{
    int sbuf = rank, rbuf;
    tally_t t = {0, 0, 0};
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < TIMED; ++i) {
        MPI_Request r[2];
        MPI_Irecv(&rbuf, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&sbuf, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[1]);
        if (MPI_REQUEST_NULL != cont) {
            MPIX_Continueall(2, r, exchanged, &t, MPIX_CONT_IMMEDIATE, MPI_STATUSES_IGNORE, cont);
            MPI_Wait(&cont, MPI_STATUS_IGNORE);
        } else {
            MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        }
    }
    return (MPI_Wtime() - t0) / TIMED * 1e6;
}

int main(int argc, char **argv)
{
    int size;
    MPI_Request cont;
    MPI_Status statuses[2];
    tally_t t = {0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        if (0 == rank) fprintf(stderr, "run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    peer = 1 - rank;
    MPIX_Continue_init(MPI_INFO_NULL, &cont);

    /* 1. One continuation per exchange; the handles are taken over. */
    int sbuf = rank + 1;
    for (int i = 0; i < ROUNDS; ++i) {
        MPI_Request r[2];
        MPI_Irecv(&t.rbuf, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&sbuf, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[1]);
        MPIX_Continueall(2, r, exchanged, &t, 0, statuses, cont);
        MPI_Wait(&cont, MPI_STATUS_IGNORE);   /* runs `exchanged` */
    }
    if (0 == rank) {
        printf("continuations: %d exchanges, %d callbacks ran, received sum %ld (expected %d)\n",
               ROUNDS, t.ran, t.sum, ROUNDS * (peer + 1));
    }

    /* 2. A persistent continuation re-armed by every MPI_Start. */
    pump_t p = {{MPI_REQUEST_NULL, MPI_REQUEST_NULL}, 0};
    int prbuf;
    MPI_Recv_init(&prbuf, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &p.pr[0]);
    MPI_Send_init(&sbuf, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &p.pr[1]);
    MPIX_Continueall(2, p.pr, pump, &p, MPIX_CONT_PERSISTENT, MPI_STATUSES_IGNORE, cont);
    MPI_Startall(2, p.pr);
    while (p.rounds < ROUNDS) {
        MPI_Wait(&cont, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&p.pr[0]);
    MPI_Request_free(&p.pr[1]);
    if (0 == rank) {
        printf("persistent continuation: one send/recv pair restarted from its own callback %d times\n",
               p.rounds);
    }

    /* 3. The same exchange, continuation-driven vs stock MPI_Waitall, in
     * interleaved rounds; the best round of each counts. */
    double ours = 1e30, stock = 1e30;
    for (int k = 0; k < 5; ++k) {
        double t = time_exchanges(cont);
        ours = t < ours ? t : ours;
        t = time_exchanges(MPI_REQUEST_NULL);
        stock = t < stock ? t : stock;
    }
    if (0 == rank) {
        printf("8-byte exchange: %.3g us with a continuation, %.3g us with stock MPI_Waitall "
               "(%.2fx)\n", ours, stock, ours / stock);
        printf("RESULT exchange_8B %.6f continuation\n", ours);
        printf("RESULT exchange_8B %.6f MPI_Waitall\n", stock);
    }
    MPI_Request_free(&cont);
    MPI_Finalize();
    return t.ran == ROUNDS && t.sum == (long) ROUNDS * (peer + 1) ? 0 : 1;
}
