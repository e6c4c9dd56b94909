/*
 * Copyright (c) 2026 The ompix developers.
 *
 * ompix demo: one-sided communication.  Each of two ranks opens a passive
 * epoch on the other's MPI_Win_allocate window, puts a value, flushes,
 * increments a counter there with MPI_Fetch_and_op and closes the epoch,
 * over and over; every fetched counter is checked, and so are both windows
 * at the end.  Which osc component serves the window is chosen by mpirun,
 * so run it once per component and compare:
 *
 *   mpirun -np 2 --mca osc rdma2,sm ./rma_demo osc/rdma2   (ompix)
 *   mpirun -np 2 --mca osc sm ./rma_demo "osc sm"          (stock Open MPI)
 *   mpirun -np 2 --mca osc rdma ./rma_demo "osc rdma"      (stock Open MPI)
 *
 * The argument only labels the output.  Lines starting with RESULT are for
 * examples/run-demo's table: RESULT <metric> <us/iteration> <label>.
 */
#include <mpi.h>
#include <stdio.h>

#define ITERS 20000
#define ROUNDS 7

int main(int argc, char **argv)
{
    const char *label = argc > 1 ? argv[1] : "this run";
    int rank, size;
    long long *base;   /* [0]: the value the peer puts, [1]: the counter it increments */
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        if (0 == rank) fprintf(stderr, "run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int peer = 1 - rank;
    MPI_Win_allocate(2 * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    base[0] = base[1] = 0;
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);

    long long one = 1, fetched, value = 0, n = 0;
    long bad = 0;
    double best = 1e30;
    for (int r = 0; r < ROUNDS; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < ITERS; ++i, ++n) {
            value = 1000000LL * (rank + 1) + n;
            MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win);
            MPI_Put(&value, 1, MPI_LONG_LONG, peer, 0, 1, MPI_LONG_LONG, win);
            MPI_Win_flush(peer, win);
            MPI_Fetch_and_op(&one, &fetched, MPI_LONG_LONG, peer, 1, MPI_SUM, win);
            MPI_Win_unlock(peer, win);
            bad += fetched != n;   /* only this rank increments the peer's counter */
        }
        double t = (MPI_Wtime() - t0) / ITERS * 1e6;
        best = t < best ? t : best;
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* My window: the peer's last value and n increments. */
    long long mine[2];
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    MPI_Get(mine, 2, MPI_LONG_LONG, rank, 0, 2, MPI_LONG_LONG, win);
    MPI_Win_unlock(rank, win);
    bad += mine[0] != 1000000LL * (peer + 1) + n - 1 || mine[1] != n;

    long all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("RMA on an MPI_Win_allocate window served by %s, 2 ranks, 8 bytes: "
               "%lld epochs per rank, %s\n", label, n, all_bad ? "WRONG DATA" : "all data correct");
        printf("  lock + put + flush + fetch_and_op + unlock: %.3g us/iteration\n", best);
        printf("RESULT rma_epoch_8B %.6f %s\n", best, label);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return all_bad ? 1 : 0;
}
