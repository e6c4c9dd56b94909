/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=90
 *
 * Continuations on every kind of request: nonblocking collectives,
 * generalized requests (status from the query function), RMA request
 * operations, MPI-IO, and a mix of them in one Continueall.
 */
#include "ompix_test.h"
#include <unistd.h>

typedef struct {
    int ran;
    MPI_Status st;
} record_t;

static void record_cb(MPI_Status *st, void *data)
{
    record_t *r = data;
    r->ran++;
    if (MPI_STATUSES_IGNORE != st) {
        r->st = st[0];
    }
}

static void collectives(MPI_Request cr)
{
    record_t rec = {0};
    int in = rank + 1, out = 0, bval = (0 == rank) ? 42 : 0;
    MPI_Request r[3];

    for (int it = 0; it < 20; ++it) {
        MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
        MPI_Ibcast(&bval, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Ibarrier(MPI_COMM_WORLD, &r[2]);
        CHECK(MPI_SUCCESS == MPIX_Continueall(3, r, record_cb, &rec, 0, MPI_STATUSES_IGNORE, cr));
        MPI_Wait(&cr, MPI_STATUS_IGNORE);
        CHECK(it + 1 == rec.ran);
        CHECK(size * (size + 1) / 2 == out && 42 == bval);
    }
}


static void generalized(MPI_Request cr)
{
    record_t rec = {0};
    MPI_Request g, h;
    int n = -1;

    g = grequest();
    h = g;
    CHECK(MPI_SUCCESS == MPIX_Continue(&h, record_cb, &rec, 0, &rec.st, cr));
    CHECK(MPI_REQUEST_NULL == h);
    MPI_Grequest_complete(g);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(1 == rec.ran);
    MPI_Get_count(&rec.st, MPI_INT, &n);
    CHECK(42 == rec.st.MPI_SOURCE && 43 == rec.st.MPI_TAG && 3 == n);
}

static void rma(MPI_Request cr)
{
    record_t rec = {0};
    MPI_Win win;
    int *base, right = (rank + 1) % size, got = -1, val = rank;
    MPI_Request r[2];

    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    *base = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Rput(&val, 1, MPI_INT, right, 0, 1, MPI_INT, win, &r[0]);
    MPI_Win_flush(right, win);
    MPI_Rget(&got, 1, MPI_INT, right, 0, 1, MPI_INT, win, &r[1]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, record_cb, &rec, 0, MPI_STATUSES_IGNORE, cr));
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(1 == rec.ran && rank == got);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(*base == (rank + size - 1) % size);
    MPI_Win_free(&win);
}

static void file_io(MPI_Request cr)
{
    record_t rec = {0};
    char path[256];
    MPI_File fh;
    int data[4], back[4] = {0};
    MPI_Request r;
    MPI_Offset off = (MPI_Offset) rank * sizeof(data);

    snprintf(path, sizeof(path), "/tmp/ompix-cont-kinds-%d.dat", (int) getppid());
    CHECK(MPI_SUCCESS == MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                                       MPI_INFO_NULL, &fh));
    for (int i = 0; i < 4; ++i) data[i] = rank * 10 + i;
    MPI_File_iwrite_at(fh, off, data, 4, MPI_INT, &r);
    CHECK(MPI_SUCCESS == MPIX_Continue(&r, record_cb, &rec, 0, &rec.st, cr));
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(1 == rec.ran);
    MPI_File_sync(fh);
    MPI_File_iread_at(fh, off, back, 4, MPI_INT, &r);
    CHECK(MPI_SUCCESS == MPIX_Continue(&r, record_cb, &rec, 0, &rec.st, cr));
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(2 == rec.ran);
    int n = -1;
    MPI_Get_count(&rec.st, MPI_INT, &n);
    CHECK(4 == n);
    for (int i = 0; i < 4; ++i) CHECK(back[i] == data[i]);
    MPI_File_close(&fh);
}

/* A point-to-point receive, a collective and a generalized request in one
 * continuation: it runs only after the last of them. */
static void mixed(MPI_Request cr)
{
    record_t rec = {0};
    MPI_Request r[3], g;
    int sbuf = rank, rbuf = -1, left = (rank + size - 1) % size;

    MPI_Irecv(&rbuf, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &r[0]);
    MPI_Ibarrier(MPI_COMM_WORLD, &r[1]);
    g = grequest();
    r[2] = g;
    MPIX_Continueall(3, r, record_cb, &rec, 0, MPI_STATUSES_IGNORE, cr);
    MPI_Send(&sbuf, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD);
    for (int i = 0; i < 100; ++i) {
        int flag;
        MPI_Test(&cr, &flag, MPI_STATUS_IGNORE);
    }
    CHECK(0 == rec.ran);                    /* the generalized request is pending */
    MPI_Grequest_complete(g);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(1 == rec.ran && left == rbuf);
}

int main(int argc, char **argv)
{
    MPI_Request cr;

    ompix_test_init(&argc, &argv);
    MPIX_Continue_init(MPI_INFO_NULL, &cr);

    collectives(cr);
    generalized(cr);
    rma(cr);
    file_io(cr);
    mixed(cr);

    MPI_Request_free(&cr);
    return ompix_test_finish("cont_kinds");
}
