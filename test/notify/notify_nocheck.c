/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=90 mca="osc rdma2,sm mpi_param_check 0"
 *
 * Notification ids are checked with parameter checking off too (issue 28:
 * with --mca mpi_param_check 0 an id of -1 segfaulted put, get and
 * accumulate_notify inside osc/rdma2): id -1 and id == the slot count give
 * MPI_ERR_ARG through the window's handler for read/put/get/accumulate
 * notify, reset, get value and notify_init, on allocate, create and
 * dynamic windows; nothing is notified and the window works afterwards.
 * notify_nocheck_gen.c: the same on the generic path.
 */
#include "notify_common.h"

#define WIN_BYTES 256

static void bad_ids(nwin_t *w, int other, int id)
{
    MPI_Aint d = nwin_disp(w, other, 0);
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Count v;
    int buf[2] = {1, 2};

    CHECK_ERR(MPIX_Win_read_notify(buf, 1, MPI_INT, other, d, 1, MPI_INT, id, w->win),
              MPI_ERR_ARG);
    CHECK_ERR(MPIX_Put_notify(buf, 1, MPI_INT, other, d, 1, MPI_INT, id, w->win), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Get_notify(buf, 1, MPI_INT, other, d, 1, MPI_INT, id, w->win), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Accumulate_notify(buf, 1, MPI_INT, other, d, 1, MPI_INT, MPI_SUM, id,
                                     w->win), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Win_notify_reset(w->win, id, &v), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Win_get_notify_value(w->win, id, &v), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Win_notify_init(w->win, id, &req), MPI_ERR_ARG);
    if (MPI_REQUEST_NULL != req) {
        MPI_Request_free(&req);
    }
}

static void one_flavor(int f, MPI_Errhandler eh)
{
    nwin_t w;
    int n, id, other = right;
    MPI_Count c;
    unsigned char b;

    nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
    MPI_Win_set_errhandler(w.win, eh);
    nwin_fill(&w);
    OK(MPIX_Win_get_num_notify(w.win, &n));
    OK(MPI_Win_lock_all(0, w.win));
    bad_ids(&w, other, -1);
    bad_ids(&w, other, n);
    bad_ids(&w, other, INT32_MIN);
    OK(MPI_Win_flush_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    notify_check_empty(w.win, 0, 16, "failed calls notify nobody");
    MPI_Barrier(MPI_COMM_WORLD);            /* before anyone notifies again */

    /* the window still works: a put_notify of the byte already there */
    b = pat(other, 5);
    OK(MPIX_Put_notify(&b, 1, MPI_BYTE, other, nwin_disp(&w, other, 5), 1, MPI_BYTE, 2, w.win));
    OK(MPI_Win_flush(other, w.win));
    if (notify_take(w.win, 2, 1, &id, &c)) {
        CHECK(2 == id && 1 == c && pat(rank, 5) == w.base[5]);
    } else {
        notify_fail("%s %s: put_notify after the errors never notified", PATH_NAME, nf_name[f]);
    }
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    nwin_close(&w);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;

    ompix_test_init(&argc, &argv);
    eh = counting_win_errhandler();
    for (int f = 0; f < NF_COUNT; ++f) {
        one_flavor(f, eh);
    }
    MPI_Errhandler_free(&eh);
    return ompix_test_finish(NOTIFY_GENERIC ? "notify_nocheck_gen" : "notify_nocheck");
}
