/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=180
 *
 * 10 000 init/start/wait/free cycles of a bundle (a receive, a send, a
 * persistent generalized request created and freed each cycle, and a
 * nested bundle) leak nothing: the heap in use after the last cycle is
 * what it was after the first thousand (malloc's own count, mallinfo2),
 * and valgrind (test/run --valgrind) finds nothing; every member works on
 * its own after each free.
 */
#include "ompix_test.h"

#include <malloc.h>

#define CYCLES 10000

static int starts, frees;

static int g_start(void *extra)
{
    (void) extra;
    starts++;
    return MPI_SUCCESS;
}

static int g_poll(void *extra, int *completed)
{
    (void) extra;
    *completed = 1;
    return MPI_SUCCESS;
}

static int g_free(void *extra)
{
    (void) extra;
    frees++;
    return MPI_SUCCESS;
}

static void cycle(MPI_Request pair[2], int it, int *sbuf, int *rbuf)
{
    MPI_Request g, inner, m[2], b;
    int two = 2, sizes[2] = {1, 1};

    MPIX_Grequest_persistent_init(g_start, g_poll, g_free, NULL, &g);
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(1, &two, pair, MPI_INFO_NULL, &inner));
    m[0] = inner;
    m[1] = g;
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(2, sizes, m, MPI_INFO_NULL, &b));
    *sbuf = rank + it;
    CHECK(MPI_SUCCESS == MPI_Start(&b) && MPI_SUCCESS == MPI_Wait(&b, MPI_STATUS_IGNORE));
    CHECK(*rbuf == left + it);
    CHECK(MPI_SUCCESS == MPI_Request_free(&b) && MPI_SUCCESS == MPI_Request_free(&inner));
    CHECK(MPI_SUCCESS == MPI_Request_free(&g));
}

int main(int argc, char **argv)
{
    MPI_Request pair[2];
    int sbuf = 0, rbuf = -1;
    size_t base = 0;

    ompix_test_init(&argc, &argv);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &pair[0]);
    MPI_Send_init(&sbuf, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &pair[1]);
    for (int it = 0; it < CYCLES; ++it) {
        if (1000 == it) {
            base = mallinfo2().uordblks;
        }
        cycle(pair, it, &sbuf, &rbuf);
    }
    /* a little slack for what the transports allocate on their own */
    CHECK(mallinfo2().uordblks <= base + 64 * 1024);
    CHECK(CYCLES == starts && CYCLES == frees);
    /* given back: the pair works on its own */
    sbuf = rank;
    CHECK(MPI_SUCCESS == MPI_Startall(2, pair));
    CHECK(MPI_SUCCESS == MPI_Waitall(2, pair, MPI_STATUSES_IGNORE) && rbuf == left);
    MPI_Request_free(&pair[0]);
    MPI_Request_free(&pair[1]);
    return ompix_test_finish("bundle_cycles");
}
