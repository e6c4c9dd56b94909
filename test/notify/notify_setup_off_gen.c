/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=60 mca="osc sm,pt2pt mpi_notify_generic_setup 0"
 *
 * The generic path with its setup at window creation turned off (--mca
 * mpi_notify_generic_setup 0): a target-notified operation before the
 * collective MPIX_Win_set_num_notify fails with MPI_ERR_RMA_SYNC and
 * notifies nobody; read_notify needs nothing; after set_num_notify every
 * call works (allocate windows on osc sm, create and dynamic on osc
 * pt2pt), with ranges checked.
 */
#define NOTIFY_GENERIC 1
#include "notify_common.h"

#define WIN_BYTES 256

static void one_flavor(int f, MPI_Errhandler eh)
{
    nwin_t w;
    int id, other = right;
    MPI_Count c;
    unsigned char b = pat(other, 3), r = 0;
    MPI_Aint d = 0;

    nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
    MPI_Win_set_errhandler(w.win, eh);
    nwin_fill(&w);
    d = nwin_disp(&w, other, 3);
    OK(MPI_Win_lock_all(0, w.win));
    CHECK_ERR(MPIX_Put_notify(&b, 1, MPI_BYTE, other, d, 1, MPI_BYTE, 1, w.win),
              MPI_ERR_RMA_SYNC);
    OK(MPIX_Win_read_notify(&r, 1, MPI_BYTE, other, d, 1, MPI_BYTE, 2, w.win));
    if (notify_take(w.win, 2, 1, &id, &c)) {
        CHECK(2 == id && 1 == c && b == r);
    } else {
        notify_fail("%s: read_notify without set_num_notify never notified", nf_name[f]);
    }
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    notify_check_empty(w.win, 0, 16, "the refused put_notify notified nobody");

    OK(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, 64));
    OK(MPI_Win_lock_all(0, w.win));
    OK(MPIX_Put_notify(&b, 1, MPI_BYTE, other, d, 1, MPI_BYTE, 1, w.win));
    OK(MPI_Win_flush(other, w.win));
    if (notify_take(w.win, 1, 1, &id, &c)) {
        CHECK(1 == id && 1 == c);
    } else {
        notify_fail("%s: put_notify after set_num_notify never notified", nf_name[f]);
    }
    if (NF_DYNAMIC != f) {
        CHECK_ERR(MPIX_Put_notify(&b, 1, MPI_BYTE, other, WIN_BYTES, 1, MPI_BYTE, 1, w.win),
                  MPI_ERR_RMA_RANGE);
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
    return ompix_test_finish("notify_setup_off_gen");
}
