/*
 * ompix-test: np=1,2,3 tls=shm,tcp pml=ob1,ucx timeout=90 mca="osc rdma2,sm"
 *
 * The draft's window attributes, MPIX_WIN_NOTIFICATION_NUM_SB, _NUM_UB and
 * _VALUE_UB, on allocate, create and dynamic windows (and shared ones in
 * the generic variants): before MPI_Init the names are
 * MPI_KEYVAL_INVALID; after it each is one keyval for the whole run; every
 * window has all three (NUM_SB = MPIX_Win_get_num_notify's count, 65 536
 * by default; NUM_UB = INT_MAX, the largest n MPIX_Win_set_num_notify
 * takes; VALUE_UB = the 64-bit counters' top); MPIX_Win_set_num_notify(5)
 * moves NUM_SB to 5 on every rank; the user can neither set nor delete
 * them nor free their keyvals (values unchanged after the attempts);
 * MPI_Win_create_keyval still hands out other keyvals.
 * notify_attr_gen.c: the generic path; notify_attr_off_gen.c: the generic
 * path with its setup at window creation off.
 */
#include <limits.h>

#include "notify_common.h"

#define WIN_BYTES 1024

/* The three attributes of win, flags anded: 1 when all are present. */
static int get_attrs(MPI_Win win, int *sb, int *ub, MPI_Count *vub)
{
    int *psb = NULL, *pub = NULL, f1 = 0, f2 = 0, f3 = 0;
    MPI_Count *pvub = NULL;

    OK(MPI_Win_get_attr(win, MPIX_WIN_NOTIFICATION_NUM_SB, &psb, &f1));
    OK(MPI_Win_get_attr(win, MPIX_WIN_NOTIFICATION_NUM_UB, &pub, &f2));
    OK(MPI_Win_get_attr(win, MPIX_WIN_NOTIFICATION_VALUE_UB, &pvub, &f3));
    if (!(f1 && f2 && f3) || NULL == psb || NULL == pub || NULL == pvub) {
        return 0;
    }
    *sb = *psb;
    *ub = *pub;
    *vub = *pvub;
    return 1;
}

/* The user may not change or remove them. */
static void read_only(MPI_Win win)
{
    static int mine = 3;
    int kv = MPIX_WIN_NOTIFICATION_NUM_UB, sb, ub;
    MPI_Count vub;

    CHECK(MPI_SUCCESS != MPI_Win_set_attr(win, MPIX_WIN_NOTIFICATION_NUM_SB, &mine));
    CHECK(MPI_SUCCESS != MPI_Win_delete_attr(win, MPIX_WIN_NOTIFICATION_VALUE_UB));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_SUCCESS != MPI_Win_free_keyval(&kv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK(get_attrs(win, &sb, &ub, &vub) && INT_MAX == ub && INT64_MAX == vub && 3 != sb);
}

static void one_window(int f)
{
    nwin_t w;
    int sb = -1, ub = -1, n = -1;
    MPI_Count vub = -1;

    nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
    OK(MPIX_Win_get_num_notify(w.win, &n));
    if (!get_attrs(w.win, &sb, &ub, &vub)) {
        notify_fail("%s %s: the notification attributes are missing", PATH_NAME, nf_name[f]);
    } else {
        CHECK(65536 == n && n == sb);
        CHECK(INT_MAX == ub);
        CHECK(INT64_MAX == vub);
    }
    OK(MPIX_Win_set_num_notify(w.win, MPI_INFO_NULL, 5));
    CHECK(get_attrs(w.win, &sb, &ub, &vub) && 5 == sb && INT_MAX == ub);
    read_only(w.win);
    nwin_close(&w);
}

int main(int argc, char **argv)
{
    int before = MPIX_WIN_NOTIFICATION_NUM_SB, kv[3], other = MPI_KEYVAL_INVALID;

    ompix_test_init(&argc, &argv);
    CHECK(MPI_KEYVAL_INVALID == before);
    kv[0] = MPIX_WIN_NOTIFICATION_NUM_SB;
    kv[1] = MPIX_WIN_NOTIFICATION_NUM_UB;
    kv[2] = MPIX_WIN_NOTIFICATION_VALUE_UB;
    CHECK(MPI_KEYVAL_INVALID != kv[0] && kv[0] != kv[1] && kv[1] != kv[2] && kv[0] != kv[2]);
    for (int f = 0; f < NF_COUNT; ++f) {
        one_window(f);
    }
    CHECK(kv[0] == MPIX_WIN_NOTIFICATION_NUM_SB && kv[2] == MPIX_WIN_NOTIFICATION_VALUE_UB);
    OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &other, NULL));
    CHECK(other != kv[0] && other != kv[1] && other != kv[2]);
    OK(MPI_Win_free_keyval(&other));
    return ompix_test_finish("notify_attr");
}
