/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=90
 *
 * Continuations on bundles (named bundle_cont, not bundle_continue: test/run's
 * valgrind leak check would take this file's frames for the continue
 * extension's continue.c): a continuation attached to each start of a ring
 * bundle (received data checked in the callback, 300 iterations); a
 * persistent continuation (MPIX_CONT_PERSISTENT) re-armed by every start,
 * with the bundle restarted from the callback; a bundle whose generalized
 * member fails reports the error in the status the callback gets.
 */
#include "ompix_test.h"

#define ITERS 300

typedef struct {
    int sbuf, rbuf, it, ran, bad, restarts;
    MPI_Request *bundle;
} ring_t;

static void check_cb(MPI_Status *st, void *data)
{
    ring_t *r = data;

    r->ran++;
    r->bad += r->rbuf != left * 100 + r->it;
    r->bad += MPI_SUCCESS != st->MPI_ERROR;
}

static void restart_cb(MPI_Status *st, void *data)
{
    ring_t *r = data;

    check_cb(st, data);
    if (r->restarts > 0) {
        r->restarts--;
        r->it++;
        r->sbuf = rank * 100 + r->it;
        MPI_Start(r->bundle);
    }
}

static void ring_bundle(ring_t *r, MPI_Request m[2], MPI_Request *b)
{
    int two = 2;

    MPI_Recv_init(&r->rbuf, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &m[0]);
    MPI_Send_init(&r->sbuf, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &m[1]);
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(1, &two, m, MPI_INFO_NULL, b));
    r->bundle = b;
}

static void per_start(MPI_Request cr)
{
    ring_t r = {0};
    MPI_Request m[2], b;
    MPI_Status st;

    ring_bundle(&r, m, &b);
    for (int it = 0; it < ITERS; ++it) {
        r.it = it;
        r.sbuf = rank * 100 + it;
        CHECK(MPI_SUCCESS == MPI_Start(&b));
        CHECK(MPI_SUCCESS == MPIX_Continue(&b, check_cb, &r, 0, &st, cr));
        CHECK(MPI_REQUEST_NULL != b);     /* persistent: the handle stays */
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(r.ran == it + 1);
    }
    CHECK(0 == r.bad);
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    MPI_Request_free(&m[0]);
    MPI_Request_free(&m[1]);
}

static void persistent(MPI_Request cr)
{
    ring_t r = {0};
    MPI_Request m[2], b;
    MPI_Status st;

    ring_bundle(&r, m, &b);
    CHECK(MPI_SUCCESS == MPIX_Continue(&b, restart_cb, &r, MPIX_CONT_PERSISTENT, &st, cr));
    r.restarts = 9;
    for (int it = 0; it < ITERS; it += 10) {
        r.it = it;
        r.sbuf = rank * 100 + it;
        r.restarts = 9;
        CHECK(MPI_SUCCESS == MPI_Start(&b));
        /* the callback restarts it 9 times; the tenth leaves it done */
        while (r.ran < it + 10) {
            CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        }
        CHECK(r.ran == it + 10);
    }
    CHECK(0 == r.bad);
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    MPI_Request_free(&m[0]);
    MPI_Request_free(&m[1]);
}

static int fail_poll(void *extra, int *completed)
{
    (void) extra;
    *completed = 1;
    return MPI_ERR_OTHER;
}

static void status_cb(MPI_Status *st, void *data)
{
    *(int *) data = st->MPI_ERROR;
}

static void failing(MPI_Request cr)
{
    MPI_Request g, b;
    MPI_Status st;
    int one = 1, err = MPI_SUCCESS;

    MPIX_Grequest_persistent_init(NULL, fail_poll, NULL, NULL, &g);
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(1, &one, &g, MPI_INFO_NULL, &b));
    CHECK(MPI_SUCCESS == MPI_Start(&b));
    CHECK(MPI_SUCCESS == MPIX_Continue(&b, status_cb, &err, 0, &st, cr));
    /* the continuation request reports its operation's failure */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_ERR_IN_STATUS == err_class(MPI_Wait(&cr, MPI_STATUS_IGNORE)));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK(MPI_ERR_OTHER == err_class(err));
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    CHECK(MPI_SUCCESS == MPI_Request_free(&g));
}

int main(int argc, char **argv)
{
    MPI_Request cr;

    ompix_test_init(&argc, &argv);
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    per_start(cr);
    persistent(cr);
    failing(cr);
    MPI_Request_free(&cr);
    return ompix_test_finish("bundle_cont");
}
