/*
 * ompix-test: np=2,3 tls=shm pml=ob1 timeout=120 mca="osc rdma2,sm osc_rdma2_progress_thread never"
 *
 * Truly passive notifications: rank 0 computes outside MPI (a busy loop on
 * volatile data, no MPI call at all) while every other rank, on an
 * allocate and then a create window at rank 0:
 *
 *   1. polls rank 0's "computing" word with MPI_Get + MPI_Win_flush until
 *      rank 0 has set it (so what follows happens while rank 0 computes,
 *      whatever the scheduling: no timing is assumed),
 *   2. reads 256 bytes with MPIX_Win_read_notify and takes the
 *      notification (waitsome + reset): the data must be rank 0's,
 *   3. writes 64 bytes with MPIX_Put_notify, flushes, then puts its "done"
 *      word and flushes.
 *
 * Rank 0 computes until every origin's done word is set (each origin's
 * put_notify has completed, notification included, before its done word
 * is written), then, with its first MPI call, must find every origin's
 * put_notify slot already at 1 (get value, no waiting) and the data in
 * place.  If anything needs rank 0 to call MPI, nothing completes while it
 * computes: after 20 s it gives up and the test fails (the only time
 * bound, a hang guard, not a performance assertion).
 *
 * On shared memory (this file) osc/rdma2 must manage without its progress
 * thread (osc_rdma2_progress_thread never): same-node data moves by
 * mapped memory or CMA and slots are incremented with CPU atomics.  Over
 * TCP (notify_passive_tcp.c) UCX's atomics and active messages need the
 * target's worker to run, which rdma2's progress thread does
 * (osc_rdma2_progress_thread always), as for test/rdma2/rma_passive.c.
 *
 * There is no generic-path variant: the generic path is built from
 * standard one-sided calls of whatever osc component serves the window
 * (sm, pt2pt, rdma, ucx), and MPI promises no progress for a target that
 * makes no MPI call; osc pt2pt, for one, moves data only inside the
 * target's MPI calls, so a target computing outside MPI legitimately
 * stalls it.
 */
#include "notify_common.h"

#define WIN_BYTES 4096
#define COMPUTING_OFF 0
#define DONE_OFF 64                   /* + origin * 8 */
#define DATA_OFF 1024                 /* 256 bytes read by every origin */
#define PUT_OFF 2048                  /* + origin * 64 */
#define READ_SLOT 5
#define PUT_SLOT0 10                  /* + origin */
#define GIVE_UP 20.0

static volatile double sink;

static int64_t load64(const nwin_t *w, MPI_Aint off)
{
    return __atomic_load_n((int64_t *) (w->base + off), __ATOMIC_ACQUIRE);
}

/* Rank 0: no MPI call between setting "computing" and every done word. */
static int compute_until_done(nwin_t *w)
{
    double end = notify_now() + GIVE_UP, x = 1.0;
    int done = 0;
    __atomic_store_n((int64_t *) (w->base + COMPUTING_OFF), 1, __ATOMIC_RELEASE);
    while (!done && notify_now() < end) {
        for (int i = 0; i < 10000; ++i) {
            x = x * 1.0000001 + 1e-9;
        }
        done = 1;
        for (int r = 1; r < size; ++r) {
            done &= 1 == load64(w, DONE_OFF + 8 * r);
        }
    }
    sink = x;
    return done;
}

static void target(nwin_t *w, int f)
{
    if (!compute_until_done(w)) {
        notify_fail("%s %s: rank 0 computed %.0f s outside MPI and the origins' operations did "
                    "not complete meanwhile (they need the target to call MPI)", PATH_NAME,
                    nf_name[f], GIVE_UP);
        return;
    }
    for (int r = 1; r < size; ++r) {
        MPI_Count v = -1, old = -1;
        OK(MPIX_Win_get_notify_value(w->win, PUT_SLOT0 + r, &v));
        if (1 != v) {
            notify_fail("%s %s: origin %d's put_notify completed while rank 0 computed but its "
                        "slot holds %lld at rank 0's first MPI call", PATH_NAME, nf_name[f], r,
                        (long long) v);
        }
        OK(MPIX_Win_notify_reset(w->win, PUT_SLOT0 + r, &old));
        for (int j = 0; j < 64; ++j) {
            if (w->base[PUT_OFF + 64 * r + j] != (unsigned char) (r * 29 + j + 1)) {
                notify_fail("%s %s: put_notify data of origin %d wrong at byte %d", PATH_NAME,
                            nf_name[f], r, j);
                break;
            }
        }
    }
}

static void origin(nwin_t *w, int f)
{
    int64_t computing = 0, one = 1;
    unsigned char rbuf[256], pbuf[64];
    double end = notify_now() + GIVE_UP;
    int id;
    MPI_Count c;

    OK(MPI_Win_lock_all(0, w->win));
    while (1 != computing && notify_now() < end) {
        OK(MPI_Get(&computing, 1, MPI_INT64_T, 0, nwin_disp(w, 0, COMPUTING_OFF), 1, MPI_INT64_T,
                   w->win));
        OK(MPI_Win_flush(0, w->win));
    }
    if (1 != computing) {
        notify_fail("%s %s: MPI_Get + flush of rank 0's computing word did not complete while "
                    "rank 0 computed", PATH_NAME, nf_name[f]);
    }

    memset(rbuf, 0, sizeof rbuf);
    OK(MPIX_Win_read_notify(rbuf, 256, MPI_BYTE, 0, nwin_disp(w, 0, DATA_OFF), 256, MPI_BYTE,
                            READ_SLOT, w->win));
    if (!notify_take(w->win, READ_SLOT, 1, &id, &c)) {
        notify_fail("%s %s: read_notify from a target computing outside MPI never notified",
                    PATH_NAME, nf_name[f]);
    } else {
        CHECK(1 == c);
        for (int j = 0; j < 256; ++j) {
            if (rbuf[j] != pat(0, DATA_OFF + j)) {
                notify_fail("%s %s: read_notify data wrong at byte %d when notified", PATH_NAME,
                            nf_name[f], j);
                break;
            }
        }
    }

    for (int j = 0; j < 64; ++j) {
        pbuf[j] = (unsigned char) (rank * 29 + j + 1);
    }
    OK(MPIX_Put_notify(pbuf, 64, MPI_BYTE, 0, nwin_disp(w, 0, PUT_OFF + 64 * rank), 64, MPI_BYTE,
                       PUT_SLOT0 + rank, w->win));
    OK(MPI_Win_flush(0, w->win));
    OK(MPI_Put(&one, 1, MPI_INT64_T, 0, nwin_disp(w, 0, DONE_OFF + 8 * rank), 1, MPI_INT64_T,
               w->win));
    OK(MPI_Win_flush(0, w->win));
    OK(MPI_Win_unlock_all(w->win));
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    for (int f = NF_ALLOCATE; f <= NF_CREATE; ++f) {
        nwin_t w;
        nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win));
        for (int i = 0; i < WIN_BYTES; ++i) {
            w.base[i] = pat(rank, i);
        }
        memset(w.base, 0, DATA_OFF);              /* computing and done words */
        memset(w.base + PUT_OFF, 0, WIN_BYTES - PUT_OFF);
        OK(MPI_Win_unlock(rank, w.win));
        MPI_Barrier(MPI_COMM_WORLD);
        if (0 == rank) {
            target(&w, f);
        } else {
            origin(&w, f);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        notify_check_empty(w.win, 0, 64, "after the passive round");
        nwin_close(&w);
    }
    return ompix_test_finish("notify_passive");
}
