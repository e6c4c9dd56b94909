/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=90 mca="osc rdma2,sm"
 *
 * Slot counts: MPIX_Win_get_num_notify is 65 536 by default on allocate,
 * create and dynamic windows (before and after the slots are first used;
 * the last default slot works); MPIX_Win_set_num_notify to 4 (ids 0..3
 * work, 4 is MPI_ERR_ARG for every call that takes an id or a slot range),
 * to 2^20 (the top slots work for origin and target notifications) and
 * back to 16; every set_num_notify zeroes the slots, origin-notified and
 * target-notified counts alike; n < 1 is MPI_ERR_ARG.
 * notify_num_gen.c: the generic path.
 */
#include "notify_common.h"

#define WIN_BYTES 4096
#define BIG (1 << 20)

static int ibuf[8];

static int get_num(MPI_Win win)
{
    int n = -1;
    OK(MPIX_Win_get_num_notify(win, &n));
    return n;
}

/* A read of this rank's own window into slot id, taken (count 1). */
static void read_self(nwin_t *w, int id)
{
    int got;
    MPI_Count c;
    ibuf[0] = -1;
    OK(MPIX_Win_read_notify(ibuf, 1, MPI_INT, rank, nwin_disp(w, rank, 0), 1, MPI_INT, id,
                            w->win));
    if (!notify_take(w->win, id, 1, &got, &c)) {
        notify_fail("%s: read_notify into slot %d never notified", PATH_NAME, id);
    } else {
        CHECK(got == id && 1 == c && ibuf[0] == *(int *) w->base);
    }
}

/* Until slot id holds at least k; returns its value. */
static MPI_Count wait_value(MPI_Win win, int id, MPI_Count k)
{
    double end = notify_now() + NOTIFY_DEADLINE;
    MPI_Count v = -1;
    do {
        int got;
        OK(MPIX_Win_notify_waitsome(win, id, 1, 1, &got));
        OK(MPIX_Win_get_notify_value(win, id, &v));
    } while (v < k && notify_now() < end);
    return v;
}

static void defaults(void)
{
    for (int f = 0; f < NF_COUNT; ++f) {
        nwin_t w;
        nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
        nwin_fill(&w);
        CHECK(65536 == get_num(w.win));
        OK(MPI_Win_lock_all(0, w.win));
        read_self(&w, 65535);
        read_self(&w, 0);
        CHECK_CLASS(MPIX_Win_read_notify(ibuf, 1, MPI_INT, rank, nwin_disp(&w, rank, 0), 1,
                                         MPI_INT, 65536, w.win), MPI_ERR_ARG);
        OK(MPI_Win_unlock_all(w.win));
        CHECK(65536 == get_num(w.win));
        nwin_close(&w);
    }
}

/* Every call taking an id or a range refuses id n on a window of n slots. */
static void beyond(nwin_t *w, int n)
{
    MPI_Count v;
    MPI_Request req = MPI_REQUEST_NULL;
    int id;
    CHECK_CLASS(MPIX_Win_read_notify(ibuf, 1, MPI_INT, rank, nwin_disp(w, rank, 0), 1, MPI_INT,
                                     n, w->win), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Put_notify(ibuf, 1, MPI_INT, right, nwin_disp(w, right, 64), 1, MPI_INT, n,
                                w->win), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Get_notify(ibuf, 1, MPI_INT, right, nwin_disp(w, right, 0), 1, MPI_INT, n,
                                w->win), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Accumulate_notify(ibuf, 1, MPI_INT, right, nwin_disp(w, right, 64), 1,
                                       MPI_INT, MPI_SUM, n, w->win), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Win_notify_waitsome(w->win, 0, n + 1, 0, &id), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Win_notify_waitsome(w->win, n, 1, 0, &id), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Win_notify_reset(w->win, n, &v), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Win_get_notify_value(w->win, n, &v), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Win_notify_init(w->win, n, &req), MPI_ERR_ARG);
    if (MPI_REQUEST_NULL != req) {
        MPI_Request_free(&req);
    }
    /* the whole range is fine, and the refused calls notified nobody */
    MPI_Barrier(MPI_COMM_WORLD);
    id = -7;
    OK(MPIX_Win_notify_waitsome(w->win, 0, n, 0, &id));
    if (MPIX_NOTIFY_NONE != id) {
        v = -1;
        MPIX_Win_get_notify_value(w->win, id, &v);
        notify_fail("%s: %d slots: slot %d holds %lld after only refused calls", PATH_NAME, n,
                    id, (long long) v);
    }
    MPI_Barrier(MPI_COMM_WORLD);        /* before anyone notifies again */
}

static void resize(void)
{
    nwin_t w;
    MPI_Count v;
    int id;
    MPI_Count c;

    nwin_open(&w, NF_ALLOCATE, WIN_BYTES, MPI_COMM_WORLD);
    nwin_fill(&w);

    OK(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, 4));
    CHECK(4 == get_num(w.win));
    OK(MPI_Win_lock_all(0, w.win));
    read_self(&w, 3);
    read_self(&w, 0);
    beyond(&w, 4);
    /* counts left in slots: 2 reads into slot 2, a put from the left
     * neighbour into slot 1 */
    ibuf[1] = rank;
    OK(MPIX_Win_read_notify(ibuf + 2, 1, MPI_INT, rank, nwin_disp(&w, rank, 0), 1, MPI_INT, 2,
                            w.win));
    OK(MPIX_Win_read_notify(ibuf + 3, 1, MPI_INT, rank, nwin_disp(&w, rank, 0), 1, MPI_INT, 2,
                            w.win));
    OK(MPIX_Put_notify(ibuf + 1, 1, MPI_INT, right, nwin_disp(&w, right, 64), 1, MPI_INT, 1,
                       w.win));
    CHECK(2 == wait_value(w.win, 2, 2));
    CHECK(1 == wait_value(w.win, 1, 1));
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);

    /* same n: still zeroed */
    OK(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, 4));
    CHECK(4 == get_num(w.win));
    for (int i = 0; i < 4; ++i) {
        OK(MPIX_Win_get_notify_value(w.win, i, &v));
        CHECK(0 == v);
    }

    OK(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, BIG));
    CHECK(BIG == get_num(w.win));
    OK(MPI_Win_lock_all(0, w.win));
    read_self(&w, BIG - 1);
    ibuf[4] = rank + 100;
    OK(MPIX_Put_notify(ibuf + 4, 1, MPI_INT, right, nwin_disp(&w, right, 128), 1, MPI_INT,
                       BIG - 2, w.win));
    if (notify_take(w.win, BIG - 16, 16, &id, &c)) {
        int got;
        memcpy(&got, w.base + 128, 4);
        CHECK(BIG - 2 == id && 1 == c && left + 100 == got);
    } else {
        notify_fail("%s: put_notify into slot %d never notified", PATH_NAME, BIG - 2);
    }
    beyond(&w, BIG);
    /* left set for the next resize */
    OK(MPIX_Win_read_notify(ibuf + 5, 1, MPI_INT, rank, nwin_disp(&w, rank, 0), 1, MPI_INT,
                            BIG - 3, w.win));
    CHECK(1 == wait_value(w.win, BIG - 3, 1));
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);

    OK(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, 16));
    CHECK(16 == get_num(w.win));
    OK(MPIX_Win_notify_waitsome(w.win, 0, 16, 0, &id));
    CHECK(MPIX_NOTIFY_NONE == id);
    OK(MPI_Win_lock_all(0, w.win));
    read_self(&w, 15);
    beyond(&w, 16);
    OK(MPI_Win_unlock_all(w.win));

    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_CLASS(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, 0), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, -5), MPI_ERR_ARG);
    CHECK(16 == get_num(w.win));
    nwin_close(&w);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    defaults();
    resize();
    return ompix_test_finish("notify_num");
}
