/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=90 mca="osc rdma2,sm"
 *
 * Every error of the notified-RMA calls reaches the window's error handler
 * (a counting handler: each failing call returns its code and the handler
 * sees it exactly once, with the right class), on allocate, create and
 * dynamic windows, and the window works normally afterwards:
 *
 *   MPI_ERR_ARG       id < 0 or >= the slot count (read/put/get/accumulate
 *                     notify, reset, get value, notify_init, waitsome
 *                     ranges: first < 0, first + num beyond, num < 1);
 *                     timeout < -1; set_num_notify with n < 1
 *   MPI_ERR_RMA_SYNC  no access epoch at all, and an epoch to another rank
 *   MPI_ERR_RANK      target rank == size, and < 0 (not MPI_PROC_NULL)
 *   MPI_ERR_RMA_RANGE past the end of the target's window, straddling it,
 *                     and (dynamic) an address no region covers
 *   MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_OP   as MPI_Get/MPI_Accumulate
 *   MPI_ERR_BUFFER    a NULL origin buffer with data to move, all four
 *                     calls (issue 28: read_notify crashed or hung)
 *   MPI_ERR_WIN       MPI_WIN_NULL (through MPI_COMM_WORLD's handler)
 *
 * Not errors: waitsome with timeout 0 (and 10 ms) and nothing set returns
 * MPI_SUCCESS with MPIX_NOTIFY_NONE; MPI_PROC_NULL as target succeeds and
 * notifies nobody; a notification request started before three
 * put_notify into its slot takes all three through MPI_Wait (issue 28: it
 * hung on the generic path).  No failed call writes anything: every rank's window
 * part still holds its pattern at the end (a put past one rank's part of
 * a shared segment lands in the next rank's).  A shared window
 * (MPI_Win_allocate_shared, always the generic path on osc/sm): range
 * errors before and after MPIX_Win_set_num_notify.
 *
 * notify_errors_gen.c: the generic path, which guarantees less, so it
 * expects less (see gen_sync_class and one_flavor):
 *  - MPI_ERR_RMA_SYNC only where the window's component reports it for its
 *    own MPI_Get (osc/pt2pt does; osc/sm checks no epochs): the generic
 *    path issues the component's operations and cannot see epochs the
 *    component does not track.  Where the component reports nothing, the
 *    calls are not made (they would run).
 *  - dynamic windows are range-checked on both paths (issue 28: an
 *    out-of-range read_notify succeeded on the generic path): past the
 *    end, straddling it, an unattached address, and this rank's own end.
 */
#include "notify_common.h"

#define WIN_BYTES 1024

static int ibuf[8];

/* Flavors whose epoch errors were checked; the generic variant must have
 * found at least one component that reports them. */
static int sync_checked;

/* The class the notified calls must return for an access to target at
 * disp in the current epoch state: MPI_ERR_RMA_SYNC on osc/rdma2; on the
 * generic path whatever the component's own MPI_Get returns there
 * (MPI_SUCCESS: it checks nothing, and the caller skips the calls). */
static int gen_sync_class(nwin_t *w, int target, MPI_Aint disp)
{
    int probe = 0, cls, before = err_handler_calls;
    if (!NOTIFY_GENERIC) {
        return MPI_ERR_RMA_SYNC;
    }
    cls = err_class(MPI_Get(&probe, 1, MPI_INT, target, disp, 1, MPI_INT, w->win));
    CHECK(err_handler_calls == before + (MPI_SUCCESS != cls));
    CHECK(MPI_SUCCESS == cls || MPI_ERR_RMA_SYNC == cls);
    return cls;
}

/* No failed call wrote anything into this rank's part. */
static void check_pattern(nwin_t *w, const char *what)
{
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win));
    for (MPI_Aint i = 0; i < w->bytes; ++i) {
        if (w->base[i] != pat(rank, i)) {
            notify_fail("%s %s: byte %ld of this rank's part overwritten (%d, not %d)",
                        PATH_NAME, what, (long) i, w->base[i], pat(rank, i));
            break;
        }
    }
    OK(MPI_Win_unlock(rank, w->win));
}

/* read/put/get/accumulate-notify with the given arguments, each expected
 * to fail with cls. */
static void all_ops(nwin_t *w, int count, MPI_Datatype type, int target, MPI_Aint disp, int id,
                    int cls)
{
    CHECK_ERR(MPIX_Win_read_notify(ibuf, count, type, target, disp, count, type, id, w->win), cls);
    CHECK_ERR(MPIX_Put_notify(ibuf, count, type, target, disp, count, type, id, w->win), cls);
    CHECK_ERR(MPIX_Get_notify(ibuf, count, type, target, disp, count, type, id, w->win), cls);
    CHECK_ERR(MPIX_Accumulate_notify(ibuf, count, type, target, disp, count, type, MPI_SUM, id,
                                     w->win), cls);
}

/* Inside lock_all: the NULL-buffer rows, then a notification request on
 * slot 11 that MPI_Wait completes with the left neighbour's three
 * put_notify (of the bytes already there, so the pattern stays), possibly
 * over several starts if they arrive apart. */
static void buffer_and_request_rows(nwin_t *w, int other)
{
    MPI_Aint d = nwin_disp(w, other, 20);
    unsigned char b[3];
    MPI_Request req;
    MPI_Status st;
    MPI_Count c, total = 0;

    CHECK_ERR(MPIX_Win_read_notify(NULL, 1, MPI_INT, other, d, 1, MPI_INT, 3, w->win),
              MPI_ERR_BUFFER);
    CHECK_ERR(MPIX_Get_notify(NULL, 2, MPI_INT, other, d, 2, MPI_INT, 3, w->win),
              MPI_ERR_BUFFER);
    CHECK_ERR(MPIX_Put_notify(NULL, 1, MPI_INT, other, d, 1, MPI_INT, 3, w->win),
              MPI_ERR_BUFFER);
    CHECK_ERR(MPIX_Accumulate_notify(NULL, 1, MPI_INT, other, d, 1, MPI_INT, MPI_SUM, 3,
                                     w->win), MPI_ERR_BUFFER);

    OK(MPIX_Win_notify_init(w->win, 11, &req));
    OK(MPI_Start(&req));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 3; ++i) {
        b[i] = pat(other, 20 + i);
        OK(MPIX_Put_notify(&b[i], 1, MPI_BYTE, other, d + i, 1, MPI_BYTE, 11, w->win));
    }
    OK(MPI_Win_flush(other, w->win));
    for (int starts = 0; total < 3 && starts < 3; ++starts) {
        if (starts > 0) {
            OK(MPI_Start(&req));
        }
        OK(MPI_Wait(&req, &st));
        c = 0;
        OK(MPI_Get_elements_x(&st, MPI_COUNT, &c));
        CHECK(11 == st.MPI_TAG && c >= 1);
        total += c;
    }
    CHECK(3 == total);
    OK(MPI_Request_free(&req));
}

static void consumer_errors(nwin_t *w, int n)
{
    MPI_Count v;
    MPI_Request req = MPI_REQUEST_NULL;
    int id;
    for (int bad = 0; bad < 2; ++bad) {
        int b = bad ? n : -1;
        CHECK_ERR(MPIX_Win_notify_reset(w->win, b, &v), MPI_ERR_ARG);
        CHECK_ERR(MPIX_Win_get_notify_value(w->win, b, &v), MPI_ERR_ARG);
        CHECK_ERR(MPIX_Win_notify_init(w->win, b, &req), MPI_ERR_ARG);
        if (MPI_REQUEST_NULL != req) {
            MPI_Request_free(&req);
        }
    }
    CHECK_ERR(MPIX_Win_notify_waitsome(w->win, -1, 4, 0, &id), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Win_notify_waitsome(w->win, n - 2, 3, 0, &id), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Win_notify_waitsome(w->win, 0, 0, 0, &id), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Win_notify_waitsome(w->win, 0, 4, -2, &id), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Win_notify_waitsome(w->win, 0, 4, -1000, &id), MPI_ERR_ARG);

    /* not errors */
    int before = err_handler_calls;
    id = -7;
    OK(MPIX_Win_notify_waitsome(w->win, 0, n, 0, &id));
    CHECK(MPIX_NOTIFY_NONE == id);
    id = -7;
    OK(MPIX_Win_notify_waitsome(w->win, 100, 50, 10, &id));
    CHECK(MPIX_NOTIFY_NONE == id);
    CHECK(before == err_handler_calls);
}

static void one_flavor(int f, MPI_Errhandler eh)
{
    nwin_t w;
    int n, other = right;
    MPI_Aint end;

    int failed_before = ompix_test_failures;
    nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
    MPI_Win_set_errhandler(w.win, eh);
    nwin_fill(&w);
    OK(MPIX_Win_get_num_notify(w.win, &n));
    end = nwin_disp(&w, other, WIN_BYTES);

    /* no epoch */
    int sync = gen_sync_class(&w, other, nwin_disp(&w, other, 0));
    if (MPI_SUCCESS != sync) {
        all_ops(&w, 1, MPI_INT, other, nwin_disp(&w, other, 0), 3, sync);
        sync_checked++;
    }
    consumer_errors(&w, n);

    /* an epoch to one rank only */
    if (other != rank) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, other, 0, w.win));
        sync = gen_sync_class(&w, rank, nwin_disp(&w, rank, 0));
        if (MPI_SUCCESS != sync) {
            all_ops(&w, 1, MPI_INT, rank, nwin_disp(&w, rank, 0), 3, sync);
        }
        OK(MPI_Win_unlock(other, w.win));
    }

    OK(MPI_Win_lock_all(0, w.win));
    all_ops(&w, 1, MPI_INT, other, nwin_disp(&w, other, 0), -1, MPI_ERR_ARG);
    all_ops(&w, 1, MPI_INT, other, nwin_disp(&w, other, 0), n, MPI_ERR_ARG);
    all_ops(&w, 1, MPI_INT, size, nwin_disp(&w, other, 0), 3, MPI_ERR_RANK);
    all_ops(&w, 1, MPI_INT, -5, nwin_disp(&w, other, 0), 3, MPI_ERR_RANK);
    all_ops(&w, 1, MPI_INT, other, end, 3, MPI_ERR_RMA_RANGE);
    all_ops(&w, 2, MPI_INT, other, end - 4, 3, MPI_ERR_RMA_RANGE);
    if (NF_DYNAMIC == f) {
        all_ops(&w, 1, MPI_INT, other, end + 4096, 3, MPI_ERR_RMA_RANGE);
        all_ops(&w, 1, MPI_INT, rank, nwin_disp(&w, rank, WIN_BYTES), 3, MPI_ERR_RMA_RANGE);
    }
    all_ops(&w, -1, MPI_INT, other, nwin_disp(&w, other, 0), 3, MPI_ERR_COUNT);
    all_ops(&w, 1, MPI_DATATYPE_NULL, other, nwin_disp(&w, other, 0), 3, MPI_ERR_TYPE);
    CHECK_ERR(MPIX_Accumulate_notify(ibuf, 1, MPI_INT, other, nwin_disp(&w, other, 0), 1,
                                     MPI_INT, MPI_OP_NULL, 3, w.win), MPI_ERR_OP);
    consumer_errors(&w, n);

    /* MPI_PROC_NULL: success, nobody notified (slot 7 everywhere) */
    int before = err_handler_calls;
    OK(MPIX_Win_read_notify(ibuf, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, 7, w.win));
    OK(MPIX_Put_notify(ibuf, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, 7, w.win));
    OK(MPIX_Get_notify(ibuf, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, 7, w.win));
    OK(MPIX_Accumulate_notify(ibuf, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, 7, w.win));
    CHECK(before == err_handler_calls);
    OK(MPI_Win_flush_all(w.win));
    buffer_and_request_rows(&w, other);

    /* the window still works after all that */
    int id;
    MPI_Count c;
    ibuf[0] = -1;
    OK(MPIX_Win_read_notify(ibuf, 1, MPI_INT, other, nwin_disp(&w, other, 8), 1, MPI_INT, 9,
                            w.win));
    if (notify_take(w.win, 9, 1, &id, &c)) {
        int want;
        memcpy(&want, (unsigned char[4]) {pat(other, 8), pat(other, 9), pat(other, 10),
                                          pat(other, 11)}, 4);
        CHECK(9 == id && 1 == c && want == ibuf[0]);
    } else {
        notify_fail("%s %s: read_notify after the errors never notified", PATH_NAME, nf_name[f]);
    }
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    notify_check_empty(w.win, 0, 16, "MPI_PROC_NULL and failed calls notify nobody");
    check_pattern(&w, nf_name[f]);

    CHECK_ERR(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, 0), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, -1), MPI_ERR_ARG);
    nwin_close(&w);
    if (ompix_test_failures != failed_before) {
        notify_fail("%s path, %s window: the %d failed checks above", PATH_NAME, nf_name[f],
                    ompix_test_failures - failed_before);
    }
}

/* A shared window: ranges checked for every call, before and after
 * MPIX_Win_set_num_notify (none is needed first).  Rank parts are
 * contiguous, so a put past one is a write into the next: check_pattern
 * sees it. */
static void shared_window(MPI_Errhandler eh)
{
    nwin_t w;
    MPI_Comm node;
    int me, n;

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &me);
    MPI_Comm_size(node, &n);
    int other = (me + 1) % n;
    if (n != size) {
        /* check_pattern and the fill below use world ranks */
        MPI_Comm_free(&node);
        return;
    }
    memset(&w, 0, sizeof w);
    w.bytes = WIN_BYTES;
    OK(MPI_Win_allocate_shared(WIN_BYTES, 1, MPI_INFO_NULL, node, &w.base, &w.win));
    MPI_Win_set_errhandler(w.win, eh);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win));
    for (MPI_Aint i = 0; i < WIN_BYTES; ++i) {
        w.base[i] = pat(rank, i);
    }
    OK(MPI_Win_unlock(rank, w.win));
    MPI_Barrier(node);

    OK(MPI_Win_lock_all(0, w.win));
    CHECK_ERR(MPIX_Win_read_notify(ibuf, 1, MPI_INT, other, WIN_BYTES, 1, MPI_INT, 3, w.win),
              MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPIX_Win_read_notify(ibuf, 2, MPI_INT, other, WIN_BYTES - 4, 2, MPI_INT, 3,
                                   w.win), MPI_ERR_RMA_RANGE);
    all_ops(&w, 1, MPI_INT, other, WIN_BYTES, 3, MPI_ERR_RMA_RANGE);
    OK(MPI_Win_unlock_all(w.win));
    OK(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, 64));
    OK(MPI_Win_lock_all(0, w.win));
    all_ops(&w, 1, MPI_INT, other, WIN_BYTES, 3, MPI_ERR_RMA_RANGE);
    all_ops(&w, 2, MPI_INT, other, WIN_BYTES - 4, 3, MPI_ERR_RMA_RANGE);
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(node);
    notify_check_empty(w.win, 0, 64, "shared window: failed calls notify nobody");
    check_pattern(&w, "shared");
    OK(MPI_Win_free(&w.win));
    MPI_Comm_free(&node);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    int n = 0;
    ompix_test_init(&argc, &argv);
    eh = counting_win_errhandler();
    for (int f = 0; f < NF_COUNT; ++f) {
        one_flavor(f, eh);
    }
    CHECK(NOTIFY_GENERIC ? sync_checked >= 1 : NF_COUNT == sync_checked);
    shared_window(eh);
    MPI_Errhandler_free(&eh);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_CLASS(MPIX_Win_get_num_notify(MPI_WIN_NULL, &n), MPI_ERR_WIN);
    CHECK_CLASS(MPIX_Win_notify_waitsome(MPI_WIN_NULL, 0, 1, 0, &n), MPI_ERR_WIN);
    return ompix_test_finish("notify_errors");
}
