/*
 * ompix-test: np=1,2,3 tls=shm,tcp pml=ob1,ucx timeout=90 mca="osc rdma2,sm"
 *
 * MPI_T performance variable mpi_notify_consumed: a read-only continuous
 * counter of unsigned long long bound to no object; a handle counts
 * exactly the notifications this process took while it exists, on
 * allocate, create and dynamic windows (and shared ones in the generic
 * variant).  Per round every rank sends its right neighbour 5 put_notify
 * into slot 1 and 2 accumulate_notify into slot 3, and reads its own 4
 * read_notify into slot 2; it then takes slot 1 (5) and slot 2 (4) with
 * MPIX_Win_notify_reset, slot 3 (2) with a notification request
 * (MPIX_Win_notify_init: what is there at its completion, the rest with
 * MPIX_Win_reset_notify_value) and an empty slot 4 (0): +11.  Takes
 * before any handle (3 put_notify into slot 0) count nothing; a second
 * handle counts from its allocation; after both are freed a new handle
 * starts from 0.  Across the ranks, issued (mpi_notify_issued) and
 * consumed add up to the same.  notify_consumed_gen.c: the generic path.
 */
#include "notify_common.h"
#include "ompix_mpit.h"

#define WIN_BYTES 4096
#define ROUND_CONSUMED (5 + 4 + 2)

static MPI_T_pvar_session session;
static int ibuf[4];

static unsigned long long readh(MPI_T_pvar_handle h)
{
    return ompix_mpit_pvar_value(session, h);
}

/* Waits until slot id holds want, then takes it with MPIX_Win_notify_reset. */
static void take_exact(nwin_t *w, int id, MPI_Count want)
{
    MPI_Count v = -1;

    OK(MPIX_Win_notify_threshold(w->win, id, want, (int) (NOTIFY_DEADLINE * 1000), &v));
    OK(MPIX_Win_notify_reset(w->win, id, &v));
    if (v != want) {
        notify_fail("%s %s: slot %d held %lld, expected %lld", PATH_NAME, nf_name[w->flavor], id,
                    (long long) v, (long long) want);
    }
}

/* Slot 3's two accumulates: a request takes what is there when it
 * completes (1 or 2, its status's count of MPI_COUNT), the draft's reset
 * name the rest. */
static void take_by_request(nwin_t *w)
{
    MPI_Request req;
    MPI_Status st;
    MPI_Count rest = -1;
    int got = -1;

    OK(MPIX_Win_notify_init(w->win, 3, &req));
    OK(MPI_Start(&req));
    OK(MPI_Wait(&req, &st));
    OK(MPI_Request_free(&req));
    OK(MPI_Get_count(&st, MPI_COUNT, &got));
    CHECK(1 == got || 2 == got);
    OK(MPIX_Win_notify_threshold(w->win, 3, 2 - got, (int) (NOTIFY_DEADLINE * 1000), &rest));
    OK(MPIX_Win_reset_notify_value(w->win, 3, &rest));
    CHECK(2 - got == rest);
}

static void round_of(nwin_t *w)
{
    MPI_Aint d = nwin_disp(w, right, 0);
    MPI_Count none = -1;
    int one = 1;

    for (int i = 0; i < 5; ++i) {
        OK(MPIX_Put_notify(&one, 1, MPI_INT, right, d, 1, MPI_INT, 1, w->win));
    }
    for (int i = 0; i < 4; ++i) {
        OK(MPIX_Win_read_notify(&ibuf[i], 1, MPI_INT, right, d, 1, MPI_INT, 2, w->win));
    }
    OK(MPIX_Accumulate_notify(&one, 1, MPI_INT, right, d, 1, MPI_INT, MPI_SUM, 3, w->win));
    OK(MPIX_Accumulate_notify(&one, 1, MPI_INT, right, d, 1, MPI_INT, MPI_SUM, 3, w->win));
    OK(MPI_Win_flush(right, w->win));
    take_exact(w, 1, 5);
    take_exact(w, 2, 4);
    take_by_request(w);
    OK(MPIX_Win_notify_reset(w->win, 4, &none));
    CHECK(0 == none);
    /* No rank's next round reaches a slot before its owner emptied it. */
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* 3 notifications into slot 0, taken with nobody counting. */
static void uncounted(nwin_t *w)
{
    int one = 1;

    for (int i = 0; i < 3; ++i) {
        OK(MPIX_Put_notify(&one, 1, MPI_INT, right, nwin_disp(w, right, 0), 1, MPI_INT, 0,
                           w->win));
    }
    OK(MPI_Win_flush(right, w->win));
    take_exact(w, 0, 3);
    OK(MPI_Barrier(MPI_COMM_WORLD));
}

/* Over the ranks, what was issued while h_issued existed was consumed
 * while h_consumed did. */
static void check_balance(MPI_T_pvar_handle h_issued, MPI_T_pvar_handle h_consumed)
{
    unsigned long long mine[2] = {readh(h_issued), readh(h_consumed)}, all[2];

    MPI_Allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (all[0] != all[1]) {
        notify_fail("issued %llu and consumed %llu over the ranks", all[0], all[1]);
    }
}

static void one_window(int f)
{
    MPI_T_pvar_handle h1, h2, h3, hi;
    nwin_t w;

    nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
    OK(MPI_Win_lock_all(0, w.win));
    uncounted(&w);
    h1 = ompix_mpit_pvar_counter(session, "mpi_notify_consumed");
    hi = ompix_mpit_pvar_counter(session, "mpi_notify_issued");
    CHECK(MPI_T_PVAR_HANDLE_NULL != h1 && MPI_T_PVAR_HANDLE_NULL != hi);
    CHECK(0 == readh(h1));
    round_of(&w);
    CHECK(ompix_mpit_pvar_expect(session, h1, "mpi_notify_consumed", ROUND_CONSUMED));
    h2 = ompix_mpit_pvar_counter(session, "mpi_notify_consumed");
    round_of(&w);
    CHECK(ompix_mpit_pvar_expect(session, h1, "mpi_notify_consumed", 2 * ROUND_CONSUMED));
    CHECK(ompix_mpit_pvar_expect(session, h2, "mpi_notify_consumed", ROUND_CONSUMED));
    check_balance(hi, h1);
    OK(MPI_T_pvar_handle_free(session, &h1));
    OK(MPI_T_pvar_handle_free(session, &h2));
    OK(MPI_T_pvar_handle_free(session, &hi));
    uncounted(&w);
    h3 = ompix_mpit_pvar_counter(session, "mpi_notify_consumed");
    CHECK(0 == readh(h3));
    round_of(&w);
    CHECK(ompix_mpit_pvar_expect(session, h3, "mpi_notify_consumed", ROUND_CONSUMED));
    OK(MPI_T_pvar_handle_free(session, &h3));
    OK(MPI_Win_unlock_all(w.win));
    nwin_close(&w);
}

int main(int argc, char **argv)
{
    return notify_mpit_main(&argc, &argv, &session, NULL, one_window, "notify_consumed");
}
