/*
 * Copyright (c) 2026 The ompix developers.
 *
 * ompix demo: bound channels.  A 1-D halo exchange on a ring of ranks:
 * every iteration updates a small interior with a 3-point stencil, then
 * sends its two boundary cells to the neighbours and receives their
 * boundary cells into its two halo cells.  Written once with persistent
 * requests (MPI_Send_init/MPI_Recv_init, MPI_Startall, MPI_Waitall), and
 * once with one MPIX_Bind_channel per request: the loop is the same code.
 * Both run in the same process, rounds interleaved, best round kept;
 * every halo cell is checked on every iteration.
 *
 * The channel version binds MPI_Ssend_init requests: a channel bound from
 * MPI_Send_init is a *ready* channel, and in a halo loop a fast rank may
 * start its next send before its neighbour started the matching receive,
 * which a ready channel does not allow; a synchronous channel flow-controls
 * that case.  (For ordinary persistent requests MPI_Send_init is the
 * natural choice, so the stock version keeps it.)
 *
 *   mpirun -np 2 ./chan_halo channel
 *
 * Lines starting with RESULT are for examples/run-demo's table:
 * RESULT <metric> <us/iteration> <label>.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <string.h>

#define N 64            /* interior cells per rank */
#define ITERS 20000
#define ROUNDS 5

static int rank, size, left, right;
static long bad;        /* halo cells that did not hold the neighbour's value */

/* The boundary cells of rank r at iteration it: known everywhere, so each
 * receive can be checked. */
static double first_cell(int r, long it) { return r * 1e6 + (double) it; }
static double last_cell(int r, long it) { return r * 1e6 + (double) it + 0.5; }

/* u[0] and u[N + 1] are the halo cells. */
static double loop(MPI_Request reqs[4], double *u, double *v, long first)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long it = first; it < first + ITERS; ++it) {
        for (int i = 1; i <= N; ++i) {
            v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
        }
        memcpy(&u[1], &v[1], sizeof(double) * N);
        u[1] = first_cell(rank, it);
        u[N] = last_cell(rank, it);
        MPI_Startall(2, reqs);          /* the receives into the halo cells */
        MPI_Startall(2, reqs + 2);      /* the boundary cells */
        MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
        bad += u[0] != last_cell(left, it);
        bad += u[N + 1] != first_cell(right, it);
    }
    return (MPI_Wtime() - t0) / ITERS * 1e6;
}

/* recv from left into u[0], recv from right into u[N+1], send u[1] to
 * left, send u[N] to right.  Tag 0 travels rightwards, tag 1 leftwards. */
static void make_requests(MPI_Request reqs[4], double *u, int synchronous)
{
    MPI_Recv_init(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(&u[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[1]);
    if (synchronous) {
        MPI_Ssend_init(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[2]);
        MPI_Ssend_init(&u[N], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[3]);
    } else {
        MPI_Send_init(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[2]);
        MPI_Send_init(&u[N], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[3]);
    }
}

int main(int argc, char **argv)
{
    const char *label = argc > 1 ? argv[1] : "channel";
    double u[N + 2] = {0}, v[N + 2] = {0};
    MPI_Request persistent[4], reqs[4], chans[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;

    make_requests(persistent, u, 0);
    /* Bind once: each channel matches its partner's request for good. */
    make_requests(reqs, u, 1);
    MPIX_Bind_channels(4, reqs, chans, NULL);

    double t_pers = 1e30, t_chan = 1e30;
    long first = 0;
    for (int r = 0; r < ROUNDS; ++r) {
        double t = loop(persistent, u, v, first);
        t_pers = t < t_pers ? t : t_pers;
        first += ITERS;
        t = loop(chans, u, v, first);
        t_chan = t < t_chan ? t : t_chan;
        first += ITERS;
    }
    for (int i = 0; i < 4; ++i) {
        MPIX_Unbind_channel(&chans[i]);
        MPI_Request_free(&reqs[i]);
        MPI_Request_free(&persistent[i]);
    }

    long all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("halo exchange, %d ranks in a ring, 8-byte halos, %d-cell stencil: %ld halo cells "
               "checked, %s\n", size, N, 2L * size * first, all_bad ? "WRONG HALOS" : "all correct");
        printf("  Send_init/Recv_init + Startall/Waitall: %.3g us/iteration\n", t_pers);
        printf("  the same with MPIX_Bind_channels:       %.3g us/iteration (channel/persistent "
               "%.2f)\n", t_chan, t_chan / t_pers);
        printf("RESULT halo_8B %.6f %s\n", t_chan, label);
        printf("RESULT halo_8B %.6f Send_init\n", t_pers);
    }
    MPI_Finalize();
    return all_bad ? 1 : 0;
}
