/*
 * ompix-test: np=1,2,4 tls=shm,tcp,net pml=ob1,ucx timeout=90
 *
 * Persistent continuations: re-armed by every MPI_Start (1000 restarts with
 * data checked every round), statuses refreshed each round, replacement
 * while inactive, freeing one request of a Continueall, non-persistent
 * continuations on persistent requests, PERSISTENT on non-persistent
 * requests, persistent collectives.
 */
#include "ompix_test.h"

typedef struct {
    int ran;
    int bad;
    int expect_source;
} counter_t;

static void count_cb(MPI_Status *st, void *data)
{
    counter_t *c = data;
    c->ran++;
    if (MPI_STATUSES_IGNORE != st
        && (st[0].MPI_SOURCE != c->expect_source || 50 != st[0].MPI_TAG)) {
        c->bad++;
    }
}

static void restarts(void)
{
    MPI_Request cr, pr[2];
    counter_t c = {0, 0, 0};
    int rbuf = -1, sbuf;
    MPI_Status st[2];

    c.expect_source = left;
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 50, MPI_COMM_WORLD, &pr[0]);
    MPI_Send_init(&sbuf, 1, MPI_INT, right, 50, MPI_COMM_WORLD, &pr[1]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, pr, count_cb, &c, MPIX_CONT_PERSISTENT, st, cr));
    CHECK(MPI_REQUEST_NULL != pr[0] && MPI_REQUEST_NULL != pr[1]);
    CHECK(0 == c.ran);                     /* inactive: nothing to run yet */
    for (int it = 0; it < 1000; ++it) {
        sbuf = rank * 100000 + it;
        st[0].MPI_SOURCE = st[0].MPI_TAG = -7;
        CHECK(MPI_SUCCESS == MPI_Startall(2, pr));
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(c.ran == it + 1);
        CHECK(rbuf == left * 100000 + it);
        /* the requests are inactive again: Wait returns at once */
        CHECK(MPI_SUCCESS == MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
    }
    CHECK(0 == c.bad);
    CHECK(MPI_SUCCESS == MPI_Request_free(&pr[0]));
    CHECK(MPI_SUCCESS == MPI_Request_free(&pr[1]));
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
}

/* Restart from inside the callback: the requests are inactive by then. */
typedef struct {
    MPI_Request *pr;
    int ran, limit;
} restart_t;

static void restart_cb(MPI_Status *st, void *data)
{
    restart_t *r = data;
    (void)st;
    if (++r->ran < r->limit) {
        MPI_Startall(2, r->pr);
    }
}

static void restart_from_callback(void)
{
    MPI_Request cr, pr[2];
    restart_t r = {pr, 0, 300};
    int rbuf, sbuf = rank;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 50, MPI_COMM_WORLD, &pr[0]);
    MPI_Send_init(&sbuf, 1, MPI_INT, right, 50, MPI_COMM_WORLD, &pr[1]);
    MPIX_Continueall(2, pr, restart_cb, &r, MPIX_CONT_PERSISTENT, MPI_STATUSES_IGNORE, cr);
    MPI_Startall(2, pr);
    while (r.ran < r.limit) {
        MPI_Wait(&cr, MPI_STATUS_IGNORE);
    }
    CHECK(r.ran == r.limit);
    MPI_Request_free(&pr[0]);
    MPI_Request_free(&pr[1]);
    MPI_Request_free(&cr);
}

static void replace_and_free(void)
{
    MPI_Request cr, pr[2];
    counter_t a = {0, 0, 0}, b = {0, 0, 0};
    int rbuf, sbuf = rank;

    a.expect_source = b.expect_source = left;
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 50, MPI_COMM_WORLD, &pr[0]);
    MPI_Send_init(&sbuf, 1, MPI_INT, right, 50, MPI_COMM_WORLD, &pr[1]);
    MPIX_Continueall(2, pr, count_cb, &a, MPIX_CONT_PERSISTENT, MPI_STATUSES_IGNORE, cr);
    MPI_Startall(2, pr);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(1 == a.ran);

    /* Inactive: attaching another continuation replaces the first. */
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, pr, count_cb, &b, MPIX_CONT_PERSISTENT,
                                          MPI_STATUSES_IGNORE, cr));
    MPI_Startall(2, pr);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(1 == a.ran && 1 == b.ran);

    /* Freeing one request of the pair leaves the continuation on the other. */
    MPI_Request_free(&pr[1]);
    MPI_Request s;
    MPI_Start(&pr[0]);
    MPI_Isend(&sbuf, 1, MPI_INT, right, 50, MPI_COMM_WORLD, &s);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(2 == b.ran);
    MPI_Wait(&s, MPI_STATUS_IGNORE);

    /* A non-persistent continuation on an active persistent request runs
     * once and is gone after that; the request handle stays valid. */
    MPI_Request keep;
    MPI_Request_free(&pr[0]);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 50, MPI_COMM_WORLD, &pr[0]);
    MPI_Start(&pr[0]);
    keep = pr[0];
    CHECK(MPI_SUCCESS == MPIX_Continue(&pr[0], count_cb, &a, 0, MPI_STATUS_IGNORE, cr));
    CHECK(keep == pr[0]);
    MPI_Send(&sbuf, 1, MPI_INT, right, 50, MPI_COMM_WORLD);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(2 == a.ran && 2 == b.ran);
    MPI_Start(&pr[0]);
    MPI_Send(&sbuf, 1, MPI_INT, right, 50, MPI_COMM_WORLD);
    MPI_Wait(&pr[0], MPI_STATUS_IGNORE);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(2 == a.ran && 2 == b.ran);
    MPI_Request_free(&pr[0]);

    /* PERSISTENT on only non-persistent requests behaves as a normal one. */
    MPI_Request r[2];
    MPI_Irecv(&rbuf, 1, MPI_INT, left, 50, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&sbuf, 1, MPI_INT, right, 50, MPI_COMM_WORLD, &r[1]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, count_cb, &a, MPIX_CONT_PERSISTENT,
                                          MPI_STATUSES_IGNORE, cr));
    CHECK(MPI_REQUEST_NULL == r[0] && MPI_REQUEST_NULL == r[1]);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(3 == a.ran);
    MPI_Request_free(&cr);
}

/* A persistent request freed while its continuation is armed still lets
 * the continuation run once the operation completes. */
static void free_active(void)
{
    MPI_Request cr, pr;
    counter_t c = {0, 0, 0};
    static int rbuf;          /* still being received after we return */
    int sbuf = rank;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 51, MPI_COMM_WORLD, &pr);
    MPIX_Continue(&pr, count_cb, &c, MPIX_CONT_PERSISTENT, MPI_STATUS_IGNORE, cr);
    MPI_Start(&pr);
    MPI_Request_free(&pr);
    MPI_Send(&sbuf, 1, MPI_INT, right, 51, MPI_COMM_WORLD);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(1 == c.ran);
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
}

#ifdef OMPI_HAVE_MPI_EXT_PCOLLREQ
static void sum_cb(MPI_Status *st, void *data)
{
    (void)st;
    (*(int *)data)++;
}

static void persistent_collective(void)
{
    MPI_Request cr, coll;
    int in, out, ran = 0;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &coll);
    MPIX_Continue(&coll, sum_cb, &ran, MPIX_CONT_PERSISTENT, MPI_STATUS_IGNORE, cr);
    for (int it = 0; it < 100; ++it) {
        in = rank + it;
        MPI_Start(&coll);
        MPI_Wait(&cr, MPI_STATUS_IGNORE);
        CHECK(ran == it + 1);
        CHECK(out == size * (size - 1) / 2 + size * it);
    }
    MPI_Request_free(&coll);
    MPI_Request_free(&cr);
}
#endif

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);

    restarts();
    restart_from_callback();
    replace_and_free();
    free_active();
#ifdef OMPI_HAVE_MPI_EXT_PCOLLREQ
    persistent_collective();
#endif
    return ompix_test_finish("cont_persistent");
}
