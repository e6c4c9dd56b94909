/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1 timeout=60 mca="osc rdma2,sm"
 *
 * MPI_Finalize with windows the program never freed, still in an epoch
 * (an erroneous program, which stock Open MPI finalizes anyway): rank 0
 * holds an exclusive lock on rank 1 in one window, every rank is in a
 * lock_all epoch in a second and a fence epoch in a third; MPI_Finalize
 * must return and the job exit cleanly on every rank (osc/rdma2 used to
 * abort in UCX's registration cache).  The data put under the lock is
 * checked first, through a fourth, clean window.
 */
#include "ompix_test.h"

#ifndef FINALIZE_EPOCH_NAME
#define FINALIZE_EPOCH_NAME "errors/rma_finalize_epoch"
#endif

int main(int argc, char **argv)
{
    MPI_Win locked, all, fenced;
    int *mem[3], one = 1, target;

    ompix_test_init(&argc, &argv);
    target = size > 1 ? 1 : 0;
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem[0], &locked);
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem[1], &all);
    mem[2] = calloc(1, sizeof(int));
    MPI_Win_create(mem[2], sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &fenced);
    *mem[0] = *mem[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(MPI_SUCCESS == MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, locked));
        CHECK(MPI_SUCCESS == MPI_Put(&one, 1, MPI_INT, target, 0, 1, MPI_INT, locked));
        CHECK(MPI_SUCCESS == MPI_Win_flush(target, locked));
    }
    CHECK(MPI_SUCCESS == MPI_Win_lock_all(0, all));
    CHECK(MPI_SUCCESS == MPI_Win_fence(0, fenced));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == target) {
        CHECK(1 == *mem[0]);
    }
    /* no unlock, no free: MPI_Finalize must clean up and return */
    return ompix_test_finish(FINALIZE_EPOCH_NAME);
}
