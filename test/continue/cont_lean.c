/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * The lean registration paths: one and two requests (checks inline,
 * duplicates among two), requests complete at registration (statuses and
 * errors recorded without arming, with and without IMMEDIATE), null
 * entries, more requests than a continuation holds inline, persistent and
 * non-persistent requests mixed, and the continuation each continuation
 * request keeps for its next registration, across requests and across the
 * lean and general paths.
 */
#include "ompix_test.h"

typedef struct {
    int ran;
    int nst;                 /* statuses to check, 0: none */
    int src[8], tag[8];      /* expected MPI_SOURCE and MPI_TAG per entry */
    int bad;
    int err;                 /* error class seen in entry 0 */
} rec_t;

static void rec_cb(MPI_Status *st, void *data)
{
    rec_t *r = data;
    r->ran++;
    for (int i = 0; i < r->nst && MPI_STATUSES_IGNORE != st; ++i) {
        if (st[i].MPI_SOURCE != r->src[i] || st[i].MPI_TAG != r->tag[i]) {
            r->bad++;
        }
    }
    if (MPI_STATUSES_IGNORE != st) {
        r->err = err_class(st[0].MPI_ERROR);
    }
}

/* A receive from ourselves that has completed (without being freed). */
static MPI_Request completed_self_recv(int *buf, int count, int tag)
{
    MPI_Request r;
    int flag = 0, sbuf[2] = {7, 8};

    MPI_Irecv(buf, count, MPI_INT, rank, tag, MPI_COMM_WORLD, &r);
    MPI_Send(sbuf, 2, MPI_INT, rank, tag, MPI_COMM_WORLD);
    while (!flag) {
        MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    }
    return r;
}

static void two_requests(MPI_Request cr)
{
    MPI_Request r[2], g;
    MPI_Status st[2];
    rec_t rec = {0};
    int buf[2], rbuf = -1, sbuf = rank;

    /* the same request twice: nothing is taken over */
    g = grequest();
    r[0] = r[1] = g;
    CHECK_ERR(MPIX_Continueall(2, r, rec_cb, &rec, 0, st, cr), MPI_ERR_REQUEST);
    CHECK(r[0] == g && r[1] == g && 0 == rec.ran);
    /* the continuation request among two */
    r[0] = g;
    r[1] = cr;
    CHECK_ERR(MPIX_Continueall(2, r, rec_cb, &rec, 0, st, cr), MPI_ERR_REQUEST);
    CHECK(r[0] == g);
    MPI_Grequest_complete(g);
    CHECK(MPI_SUCCESS == MPI_Wait(&g, MPI_STATUS_IGNORE));

    /* two receives from MPI_PROC_NULL may share one request object */
    MPI_Irecv(buf, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(buf, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r[1]);
    rec = (rec_t){0, 2, {MPI_PROC_NULL, MPI_PROC_NULL}, {MPI_ANY_TAG, MPI_ANY_TAG}, 0, 0};
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, rec_cb, &rec, 0, st, cr));
    CHECK(MPI_REQUEST_NULL == r[0] && MPI_REQUEST_NULL == r[1]);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(1 == rec.ran && 0 == rec.bad);

    /* a null entry first, a pending receive second: statuses keep their
     * positions */
    r[0] = MPI_REQUEST_NULL;
    MPI_Irecv(&rbuf, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &r[1]);
    rec = (rec_t){0, 2, {MPI_ANY_SOURCE, left}, {MPI_ANY_TAG, 2}, 0, 0};
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, rec_cb, &rec, 0, st, cr));
    MPI_Send(&sbuf, 1, MPI_INT, right, 2, MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(1 == rec.ran && 0 == rec.bad && left == rbuf);

    /* one complete at registration, one pending: runs once, after the
     * second, with both statuses */
    r[0] = completed_self_recv(buf, 2, 3);
    MPI_Irecv(&rbuf, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &r[1]);
    rec = (rec_t){0, 2, {rank, left}, {3, 4}, 0, 0};
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, rec_cb, &rec, MPIX_CONT_IMMEDIATE, st, cr));
    CHECK(0 == rec.ran);
    for (int i = 0; i < 20; ++i) {
        int flag;
        MPI_Test(&cr, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag);
    }
    MPI_Barrier(MPI_COMM_WORLD);        /* nobody sends before everyone tested */
    MPI_Send(&sbuf, 1, MPI_INT, right, 4, MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(1 == rec.ran && 0 == rec.bad && 8 == buf[1]);
}

/* A receive that has completed (without being freed). */
static MPI_Request completed_recv(int *buf, int count, int src, int tag)
{
    MPI_Request r;
    int flag = 0;

    MPI_Irecv(buf, count, MPI_INT, src, tag, MPI_COMM_WORLD, &r);
    while (!flag) {
        MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    }
    return r;
}

/* Both complete at registration; with two ranks, rank 1's first one failed
 * (rank 0 sent two ints where it receives one).  With IMMEDIATE the
 * callback runs inside the call; either way a failure makes the
 * continuation request report MPI_ERR_IN_STATUS once, and the next round
 * starts clean. */
static void complete_at_registration(MPI_Request cr)
{
    int failing = size >= 2 && 1 == rank;

    for (int immediate = 0; immediate < 2; ++immediate) {
        MPI_Request r[2];
        MPI_Status st[2];
        rec_t rec;
        int small[1], big[2], two[2] = {1, 2}, src0 = rank;

        if (size >= 2 && 0 == rank) {
            MPI_Send(two, 2, MPI_INT, 1, 5, MPI_COMM_WORLD);
        }
        if (failing) {
            src0 = 0;
            r[0] = completed_recv(small, 1, 0, 5);
        } else {
            r[0] = completed_self_recv(big, 2, 5);
        }
        r[1] = completed_self_recv(big, 2, 6);
        rec = (rec_t){0, 2, {src0, rank}, {5, 6}, 0, 0};
        CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, rec_cb, &rec,
                                              immediate ? MPIX_CONT_IMMEDIATE : 0, st, cr));
        CHECK(MPI_REQUEST_NULL == r[0] && MPI_REQUEST_NULL == r[1]);
        CHECK(immediate == rec.ran);
        if (failing) {
            CHECK_ERR(MPI_Wait(&cr, MPI_STATUS_IGNORE), MPI_ERR_IN_STATUS);
            CHECK(MPI_ERR_TRUNCATE == rec.err && MPI_ERR_TRUNCATE == err_class(st[0].MPI_ERROR));
        } else {
            CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
            CHECK(MPI_SUCCESS == rec.err);
        }
        CHECK(1 == rec.ran && 0 == rec.bad);
        CHECK(MPI_SUCCESS == st[1].MPI_ERROR);
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));    /* reported once */

        /* MPIX_Continue, complete and fine, with a status */
        r[0] = completed_self_recv(big, 2, 7);
        rec = (rec_t){0, 1, {rank}, {7}, 0, 0};
        CHECK(MPI_SUCCESS == MPIX_Continue(&r[0], rec_cb, &rec,
                                           immediate ? MPIX_CONT_IMMEDIATE : 0, &st[0], cr));
        CHECK(MPI_REQUEST_NULL == r[0] && immediate == rec.ran);
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(1 == rec.ran && 0 == rec.bad && MPI_SUCCESS == rec.err);
    }
}

/* More requests than a continuation holds inline, then two again on the
 * same continuation request (the kept continuation must have inline ops). */
static void many_then_two(MPI_Request cr)
{
    enum { N = 6 };
    int rbuf[N], sbuf = rank;
    MPI_Status st[N];

    for (int round = 0; round < 3; ++round) {
        MPI_Request r[N];
        rec_t rec = {0};

        rec.nst = N;
        for (int i = 0; i < N; ++i) {
            rbuf[i] = -1;
            MPI_Irecv(&rbuf[i], 1, MPI_INT, left, 10 + i, MPI_COMM_WORLD, &r[i]);
            rec.src[i] = left;
            rec.tag[i] = 10 + i;
        }
        CHECK(MPI_SUCCESS == MPIX_Continueall(N, r, rec_cb, &rec, 0, st, cr));
        for (int i = N - 1; i >= 0; --i) {
            MPI_Send(&sbuf, 1, MPI_INT, right, 10 + i, MPI_COMM_WORLD);
        }
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(1 == rec.ran && 0 == rec.bad);
        for (int i = 0; i < N; ++i) CHECK(left == rbuf[i]);

        rec = (rec_t){0, 2, {left, left}, {20, 21}, 0, 0};
        MPI_Irecv(&rbuf[0], 1, MPI_INT, left, 20, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&rbuf[1], 1, MPI_INT, left, 21, MPI_COMM_WORLD, &r[1]);
        CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, rec_cb, &rec, 0, st, cr));
        MPI_Send(&sbuf, 1, MPI_INT, right, 21, MPI_COMM_WORLD);
        MPI_Send(&sbuf, 1, MPI_INT, right, 20, MPI_COMM_WORLD);
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(1 == rec.ran && 0 == rec.bad);
    }
}

/* An active persistent receive and a non-persistent send in one
 * continuation (the general path), alternating with plain continuations on
 * the same continuation request, which reuse the continuations the general
 * path released. */
static void mixed_persistent(MPI_Request cr)
{
    MPI_Request pr, r[2];
    MPI_Status st[2];
    int rbuf = -1, sbuf, pbuf = -1;

    MPI_Recv_init(&pbuf, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &pr);
    for (int it = 0; it < 50; ++it) {
        /* the status of a send says nothing MPI defines: only the receive's */
        rec_t rec = (rec_t){0, 1, {left}, {30}, 0, 0};

        sbuf = rank * 1000 + it;
        MPI_Start(&pr);
        r[0] = pr;
        MPI_Isend(&sbuf, 1, MPI_INT, right, 30, MPI_COMM_WORLD, &r[1]);
        CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, rec_cb, &rec, 0, st, cr));
        CHECK(pr == r[0] && MPI_REQUEST_NULL == r[1]);   /* persistent ones stay */
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(1 == rec.ran && 0 == rec.bad && left * 1000 + it == pbuf);
        CHECK(MPI_SUCCESS == MPI_Wait(&pr, MPI_STATUS_IGNORE));   /* inactive again */

        rec = (rec_t){0, 1, {left}, {31}, 0, 0};
        MPI_Irecv(&rbuf, 1, MPI_INT, left, 31, MPI_COMM_WORLD, &r[0]);
        CHECK(MPI_SUCCESS == MPIX_Continue(&r[0], rec_cb, &rec, 0, st, cr));
        MPI_Send(&sbuf, 1, MPI_INT, right, 31, MPI_COMM_WORLD);
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(1 == rec.ran && 0 == rec.bad && left * 1000 + it == rbuf);
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&pr));
}

/* Continuations finishing on one continuation request while another has
 * some outstanding; the one that keeps a spare continuation is freed. */
static void spare_across_requests(void)
{
    MPI_Request a, b;
    int rbuf[2], sbuf = rank;

    MPIX_Continue_init(MPI_INFO_NULL, &a);
    MPIX_Continue_init(MPI_INFO_NULL, &b);
    for (int it = 0; it < 100; ++it) {
        MPI_Request ra, rb;
        rec_t reca = (rec_t){0, 1, {left}, {40}, 0, 0};
        rec_t recb = (rec_t){0, 1, {left}, {41}, 0, 0};
        MPI_Status sta, stb;
        int flag = 0;

        MPI_Irecv(&rbuf[0], 1, MPI_INT, left, 40, MPI_COMM_WORLD, &ra);
        MPI_Irecv(&rbuf[1], 1, MPI_INT, left, 41, MPI_COMM_WORLD, &rb);
        CHECK(MPI_SUCCESS == MPIX_Continue(&ra, rec_cb, &reca, 0, &sta, a));
        CHECK(MPI_SUCCESS == MPIX_Continue(&rb, rec_cb, &recb, 0, &stb, b));
        MPI_Send(&sbuf, 1, MPI_INT, right, 41, MPI_COMM_WORLD);
        CHECK(MPI_SUCCESS == MPI_Wait(&b, MPI_STATUS_IGNORE));
        CHECK(1 == recb.ran && 0 == recb.bad);
        MPI_Test(&a, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag && 0 == reca.ran);
        MPI_Barrier(MPI_COMM_WORLD);    /* as above */
        MPI_Send(&sbuf, 1, MPI_INT, right, 40, MPI_COMM_WORLD);
        CHECK(MPI_SUCCESS == MPI_Wait(&a, MPI_STATUS_IGNORE));
        CHECK(1 == reca.ran && 0 == reca.bad);
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    CHECK(MPI_SUCCESS == MPI_Request_free(&a));
}

int main(int argc, char **argv)
{
    MPI_Request cr;
    MPI_Errhandler eh;

    ompix_test_init(&argc, &argv);
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPIX_Continue_init(MPI_INFO_NULL, &cr);

    two_requests(cr);
    complete_at_registration(cr);
    many_then_two(cr);
    mixed_persistent(cr);
    spare_across_requests();

    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("cont_lean");
}
