/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * MPI_T outlives MPI: a program that initializes MPI_T before MPI_Init
 * (and opens its session and handles then, or between MPI_Init and
 * MPI_Finalize) reads ompix's process-wide counters after MPI_Finalize,
 * frees its handles (and, on 5.0, its session and MPI_T) and exits
 * cleanly.  Before MPI_Finalize
 * each rank issues 6 put_notify to its right neighbour, takes the 6 it
 * receives (one reset), and runs 4 continuations (2 IMMEDIATE); after it
 * the same handles read the same values: issued 6, consumed 6,
 * continuations registered 4 and run 4.  A handle allocated after
 * MPI_Finalize starts from 0 and stays there (nothing runs any more), and
 * freeing handles after MPI_Finalize (the notify counters' callbacks put
 * the uncounted tables back) is harmless.
 *
 * On Open MPI 4.1 the session is not freed and MPI_T_finalize not called
 * after MPI_Finalize: both touch memory Open MPI itself freed, with or
 * without ompix.  Its MPI_Finalize runs opal_class_finalize while MPI_T is
 * still initialized, which frees every object class's constructor and
 * destructor arrays; MPI_T_pvar_session_free after it reads them
 * (valgrind: invalid reads in PMPI_T_pvar_session_free of blocks freed by
 * opal_class_finalize from ompi_mpi_finalize), and MPI_T_finalize closes
 * frameworks through them and crashes (a program of MPI_T_init_thread,
 * MPI_Init, MPI_Finalize, MPI_T_finalize does; open-mpi/ompi#11485).  The
 * reads and handle frees after MPI_Finalize are clean.  README.md ("MPI_T
 * performance variables") says so.
 */
#include "ompix_test.h"
#include "ompix_mpit.h"

#include <string.h>

#define OK(call) CHECK(MPI_SUCCESS == (call))
#define NPUT 6
#define NCONT 4

enum { V_ISSUED, V_CONSUMED, V_CREG, V_CRUN, NV };
static const char *const vname[NV] = {"mpi_notify_issued", "mpi_notify_consumed",
                                      "mpi_continue_registered", "mpi_continue_run"};
static const unsigned long long want[NV] = {NPUT, NPUT, NCONT, NCONT};

static MPI_T_pvar_session session;
static MPI_T_pvar_handle h[NV];

static void count_cb(MPI_Status *st, void *data)
{
    (void) st;
    ++*(int *) data;
}

static void notify_work(void)
{
    MPI_Count got = -1;
    int *base, one = 1;
    MPI_Win win;

    OK(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < NPUT; ++i) {
        OK(MPIX_Put_notify(&one, 1, MPI_INT, right, 0, 1, MPI_INT, 0, win));
    }
    OK(MPI_Win_flush(right, win));
    OK(MPIX_Win_notify_threshold(win, 0, NPUT, 20000, &got));
    OK(MPIX_Win_notify_reset(win, 0, &got));
    CHECK(NPUT == got);
    OK(MPI_Win_unlock_all(win));
    OK(MPI_Win_free(&win));
}

/* The continue counters exist from the first MPIX_Continue_init on. */
static void continue_work(void)
{
    MPI_Request cr, r;
    int ran = 0, buf = 0, count = 0, index;

    OK(MPIX_Continue_init(MPI_INFO_NULL, &cr));
    for (int v = V_CREG; v <= V_CRUN; ++v) {
        OK(MPI_T_pvar_get_index(vname[v], MPI_T_PVAR_CLASS_COUNTER, &index));
        OK(MPI_T_pvar_handle_alloc(session, index, NULL, &h[v], &count));
    }
    for (int i = 0; i < NCONT; ++i) {
        OK(MPI_Irecv(&buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r));
        OK(MPIX_Continue(&r, count_cb, &ran, i % 2 ? MPIX_CONT_IMMEDIATE : 0,
                         MPI_STATUS_IGNORE, cr));
    }
    OK(MPI_Wait(&cr, MPI_STATUS_IGNORE));
    OK(MPI_Request_free(&cr));
    CHECK(NCONT == ran);
}

/* After MPI_Finalize: every handle still reads what it read before. */
static void check_after(void)
{
    MPI_T_pvar_handle late;

    for (int v = 0; v < NV; ++v) {
        CHECK(ompix_mpit_pvar_expect(session, h[v], vname[v], want[v]));
    }
    late = ompix_mpit_pvar_counter(session, "mpi_notify_consumed");
    CHECK(MPI_T_PVAR_HANDLE_NULL != late);
    CHECK(ompix_mpit_pvar_expect(session, late, "late mpi_notify_consumed", 0));
    OK(MPI_T_pvar_handle_free(session, &late));
    for (int v = 0; v < NV; ++v) {
        OK(MPI_T_pvar_handle_free(session, &h[v]));
    }
#if OMPI_MAJOR_VERSION >= 5
    OK(MPI_T_pvar_session_free(&session));
    OK(MPI_T_finalize());
#endif
}

int main(int argc, char **argv)
{
    int provided, total = 0;

    OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    OK(MPI_T_pvar_session_create(&session));
    ompix_test_init(&argc, &argv);
    h[V_ISSUED] = ompix_mpit_pvar_counter(session, vname[V_ISSUED]);
    h[V_CONSUMED] = ompix_mpit_pvar_counter(session, vname[V_CONSUMED]);
    CHECK(MPI_T_PVAR_HANDLE_NULL != h[V_ISSUED] && MPI_T_PVAR_HANDLE_NULL != h[V_CONSUMED]);
    notify_work();
    continue_work();
    for (int v = 0; v < NV; ++v) {
        CHECK(ompix_mpit_pvar_expect(session, h[v], vname[v], want[v]));
    }
    MPI_Allreduce(&ompix_test_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    OK(MPI_Finalize());
    check_after();
    if (0 == rank) {
        printf("mpit_after_finalize: %s (%d failed checks before MPI_Finalize)\n",
               total || ompix_test_failures ? "FAILED" : "ok", total);
    }
    return total || ompix_test_failures ? 1 : 0;
}
