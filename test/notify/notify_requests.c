/*
 * ompix-test: np=2,3 tls=shm,tcp,net pml=ob1 timeout=90 paths="slots:ucx" mca="osc rdma2,sm"
 *
 * Notification requests (MPIX_Win_notify_init), on an allocate window in a
 * lock_all epoch; notifications come from MPIX_Win_read_notify of this
 * rank's own window (origin slots) and MPIX_Put_notify from the left
 * neighbour (target slots), and the data each one announces is checked
 * when its request completes:
 *
 *   start/wait    50 restarts of one request; before each MPI_Start the
 *                 slot holds k = 1..3 (the request takes all of it at once:
 *                 MPI_Get_count(MPI_COUNT) == k, also MPI_Get_elements_x),
 *                 status MPI_TAG == id, MPI_SOURCE == MPI_ANY_SOURCE, the
 *                 slot 0 afterwards; Wait/Test on the inactive request
 *                 return at once with an empty status
 *   Waitany       8 requests, MPI_Startall, one read per slot: each index
 *                 once, tag and count right
 *   Waitsome      8 requests, reads for the even ones only: Waitsome
 *                 returns only even indices and the odd ones stay active
 *                 (MPI_Testall false); then the odd ones, MPI_Testall loop
 *   remote        a request on a target slot completed by the left
 *                 neighbour's put_notify; the put's data is in the window
 *   MPI_Cancel    of an armed request: MPI_Test_cancelled true, and the
 *                 count that arrives afterwards is left in the slot; the
 *                 request restarts and takes it
 *   Request_free  of an inactive request (handle MPI_REQUEST_NULL); of an
 *                 armed request carrying a persistent continuation: the
 *                 continuation runs once (MPIX_Continue: when the request
 *                 "has completed (or been freed)", so without a status),
 *                 and the request is not cancelled: it still takes the
 *                 count (slot 60 is empty at the end); an armed request
 *                 freed and never notified is released with the window
 *                 (valgrind)
 *   continuation  MPIX_Continue with MPIX_CONT_PERSISTENT on a
 *                 notification request: 100 MPI_Start rounds, the
 *                 callback's status has the id and the count; a
 *                 non-persistent continuation on an armed notification
 *                 request runs once and the handle stays valid
 */
#include "notify_common.h"

#define WIN_BYTES 4096
#define DEADLINE 20.0

static nwin_t w;
#define NSCRATCH 512                   /* window ints [0, 512) are read; 2048.. is put */
static int scratch[NSCRATCH];          /* read_notify destinations */
static int nscratch;

/* Issues `k` read_notify of one int of this rank's window into slot id
 * (each into its own scratch word, checked by check_scratch). */
static void notify_self(int id, int k)
{
    for (int i = 0; i < k; ++i) {
        int at = nscratch++ % NSCRATCH;
        scratch[at] = -1;
        OK(MPIX_Win_read_notify(&scratch[at], 1, MPI_INT, rank, nwin_disp(&w, rank, 4 * at), 1,
                                MPI_INT, id, w.win));
    }
}

/* The reads whose notifications were taken: every scratch word issued
 * since `from` holds its window int. */
static void check_scratch(int from, const char *what)
{
    for (int i = from; i < nscratch; ++i) {
        int at = i % NSCRATCH, want;
        memcpy(&want, w.base + 4 * at, 4);
        if (scratch[at] != want) {
            notify_fail("%s %s: read into word %d holds %d, expected %d when its request "
                        "completed", PATH_NAME, what, at, scratch[at], want);
            return;
        }
    }
}

/* Until slot id holds exactly k (the reads land asynchronously). */
static void wait_value(int id, MPI_Count k)
{
    double end = notify_now() + DEADLINE;
    MPI_Count v = -1;
    while (notify_now() < end) {
        int got;
        OK(MPIX_Win_notify_waitsome(w.win, id, 1, 1, &got));   /* progresses */
        OK(MPIX_Win_get_notify_value(w.win, id, &v));
        if (v >= k) {
            break;
        }
    }
    if (v != k) {
        notify_fail("%s: slot %d holds %lld, expected %lld", PATH_NAME, id, (long long) v,
                    (long long) k);
    }
}

/* MPI_Test until complete or DEADLINE: a notification that never comes is
 * a failure here, not a hang. */
static int test_until(MPI_Request *req, MPI_Status *st, const char *what)
{
    double end = notify_now() + DEADLINE;
    int flag = 0;
    while (!flag && notify_now() < end) {
        OK(MPI_Test(req, &flag, st));
    }
    if (!flag) {
        notify_fail("%s %s: request never completed", PATH_NAME, what);
    }
    return flag;
}

static void check_status(const MPI_Status *st, int id, MPI_Count count, const char *what)
{
    int c = -1;
    MPI_Count e = -1;
    MPI_Get_count(st, MPI_COUNT, &c);
    MPI_Get_elements_x(st, MPI_COUNT, &e);
    if (st->MPI_TAG != id || st->MPI_SOURCE != MPI_ANY_SOURCE || c != count || e != count) {
        notify_fail("%s %s: status tag %d source %d count %lld elements %lld, expected tag %d "
                    "source MPI_ANY_SOURCE count %lld", PATH_NAME, what, st->MPI_TAG,
                    st->MPI_SOURCE, (long long) c, (long long) e, id, (long long) count);
    }
}

static void start_wait(void)
{
    MPI_Request req;
    MPI_Status st;
    int flag = 0;
    OK(MPIX_Win_notify_init(w.win, 5, &req));
    CHECK(MPI_REQUEST_NULL != req);
    /* inactive: returns at once with an empty status */
    st.MPI_TAG = 77;
    OK(MPI_Wait(&req, &st));
    CHECK(MPI_ANY_TAG == st.MPI_TAG && MPI_REQUEST_NULL != req);
    OK(MPI_Test(&req, &flag, &st));
    CHECK(flag);
    for (int i = 0; i < 50; ++i) {
        int k = 1 + i % 3, from = nscratch;
        MPI_Count v = -1;
        notify_self(5, k);
        wait_value(5, k);
        OK(MPI_Start(&req));
        if (i % 2) {
            OK(MPI_Wait(&req, &st));
        } else {
            test_until(&req, &st, "start/test");
        }
        check_status(&st, 5, k, "start/wait");
        check_scratch(from, "start/wait");
        OK(MPIX_Win_get_notify_value(w.win, 5, &v));
        CHECK(0 == v);
    }
    /* armed before the notification arrives */
    int from = nscratch;
    OK(MPI_Start(&req));
    notify_self(5, 1);
    OK(MPI_Wait(&req, &st));
    check_status(&st, 5, 1, "start, then notify");
    check_scratch(from, "start, then notify");
    OK(MPI_Request_free(&req));
    CHECK(MPI_REQUEST_NULL == req);
}

static void waitany(void)
{
    MPI_Request req[8];
    int seen[8] = {0}, from = nscratch;
    for (int i = 0; i < 8; ++i) {
        OK(MPIX_Win_notify_init(w.win, 10 + i, &req[i]));
    }
    OK(MPI_Startall(8, req));
    for (int i = 0; i < 8; ++i) {
        notify_self(10 + (i * 5) % 8, 1);
    }
    for (int n = 0; n < 8; ++n) {
        int idx = -1;
        MPI_Status st;
        OK(MPI_Waitany(8, req, &idx, &st));
        if (idx < 0 || idx >= 8) {
            notify_fail("%s Waitany returned index %d", PATH_NAME, idx);
            break;
        }
        seen[idx]++;
        check_status(&st, 10 + idx, 1, "Waitany");
    }
    check_scratch(from, "Waitany");
    for (int i = 0; i < 8; ++i) {
        CHECK(1 == seen[i]);
        OK(MPI_Request_free(&req[i]));
    }
}

static void waitsome_testall(void)
{
    MPI_Request req[8];
    MPI_Status st[8];
    int done = 0, flag = 1, from = nscratch;
    for (int i = 0; i < 8; ++i) {
        OK(MPIX_Win_notify_init(w.win, 20 + i, &req[i]));
    }
    OK(MPI_Startall(8, req));
    for (int i = 0; i < 8; i += 2) {
        notify_self(20 + i, 1);
    }
    while (done < 4) {
        int outcount = -1, idx[8];
        OK(MPI_Waitsome(8, req, &outcount, idx, st));
        if (outcount <= 0) {
            notify_fail("%s Waitsome returned outcount %d", PATH_NAME, outcount);
            break;
        }
        for (int j = 0; j < outcount; ++j) {
            CHECK(0 == idx[j] % 2);
            check_status(&st[j], 20 + idx[j], 1, "Waitsome");
        }
        done += outcount;
    }
    CHECK(4 == done);
    check_scratch(from, "Waitsome");
    /* the odd ones are still armed */
    OK(MPI_Testall(8, req, &flag, MPI_STATUSES_IGNORE));
    CHECK(!flag);
    from = nscratch;
    for (int i = 1; i < 8; i += 2) {
        notify_self(20 + i, 2);
    }
    double end = notify_now() + DEADLINE;
    flag = 0;
    while (!flag && notify_now() < end) {
        OK(MPI_Testall(8, req, &flag, st));
    }
    CHECK(flag);
    for (int i = 1; flag && i < 8; i += 2) {
        /* both reads of a slot may be taken at once, or one first: the
         * total taken must be 2, the rest stays in the slot */
        int c = -1;
        MPI_Count left = -1;
        MPI_Get_count(&st[i], MPI_COUNT, &c);
        CHECK(st[i].MPI_TAG == 20 + i);
        wait_value(20 + i, 2 - c);
        OK(MPIX_Win_notify_reset(w.win, 20 + i, &left));
        CHECK(c + left == 2);
    }
    check_scratch(from, "Testall");
    for (int i = 0; i < 8; ++i) {
        OK(MPI_Request_free(&req[i]));
    }
}

/* A request on a target slot, completed by the left neighbour's put. */
static void remote(void)
{
    MPI_Request req;
    MPI_Status st;
    int val[4];
    for (int round = 0; round < 20; ++round) {
        OK(MPIX_Win_notify_init(w.win, 40, &req));
        OK(MPI_Start(&req));
        MPI_Barrier(MPI_COMM_WORLD);      /* armed everywhere before the puts */
        for (int i = 0; i < 4; ++i) {
            val[i] = rank * 1000 + round * 10 + i;
        }
        OK(MPIX_Put_notify(val, 4, MPI_INT, right, nwin_disp(&w, right, 2048), 4, MPI_INT, 40,
                           w.win));
        if (test_until(&req, &st, "remote")) {
            check_status(&st, 40, 1, "remote");
            for (int i = 0; i < 4; ++i) {
                int got;
                memcpy(&got, w.base + 2048 + 4 * i, 4);
                if (got != left * 1000 + round * 10 + i) {
                    notify_fail("%s remote round %d: int %d is %d, expected %d", PATH_NAME,
                                round, i, got, left * 1000 + round * 10 + i);
                    break;
                }
            }
        }
        OK(MPI_Request_free(&req));
        OK(MPI_Win_flush(right, w.win));  /* val is reused */
        MPI_Barrier(MPI_COMM_WORLD);      /* the window word is reused */
    }
}

static void cancel(void)
{
    MPI_Request req;
    MPI_Status st;
    int cancelled = 0;
    OK(MPIX_Win_notify_init(w.win, 50, &req));
    OK(MPI_Start(&req));
    OK(MPI_Cancel(&req));
    OK(MPI_Wait(&req, &st));
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(cancelled);
    /* the cancelled request takes nothing */
    notify_self(50, 2);
    wait_value(50, 2);
    OK(MPI_Start(&req));
    OK(MPI_Wait(&req, &st));
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(!cancelled);
    check_status(&st, 50, 2, "restart after MPI_Cancel");
    OK(MPI_Request_free(&req));
}

typedef struct {
    int ran, id;
    MPI_Count expect;
    int bad;
} cb_t;

static void count_cb(MPI_Status *st, void *data)
{
    cb_t *c = data;
    int n = -1;
    c->ran++;
    if (MPI_STATUS_IGNORE != st) {
        MPI_Get_count(st, MPI_COUNT, &n);
        if (st->MPI_TAG != c->id || n != c->expect) {
            c->bad++;
        }
    }
}

static void request_free(void)
{
    MPI_Request req, cr;
    cb_t c = {0, 60, 1, 0};

    OK(MPIX_Win_notify_init(w.win, 60, &req));
    OK(MPI_Request_free(&req));               /* inactive */
    CHECK(MPI_REQUEST_NULL == req);

    OK(MPIX_Continue_init(MPI_INFO_NULL, &cr));
    OK(MPIX_Win_notify_init(w.win, 60, &req));
    OK(MPIX_Continue(&req, count_cb, &c, MPIX_CONT_PERSISTENT, MPI_STATUS_IGNORE, cr));
    OK(MPI_Start(&req));
    OK(MPI_Request_free(&req));               /* armed: completes later */
    CHECK(0 == c.ran);
    notify_self(60, 1);
    if (test_until(&cr, MPI_STATUS_IGNORE, "Request_free of an armed request")) {
        CHECK(1 == c.ran && 0 == c.bad);
    }
    /* The freed request takes the count when it arrives: checked by
     * notify_check_empty at the end (after unlock_all, when it has). */
    OK(MPI_Request_free(&cr));

    OK(MPIX_Win_notify_init(w.win, 61, &req));
    OK(MPI_Start(&req));
    OK(MPI_Request_free(&req));               /* completed and released by the window's free */
}

static void continuations(void)
{
    MPI_Request req, cr;
    MPI_Status st;
    cb_t c = {0, 70, 0, 0}, once = {0, 70, 1, 0};

    OK(MPIX_Continue_init(MPI_INFO_NULL, &cr));
    OK(MPIX_Win_notify_init(w.win, 70, &req));
    OK(MPIX_Continue(&req, count_cb, &c, MPIX_CONT_PERSISTENT, &st, cr));
    CHECK(MPI_REQUEST_NULL != req);
    for (int i = 0; i < 100; ++i) {
        int from = nscratch;
        c.expect = 1 + i % 3;
        notify_self(70, (int) c.expect);
        wait_value(70, c.expect);
        OK(MPI_Start(&req));
        if (!test_until(&cr, MPI_STATUS_IGNORE, "persistent continuation")) {
            break;
        }
        CHECK(c.ran == i + 1);
        check_scratch(from, "persistent continuation");
    }
    CHECK(0 == c.bad);
    OK(MPI_Request_free(&req));

    /* a non-persistent continuation on an armed notification request */
    MPI_Request keep;
    OK(MPIX_Win_notify_init(w.win, 70, &req));
    OK(MPI_Start(&req));
    keep = req;
    OK(MPIX_Continue(&req, count_cb, &once, 0, &st, cr));
    CHECK(keep == req);
    notify_self(70, 1);
    if (test_until(&cr, MPI_STATUS_IGNORE, "continuation")) {
        CHECK(1 == once.ran && 0 == once.bad);
    }
    OK(MPI_Start(&req));                      /* no continuation any more */
    notify_self(70, 1);
    OK(MPI_Wait(&req, &st));
    check_status(&st, 70, 1, "after the one-shot continuation");
    CHECK(1 == once.ran);
    OK(MPI_Request_free(&req));
    OK(MPI_Request_free(&cr));
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    nwin_open(&w, NF_ALLOCATE, WIN_BYTES, MPI_COMM_WORLD);
    nwin_fill(&w);
    OK(MPI_Win_lock_all(0, w.win));
    start_wait();
    waitany();
    waitsome_testall();
    remote();
    cancel();
    request_free();
    continuations();
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    notify_check_empty(w.win, 0, 128, "after every request");
    nwin_close(&w);
    return ompix_test_finish("notify_requests");
}
