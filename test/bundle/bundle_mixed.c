/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120
 *
 * Bundles of mixed members, checked every iteration: round 0 holds a
 * persistent allreduce, a nested bundle of a ring exchange
 * (Send_init/Recv_init) on a duplicated communicator, and a send to
 * MPI_PROC_NULL; round 1 a generalized member that checks both results and
 * computes a value; round 2 a persistent broadcast of rank 0's value.  The
 * bundle with MPI_Startall beside an ordinary persistent pair, and every
 * Wait/Test form over bundles: Waitall, Waitany, Waitsome, Test, Testall,
 * Testany, Testsome, MPI_Request_get_status.
 */
#include "ompix_test.h"

#define ITERS 300

typedef struct {
    int in, sum, rbuf, sbuf, bval, bad, it;
} mixed_t;

static int check_start(void *extra)
{
    mixed_t *x = extra;
    int want = 0;

    for (int r = 0; r < size; ++r) {
        want += r + x->it;
    }
    x->bad += x->sum != want;
    x->bad += x->rbuf != left * 7 + x->it;
    x->bval = 0 == rank ? x->sum * 3 : -1;
    return MPI_SUCCESS;
}

static int done_poll(void *extra, int *completed)
{
    (void) extra;
    *completed = 1;
    return MPI_SUCCESS;
}

static void make(mixed_t *x, MPI_Comm ring, MPI_Request *b, MPI_Request m[7])
{
    int inner_sizes[1] = {2}, sizes[3] = {3, 1, 1}, dummy = 0;
    MPI_Request ring_reqs[2];

    MPIX_Allreduce_init(&x->in, &x->sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                        &m[0]);
    MPI_Send_init(&x->sbuf, 1, MPI_INT, right, 5, ring, &ring_reqs[0]);
    MPI_Recv_init(&x->rbuf, 1, MPI_INT, left, 5, ring, &ring_reqs[1]);
    m[5] = ring_reqs[0];
    m[6] = ring_reqs[1];
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(1, inner_sizes, ring_reqs, MPI_INFO_NULL, &m[1]));
    MPI_Send_init(&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m[2]);
    MPIX_Grequest_persistent_init(check_start, done_poll, NULL, x, &m[3]);
    MPIX_Bcast_init(&x->bval, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &m[4]);
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(3, sizes, m, MPI_INFO_NULL, b));
}

static void prepare(mixed_t *x, int it)
{
    x->it = it;
    x->in = rank + it;
    x->sbuf = rank * 7 + it;
    x->sum = x->rbuf = x->bval = -5;
}

static void verify(mixed_t *x)
{
    int want = 0;

    for (int r = 0; r < size; ++r) {
        want += r + x->it;
    }
    CHECK(0 == x->bad);
    CHECK(x->bval == want * 3);
}

/* One iteration completed by the Wait/Test form `form` (0..7). */
static void complete(int form, MPI_Request reqs[2], int n)
{
    int idx, flag = 0, outcount, idxs[2];

    switch (form) {
    case 0: CHECK(MPI_SUCCESS == MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE)); return;
    case 1:
        for (int k = 0; k < n; ++k) {
            CHECK(MPI_SUCCESS == MPI_Waitany(n, reqs, &idx, MPI_STATUS_IGNORE));
        }
        break;
    case 2:
        for (int k = 0; k < n; k += outcount) {
            CHECK(MPI_SUCCESS == MPI_Waitsome(n, reqs, &outcount, idxs, MPI_STATUSES_IGNORE));
        }
        break;
    case 3:
        for (int k = 0; k < n; ++k) {
            for (flag = 0; !flag;) {
                CHECK(MPI_SUCCESS == MPI_Test(&reqs[k], &flag, MPI_STATUS_IGNORE));
            }
        }
        break;
    case 4:
        while (!flag) {
            CHECK(MPI_SUCCESS == MPI_Testall(n, reqs, &flag, MPI_STATUSES_IGNORE));
        }
        break;
    case 5:
        for (int k = 0; k < n;) {
            CHECK(MPI_SUCCESS == MPI_Testany(n, reqs, &idx, &flag, MPI_STATUS_IGNORE));
            k += flag && MPI_UNDEFINED != idx;
        }
        break;
    case 6:
        for (int k = 0; k < n;) {
            CHECK(MPI_SUCCESS == MPI_Testsome(n, reqs, &outcount, idxs, MPI_STATUSES_IGNORE));
            k += MPI_UNDEFINED == outcount ? n : outcount;
        }
        break;
    default:
        while (!flag) {
            CHECK(MPI_SUCCESS == MPI_Request_get_status(reqs[0], &flag, MPI_STATUS_IGNORE));
        }
        CHECK(MPI_SUCCESS == MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
    }
}

int main(int argc, char **argv)
{
    static mixed_t x;
    MPI_Request b, m[7], reqs[3];
    MPI_Comm ring;
    int pr = -1, ps;

    ompix_test_init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &ring);
    make(&x, ring, &b, m);
    /* An ordinary pair beside the bundle in Startall. */
    MPI_Recv_init(&pr, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &reqs[1]);
    MPI_Send_init(&ps, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &reqs[2]);
    for (int it = 0; it < ITERS; ++it) {
        prepare(&x, it);
        ps = rank + 1000 * it;
        reqs[0] = b;
        CHECK(MPI_SUCCESS == MPI_Startall(3, reqs));
        complete(it % 8, reqs, 3);
        CHECK(MPI_REQUEST_NULL != reqs[0] && pr == left + 1000 * it);
        verify(&x);
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    CHECK(MPI_SUCCESS == MPI_Request_free(&m[1]));       /* the nested bundle */
    for (int i = 0; i < 7; ++i) {
        if (1 != i) {
            CHECK(MPI_SUCCESS == MPI_Request_free(&m[i]));
        }
    }
    MPI_Request_free(&reqs[1]);
    MPI_Request_free(&reqs[2]);
    MPI_Comm_free(&ring);
    return ompix_test_finish("bundle_mixed");
}
