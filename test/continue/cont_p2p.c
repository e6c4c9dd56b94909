/*
 * ompix-test: np=1,2,4 tls=shm,tcp,net pml=ob1,ucx timeout=60
 *
 * Continuations on point-to-point requests: take-over of the handles,
 * statuses filled before the callback, MPI_STATUS(ES)_IGNORE, null entries,
 * IMMEDIATE, every Wait/Test form on continuation requests, callbacks that
 * call MPI and register new continuations, continuations on continuation
 * requests.
 */
#include "ompix_test.h"
#include <string.h>

typedef struct {
    int ran;
    int expect_tag;
    int expect_source;
    int bad_status;
} counter_t;

static void count_cb(MPI_Status *statuses, void *data)
{
    counter_t *c = data;
    c->ran++;
    if (MPI_STATUSES_IGNORE != statuses && c->expect_tag >= 0) {
        int n = -1;
        MPI_Get_count(&statuses[0], MPI_INT, &n);
        if (statuses[0].MPI_TAG != c->expect_tag || statuses[0].MPI_SOURCE != c->expect_source
            || n != 4) {
            c->bad_status++;
        }
    }
}

/* Ring exchange, one Continueall per round, statuses checked in the callback. */
static void ring_rounds(void)
{
    MPI_Request cr;
    counter_t c = {0, 11, 0, 0};
    int sbuf[4], rbuf[4];
    MPI_Status st[2];

    c.expect_source = left;
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    for (int it = 0; it < 200; ++it) {
        MPI_Request r[2];
        for (int k = 0; k < 4; ++k) sbuf[k] = rank * 1000 + it + k;
        MPI_Irecv(rbuf, 4, MPI_INT, left, 11, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(sbuf, 4, MPI_INT, right, 11, MPI_COMM_WORLD, &r[1]);
        CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, count_cb, &c, 0, st, cr));
        CHECK(MPI_REQUEST_NULL == r[0] && MPI_REQUEST_NULL == r[1]);
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(c.ran == it + 1);
        for (int k = 0; k < 4; ++k) CHECK(rbuf[k] == left * 1000 + it + k);
    }
    CHECK(0 == c.bad_status);
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
    CHECK(MPI_REQUEST_NULL == cr);
}

static void ignore_and_null(void)
{
    MPI_Request cr, r[3];
    counter_t c = {0, -1, 0, 0};
    int sbuf = rank, rbuf = -1;
    MPI_Status st;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    MPI_Irecv(&rbuf, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &r[0]);
    r[1] = MPI_REQUEST_NULL;
    MPI_Isend(&sbuf, 1, MPI_INT, right, 12, MPI_COMM_WORLD, &r[2]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(3, r, count_cb, &c, 0, MPI_STATUSES_IGNORE, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, &st));
    CHECK(1 == c.ran && left == rbuf);

    /* count 0 and all-null arrays: nothing to wait for, still run once */
    CHECK(MPI_SUCCESS == MPIX_Continueall(0, NULL, count_cb, &c, 0, MPI_STATUSES_IGNORE, cr));
    r[0] = r[1] = MPI_REQUEST_NULL;
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, count_cb, &c, 0, MPI_STATUSES_IGNORE, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(3 == c.ran);

    /* MPIX_Continue with MPI_STATUS_IGNORE */
    MPI_Irecv(&rbuf, 1, MPI_INT, left, 13, MPI_COMM_WORLD, &r[0]);
    MPI_Send(&sbuf, 1, MPI_INT, right, 13, MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS == MPIX_Continue(&r[0], count_cb, &c, 0, MPI_STATUS_IGNORE, cr));
    CHECK(MPI_REQUEST_NULL == r[0]);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(4 == c.ran);
    MPI_Request_free(&cr);
}


static void immediate(void)
{
    MPI_Request cr, g;
    counter_t c = {0, -1, 0, 0};
    int flag;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    g = completed_grequest();
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, count_cb, &c, MPIX_CONT_IMMEDIATE, MPI_STATUS_IGNORE, cr));
    CHECK(1 == c.ran);                       /* ran inside the call */
    CHECK(MPI_SUCCESS == MPI_Test(&cr, &flag, MPI_STATUS_IGNORE));
    CHECK(flag);

    /* without IMMEDIATE it is queued, and runs from Test on cr */
    g = completed_grequest();
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, count_cb, &c, 0, MPI_STATUS_IGNORE, cr));
    CHECK(1 == c.ran);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(2 == c.ran);

    /* IMMEDIATE with an incomplete request: queued, never inline */
    g = grequest();
    MPI_Request gsave = g;
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, count_cb, &c, MPIX_CONT_IMMEDIATE, MPI_STATUS_IGNORE, cr));
    CHECK(2 == c.ran);
    CHECK(MPI_SUCCESS == MPI_Test(&cr, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag && 2 == c.ran);
    MPI_Grequest_complete(gsave);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(3 == c.ran);
    MPI_Request_free(&cr);
}

/* Register one continuation on each of n continuation requests, each on a
 * receive that completes once the matching send is posted. */
static void post_n(int n, MPI_Request *crs, int *rbuf, int *sbuf, MPI_Request *sends, counter_t *c)
{
    for (int i = 0; i < n; ++i) {
        MPI_Request r;
        MPI_Irecv(&rbuf[i], 1, MPI_INT, left, 20 + i, MPI_COMM_WORLD, &r);
        MPIX_Continue(&r, count_cb, c, 0, MPI_STATUS_IGNORE, crs[i]);
        sbuf[i] = rank + i;
        MPI_Isend(&sbuf[i], 1, MPI_INT, right, 20 + i, MPI_COMM_WORLD, &sends[i]);
    }
}

static void wait_forms(void)
{
    enum { N = 3 };
    MPI_Request crs[N], sends[N];
    int rbuf[N], sbuf[N], idx, flag, outcount, idxs[N];
    counter_t c = {0, -1, 0, 0};
    MPI_Status sts[N];

    for (int i = 0; i < N; ++i) MPIX_Continue_init(MPI_INFO_NULL, &crs[i]);

    /* fresh (inactive) continuation requests complete at once, empty status */
    CHECK(MPI_SUCCESS == MPI_Testall(N, crs, &flag, sts));
    CHECK(flag && MPI_ANY_SOURCE == sts[0].MPI_SOURCE && MPI_ANY_TAG == sts[0].MPI_TAG);

    post_n(N, crs, rbuf, sbuf, sends, &c);
    CHECK(MPI_SUCCESS == MPI_Waitall(N, crs, MPI_STATUSES_IGNORE));
    CHECK(N == c.ran);
    MPI_Waitall(N, sends, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; ++i) CHECK(rbuf[i] == left + i);

    post_n(N, crs, rbuf, sbuf, sends, &c);
    for (int done = 0; done < N;) {
        CHECK(MPI_SUCCESS == MPI_Waitany(N, crs, &idx, MPI_STATUS_IGNORE));
        /* inactive persistent requests count as complete for Waitany, so
         * a later call may return MPI_UNDEFINED only when all are inactive */
        if (MPI_UNDEFINED == idx) break;
        done++;
    }
    MPI_Waitall(N, crs, MPI_STATUSES_IGNORE);
    CHECK(2 * N == c.ran);
    MPI_Waitall(N, sends, MPI_STATUSES_IGNORE);

    post_n(N, crs, rbuf, sbuf, sends, &c);
    for (int done = 0; done < N;) {
        CHECK(MPI_SUCCESS == MPI_Waitsome(N, crs, &outcount, idxs, MPI_STATUSES_IGNORE));
        if (MPI_UNDEFINED == outcount) break;
        done += outcount;
    }
    MPI_Waitall(N, crs, MPI_STATUSES_IGNORE);
    CHECK(3 * N == c.ran);
    MPI_Waitall(N, sends, MPI_STATUSES_IGNORE);

    post_n(N, crs, rbuf, sbuf, sends, &c);
    do {
        CHECK(MPI_SUCCESS == MPI_Testsome(N, crs, &outcount, idxs, MPI_STATUSES_IGNORE));
    } while (c.ran < 4 * N);
    post_n(N, crs, rbuf, sbuf, sends + 0, &c);
    do {
        CHECK(MPI_SUCCESS == MPI_Testany(N, crs, &idx, &flag, MPI_STATUS_IGNORE));
    } while (c.ran < 5 * N);
    MPI_Waitall(N, crs, MPI_STATUSES_IGNORE);
    post_n(N, crs, rbuf, sbuf, sends, &c);
    do {
        CHECK(MPI_SUCCESS == MPI_Testall(N, crs, &flag, MPI_STATUSES_IGNORE));
    } while (!flag);
    CHECK(6 * N == c.ran);
    MPI_Waitall(N, sends, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; ++i) {
        CHECK(MPI_SUCCESS == MPI_Request_free(&crs[i]));
    }
}

/* A chain of ping-pong rounds driven entirely by callbacks that post the
 * next round and register its continuation. */
typedef struct {
    MPI_Request cr;
    int round, rounds, buf, sbuf;
} chain_t;

static void chain_cb(MPI_Status *st, void *data)
{
    chain_t *ch = data;
    MPI_Request r[2];
    (void)st;
    if (++ch->round == ch->rounds) return;
    ch->sbuf = ch->round;
    MPI_Irecv(&ch->buf, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&ch->sbuf, 1, MPI_INT, right, 30, MPI_COMM_WORLD, &r[1]);
    MPIX_Continueall(2, r, chain_cb, ch, MPIX_CONT_IMMEDIATE, MPI_STATUSES_IGNORE, ch->cr);
}

static void chained(void)
{
    chain_t ch = {MPI_REQUEST_NULL, -1, 100, 0, 0};
    MPIX_Continue_init(MPI_INFO_NULL, &ch.cr);
    chain_cb(MPI_STATUSES_IGNORE, &ch);     /* posts round 0 */
    /* The continuation request stays active while callbacks register more. */
    while (ch.round < ch.rounds) {
        CHECK(MPI_SUCCESS == MPI_Wait(&ch.cr, MPI_STATUS_IGNORE));
    }
    CHECK(ch.round == ch.rounds);
    CHECK(ch.buf == ch.rounds - 1);
    MPI_Request_free(&ch.cr);
}

/* A continuation attached to a continuation request runs once that
 * request's own continuations have all run. */
static void cont_on_cont(void)
{
    MPI_Request outer, inner, inner_copy, r[2];
    counter_t ci = {0, -1, 0, 0}, co = {0, -1, 0, 0};
    int sbuf = rank, rbuf;
    MPI_Status st;

    MPIX_Continue_init(MPI_INFO_NULL, &outer);
    MPIX_Continue_init(MPI_INFO_NULL, &inner);
    MPI_Irecv(&rbuf, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&sbuf, 1, MPI_INT, right, 40, MPI_COMM_WORLD, &r[1]);
    MPIX_Continueall(2, r, count_cb, &ci, 0, MPI_STATUSES_IGNORE, inner);
    inner_copy = inner;
    CHECK(MPI_SUCCESS == MPIX_Continue(&inner, count_cb, &co, 0, &st, outer));
    CHECK(inner == inner_copy);             /* persistent: handle stays valid */
    CHECK(MPI_SUCCESS == MPI_Wait(&outer, MPI_STATUS_IGNORE));
    CHECK(1 == ci.ran && 1 == co.ran);
    CHECK(MPI_SUCCESS == st.MPI_ERROR);
    CHECK(MPI_SUCCESS == MPI_Request_free(&inner));
    CHECK(MPI_SUCCESS == MPI_Request_free(&outer));
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);

    ring_rounds();
    ignore_and_null();
    immediate();
    wait_forms();
    chained();
    cont_on_cont();
    return ompix_test_finish("cont_p2p");
}
