/*
 * ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=240 mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 4 ranks run on the plugin build"
 *
 * PSCW completion order.  Over TCP, post's and complete's notifications
 * are one-way active messages; complete's is sent behind the epoch's data
 * (a fence, no flush, where that data went through UCX), so a target that
 * saw it before the data landed would read stale memory.  Every rank
 * exposes its window to all others and accesses all others in the same
 * epoch (several origins per target with 4 ranks); each origin adds 1 to
 * a counter word of every target (an active-message accumulate over TCP),
 * then puts 8 B .. 1 MiB into its own part there (one put, or the same
 * bytes in two pieces, the last one element), then overwrites its origin
 * buffer right after MPI_Win_complete (complete must be done with it).
 * The target checks every byte and the counter right after MPI_Win_wait
 * (MPI_Win_test in a third of the epochs): values carry the epoch, so
 * data of an earlier epoch is caught.  Allocated and created windows.
 * With CMA on (here) the data of TCP peers goes by CMA, complete on
 * return; rma_pscw_order_ucx runs this with osc_rdma2_cma 0, where it
 * goes through UCX puts.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompix_test.h"

#define MAX_BYTES (1 << 20)
#define EPOCHS 56

static int rank, nranks;

static int64_t pattern(int epoch, int origin, size_t i)
{
    return ((int64_t) (epoch + 1) << 32) | ((int64_t) origin << 24) | (int64_t) i;
}

static size_t epoch_bytes(int epoch)
{
    /* 8 B, 64 B, ... 1 MiB, then odd multiples of 8 between them */
    static const size_t sizes[] = { 8, 64, 512, 4096, 32768, 262144, 1 << 20,
                                    24, 1000, 65528, 520, 131080, 1048568 };
    return sizes[epoch % (int) (sizeof(sizes) / sizeof(sizes[0]))];
}

/* Window layout: a counter word, then one MAX_BYTES part per origin. */
static size_t part_disp(int origin)
{
    return 8 + (size_t) origin * MAX_BYTES;
}

static void put_part(MPI_Win win, int target, int64_t *buf, size_t bytes, int pieces)
{
    size_t n = bytes / 8, done = 0;

    if (pieces && n > 2) {
        size_t big = n - 1;     /* most of it, then the last element alone */
        MPI_Put(buf, (int) big, MPI_INT64_T, target, (MPI_Aint) part_disp(rank), (int) big,
                MPI_INT64_T, win);
        done = big;
    }
    MPI_Put(buf + done, (int) (n - done), MPI_INT64_T, target,
            (MPI_Aint) (part_disp(rank) + done * 8), (int) (n - done), MPI_INT64_T, win);
}

static void end_exposure(MPI_Win win, int epoch)
{
    int flag = 0;

    if (epoch % 3 != 2) {
        MPI_Win_wait(win);
        return;
    }
    while (!flag) {
        MPI_Win_test(win, &flag);
    }
}

static void check_parts(const char *flavor, char *base, int epoch)
{
    size_t bytes = epoch_bytes(epoch), n = bytes / 8;
    int64_t counter;

    memcpy(&counter, base, 8);
    if (counter != (int64_t) (epoch + 1) * (nranks - 1)) {
        fprintf(stderr, "rank %d %s epoch %d: counter %lld, expected %lld\n", rank, flavor, epoch,
                (long long) counter, (long long) (epoch + 1) * (nranks - 1));
        CHECK(0);
    }
    for (int o = 0; o < nranks; ++o) {
        const int64_t *part = (const int64_t *) (base + part_disp(o));
        if (o == rank) {
            continue;
        }
        for (size_t i = 0; i < n; ++i) {
            if (part[i] != pattern(epoch, o, i)) {
                fprintf(stderr, "rank %d %s epoch %d (%zu B) origin %d: element %zu is %llx, "
                        "expected %llx\n", rank, flavor, epoch, bytes, o, i,
                        (unsigned long long) part[i],
                        (unsigned long long) pattern(epoch, o, i));
                CHECK(0);
                break;
            }
        }
    }
}

static void run(const char *flavor, MPI_Win win, char *base, MPI_Group others)
{
    int64_t *buf = malloc(MAX_BYTES), one = 1;

    CHECK(NULL != buf);
    memset(base, 0, 8);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int epoch = 0; epoch < EPOCHS && NULL != buf; ++epoch) {
        size_t bytes = epoch_bytes(epoch);

        MPI_Win_post(others, 0, win);
        MPI_Win_start(others, 0, win);
        for (size_t i = 0; i < bytes / 8; ++i) {
            buf[i] = pattern(epoch, rank, i);   /* the same for every target */
        }
        for (int k = 1; k < nranks; ++k) {
            int target = (rank + k) % nranks;
            /* the accumulate first: after the puts, the lock path's own
             * completion would complete them too */
            MPI_Accumulate(&one, 1, MPI_INT64_T, target, 0, 1, MPI_INT64_T, MPI_SUM, win);
            put_part(win, target, buf, bytes, epoch & 1);
        }
        MPI_Win_complete(win);
        memset(buf, 0xa5, bytes);       /* complete is done with the origin buffer */
        end_exposure(win, epoch);
        check_parts(flavor, base, epoch);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Group world, others;
    MPI_Win win;
    char *base;
    size_t size;

    ompix_test_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_excl(world, 1, &rank, &others);
    size = part_disp(nranks);

    MPI_Win_allocate((MPI_Aint) size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    run("allocate", win, base, others);
    MPI_Win_free(&win);

    base = calloc(1, size);     /* written by other processes (CMA), which valgrind does not see */
    CHECK(NULL != base);
    MPI_Win_create(base, (MPI_Aint) size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    run("create", win, base, others);
    MPI_Win_free(&win);
    free(base);

    MPI_Group_free(&others);
    MPI_Group_free(&world);
    return ompix_test_finish("rma_pscw_order");
}
