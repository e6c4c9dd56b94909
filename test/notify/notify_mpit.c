/*
 * ompix-test: np=1,2,3 tls=shm,tcp pml=ob1,ucx timeout=90 mca="osc rdma2,sm"
 *
 * MPI_T performance variable mpi_notify_issued: found by name and by
 * enumeration as a read-only continuous counter of unsigned long long, not
 * bound to an object; a handle counts exactly the notified operations
 * issued while it exists, on allocate, create and dynamic windows (and
 * shared ones in the generic variant): toward the right neighbour 20
 * put_notify, 5 read_notify, 3 get_notify, 2 accumulate_notify, 1
 * get_accumulate_notify and one of each request form (+35); 10 put_notify
 * to MPI_PROC_NULL, a slot beyond the window's and a negative one add
 * nothing.  A second handle allocated later starts from 0 and counts what
 * follows, as the first does; after both are freed a new handle again
 * starts from 0.  notify_mpit_gen.c: the generic path.
 */
#include "notify_common.h"

#define WIN_BYTES 4096
#define NPUT 20

static MPI_T_pvar_session session;
static int ibuf[8];

static MPI_T_pvar_handle issued_handle(void)
{
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    int index = -1, count = 0;

    OK(MPI_T_pvar_get_index("mpi_notify_issued", MPI_T_PVAR_CLASS_COUNTER, &index));
    OK(MPI_T_pvar_handle_alloc(session, index, NULL, &h, &count));
    CHECK(1 == count);
    return h;
}

static unsigned long long readh(MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ULL;

    OK(MPI_T_pvar_read(session, h, &v));
    return v;
}

/* The variable as enumeration shows it. */
static void check_info(void)
{
    char name[256], desc[1024];
    int nlen = sizeof(name), dlen = sizeof(desc), verb, cls, bind, ro, cont, atomic, index;
    MPI_Datatype type;
    MPI_T_enum et;

    OK(MPI_T_pvar_get_index("mpi_notify_issued", MPI_T_PVAR_CLASS_COUNTER, &index));
    OK(MPI_T_pvar_get_info(index, name, &nlen, &verb, &cls, &type, &et, desc, &dlen, &bind,
                           &ro, &cont, &atomic));
    CHECK(0 == strcmp(name, "mpi_notify_issued"));
    CHECK(MPI_T_PVAR_CLASS_COUNTER == cls && MPI_UNSIGNED_LONG_LONG == type);
    CHECK(MPI_T_BIND_NO_OBJECT == bind && ro && cont && dlen > 1);
}

/* One round toward target t: 35 counted operations, the rest not. */
static void round_of(nwin_t *w, int t)
{
    MPI_Aint d = nwin_disp(w, t, 0);
    MPI_Request req;
    int one = 1, res;

    for (int i = 0; i < NPUT; ++i) {
        OK(MPIX_Put_notify(&one, 1, MPI_INT, t, d, 1, MPI_INT, 0, w->win));
    }
    for (int i = 0; i < 10; ++i) {
        OK(MPIX_Put_notify(&one, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, 0, w->win));
    }
    for (int i = 0; i < 5; ++i) {
        OK(MPIX_Win_read_notify(ibuf, 1, MPI_INT, t, d, 1, MPI_INT, 1, w->win));
    }
    OK(MPI_Win_flush(t, w->win));
    for (int i = 0; i < 3; ++i) {
        OK(MPIX_Get_notify(ibuf, 1, MPI_INT, t, d, 1, MPI_INT, 2, w->win));
    }
    OK(MPI_Win_flush(t, w->win));
    OK(MPIX_Accumulate_notify(&one, 1, MPI_INT, t, d, 1, MPI_INT, MPI_SUM, 3, w->win));
    OK(MPIX_Accumulate_notify(&one, 1, MPI_INT, t, d, 1, MPI_INT, MPI_SUM, 3, w->win));
    OK(MPIX_Get_accumulate_notify(&one, 1, MPI_INT, &res, 1, MPI_INT, t, d, 1, MPI_INT,
                                  MPI_SUM, 4, w->win));
    OK(MPIX_Rput_notify(&one, 1, MPI_INT, t, d, 1, MPI_INT, 5, w->win, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPIX_Rget_notify(ibuf, 1, MPI_INT, t, d, 1, MPI_INT, 5, w->win, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPIX_Raccumulate_notify(&one, 1, MPI_INT, t, d, 1, MPI_INT, MPI_SUM, 5, w->win, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPIX_Rget_accumulate_notify(&one, 1, MPI_INT, &res, 1, MPI_INT, t, d, 1, MPI_INT,
                                   MPI_SUM, 5, w->win, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS != MPIX_Put_notify(&one, 1, MPI_INT, t, d, 1, MPI_INT, 70000, w->win));
    CHECK(MPI_SUCCESS != MPIX_Put_notify(&one, 1, MPI_INT, t, d, 1, MPI_INT, -1, w->win));
    OK(MPI_Win_flush(t, w->win));
}
#define ROUND_COUNT (NPUT + 5 + 3 + 2 + 1 + 4)

static void one_window(int f)
{
    MPI_T_pvar_handle h1, h2, h3;
    unsigned long long a, b;
    nwin_t w;

    nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
    OK(MPI_Win_lock_all(0, w.win));
    round_of(&w, right);                 /* nobody counting */
    h1 = issued_handle();
    CHECK(0 == readh(h1));
    round_of(&w, right);
    a = readh(h1);
    if (ROUND_COUNT != a) {
        notify_fail("%s %s: issued %llu after one round, expected %d", PATH_NAME, nf_name[f],
                    a, ROUND_COUNT);
    }
    h2 = issued_handle();
    round_of(&w, right);
    a = readh(h1);
    b = readh(h2);
    CHECK(2 * ROUND_COUNT == a && ROUND_COUNT == b);
    OK(MPI_T_pvar_handle_free(session, &h1));
    OK(MPI_T_pvar_handle_free(session, &h2));
    round_of(&w, right);                 /* nobody counting again */
    h3 = issued_handle();
    CHECK(0 == readh(h3));
    round_of(&w, right);
    CHECK(ROUND_COUNT == readh(h3));
    OK(MPI_T_pvar_handle_free(session, &h3));
    OK(MPI_Win_unlock_all(w.win));
    OK(MPI_Barrier(MPI_COMM_WORLD));
    nwin_close(&w);
}

int main(int argc, char **argv)
{
    return notify_mpit_main(&argc, &argv, &session, check_info, one_window, "notify_mpit");
}
