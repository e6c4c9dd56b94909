/*
 * ompix-test: np=2,3 tls=shm,tcp,net pml=ob1 timeout=120 paths="slots:ucx acc:am" mca="osc rdma2,sm osc_rdma2_progress_thread always"
 *
 * MPIX_Put_notify of sizes around the limit of the one-message path
 * (over TCP, a put of up to 8 KiB of contiguous target memory travels
 * with its notification in one active message; larger ones and the rest
 * are a put and a notification behind it), on allocate, create and dynamic
 * windows, every rank origin toward every other rank, under lock_all:
 *
 *   landed   put_notify of each size, MPI_Win_flush_all, barrier: each
 *            target then finds, before taking anything, every slot at
 *            exactly 1 and every block holding the data (flush completes
 *            the notified operation at the target, notification included)
 *   ordered  rounds of put_notify of each size into the same blocks, new
 *            data per round, no flush: the target takes each notification
 *            and checks that block at that moment (the notification never
 *            comes before its data), count exactly 1, nothing left after
 *
 *   passive  rank 0 computes outside MPI (a loop on volatile memory) while
 *            each other rank does put_notify of 8 bytes, MPI_Win_flush,
 *            then MPI_Put + flush of a done byte; when rank 0 sees every
 *            done byte it must find the 8 bytes in place without an MPI
 *            call: the flush completed the notified put at the target,
 *            whose progress thread served it (over TCP the done byte goes
 *            by CMA, needing no target progress, so a flush that did not
 *            wait for the notified put lets the done byte overtake it)
 *
 *   mixed    one slot counted by both sides: each rank read_notifies 8 bytes
 *            from its right neighbour K times into its slot S while its left
 *            neighbour put_notifies K times into the same slot S (osc/rdma2
 *            counts a process's own completed reads apart from the adds of
 *            others); after flush and barrier get value is 2K, waitsome
 *            finds S, reset takes 2K, then the slot is 0 and a notification
 *            request on it stays pending (MPI_Test); one more of each: the
 *            request and a reset take 2 together
 *   accorder every other rank does MPIX_Accumulate_notify (MPI_SUM of 1 into
 *            one int64 of rank 0, its own slot) K times, no flush; rank 0
 *            takes the counts with get value + reset only (no call that
 *            progresses: its progress thread serves TCP) and at each take
 *            the word must be at least the total taken (over TCP the add
 *            is queued behind the accumulates at the target)
 *
 * The data's first and last bytes differ per round, so a notification
 * seen before a block's last piece landed shows.
 */
#include "notify_common.h"

#define NSIZE 6
static const MPI_Aint sizes[NSIZE] = {1, 8, 1000, 8192, 8193, 40000};
#define BLOCK 40960                 /* per origin and size: >= every size */
#define ROUNDS 4
#define SLOT(origin, k) (16 + (origin) * NSIZE + (k))

static unsigned char val(int origin, int target, int k, int round, MPI_Aint j)
{
    return (unsigned char) ((origin * 29 + target * 13 + k * 7 + round * 101 + j * 3) % 251 + 1);
}

static MPI_Aint block_off(int origin, int k)
{
    return ((MPI_Aint) origin * NSIZE + k) * BLOCK;
}

static unsigned char *src;

static void put_all(nwin_t *w, int round)
{
    for (int t = 0; t < size; ++t) {
        if (t == rank) {
            continue;
        }
        for (int k = 0; k < NSIZE; ++k) {
            unsigned char *s = src + ((size_t) t * NSIZE + k) * BLOCK;
            for (MPI_Aint j = 0; j < sizes[k]; ++j) {
                s[j] = val(rank, t, k, round, j);
            }
            OK(MPIX_Put_notify(s, (int) sizes[k], MPI_BYTE, t,
                               nwin_disp(w, t, block_off(rank, k)), (int) sizes[k], MPI_BYTE,
                               SLOT(rank, k), w->win));
        }
    }
}

/* 0 when block (origin, k) holds round's data. */
static int check_block(nwin_t *w, int origin, int k, int round)
{
    const unsigned char *b = w->base + block_off(origin, k);
    for (MPI_Aint j = 0; j < sizes[k]; ++j) {
        if (b[j] != val(origin, rank, k, round, j)) {
            notify_fail("%s: block of origin %d, %ld bytes, round %d: byte %ld is %d, not %d",
                        nf_name[w->flavor], origin, (long) sizes[k], round, (long) j, b[j],
                        val(origin, rank, k, round, j));
            return 1;
        }
    }
    return 0;
}

static void landed(nwin_t *w)
{
    OK(MPI_Win_lock_all(0, w->win));
    put_all(w, 0);
    OK(MPI_Win_flush_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_sync(w->win));
    for (int o = 0; o < size; ++o) {
        for (int k = 0; o != rank && k < NSIZE; ++k) {
            MPI_Count v = -1;
            OK(MPIX_Win_get_notify_value(w->win, SLOT(o, k), &v));
            if (1 != v) {
                notify_fail("%s: after the origin's flush, slot of origin %d, %ld bytes holds "
                            "%lld, not 1", nf_name[w->flavor], o, (long) sizes[k], (long long) v);
            }
            check_block(w, o, k, 0);
            OK(MPIX_Win_notify_reset(w->win, SLOT(o, k), &v));
        }
    }
    notify_check_empty(w->win, 0, SLOT(size, 0), "landed");
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void ordered(nwin_t *w)
{
    OK(MPI_Win_lock_all(0, w->win));
    for (int round = 1; round <= ROUNDS; ++round) {
        int want = (size - 1) * NSIZE;
        put_all(w, round);
        while (want > 0) {
            int id;
            MPI_Count c;
            if (!notify_take(w->win, SLOT(0, 0), SLOT(size, 0) - SLOT(0, 0), &id, &c)) {
                notify_fail("%s: round %d: %d notifications missing", nf_name[w->flavor],
                            round, want);
                break;
            }
            if (1 != c) {
                notify_fail("%s: round %d: slot %d took %lld, not 1", nf_name[w->flavor], round,
                            id, (long long) c);
            }
            OK(MPI_Win_sync(w->win));
            check_block(w, (id - SLOT(0, 0)) / NSIZE, (id - SLOT(0, 0)) % NSIZE, round);
            want -= (int) c;
        }
        /* The next round rewrites the origin buffers and the blocks. */
        OK(MPI_Win_flush_all(w->win));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    notify_check_empty(w->win, 0, SLOT(size, 0), "ordered");
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

#define DONE_OFF(o) (BLOCK / 2 + (o))    /* in block (0, 0) of rank 0: unused there */

static void passive(nwin_t *w)
{
    OK(MPI_Win_lock_all(0, w->win));
    memset(w->base + BLOCK / 2, 0, (size_t) size);
    OK(MPI_Win_sync(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        volatile unsigned char *done = w->base + DONE_OFF(0);
        double end = notify_now() + NOTIFY_DEADLINE;
        int all = 0;
        while (!all && notify_now() < end) {
            all = 1;
            for (int o = 1; o < size; ++o) {
                all &= 1 == done[o];
            }
        }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (!all) {
            notify_fail("%s: passive: done bytes not all set", nf_name[w->flavor]);
        }
        for (int o = 1; o < size; ++o) {
            check_block(w, o, 1, 9);
        }
    } else {
        static unsigned char one = 1;
        unsigned char *s = src;
        for (MPI_Aint j = 0; j < sizes[1]; ++j) {
            s[j] = val(rank, 0, 1, 9, j);
        }
        OK(MPIX_Put_notify(s, (int) sizes[1], MPI_BYTE, 0, nwin_disp(w, 0, block_off(rank, 1)),
                           (int) sizes[1], MPI_BYTE, SLOT(rank, 1), w->win));
        OK(MPI_Win_flush(0, w->win));
        OK(MPI_Put(&one, 1, MPI_BYTE, 0, nwin_disp(w, 0, DONE_OFF(rank)), 1, MPI_BYTE, w->win));
        OK(MPI_Win_flush(0, w->win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        for (int o = 1; o < size; ++o) {
            int id;
            MPI_Count c;
            if (!notify_take(w->win, SLOT(o, 1), 1, &id, &c) || 1 != c) {
                notify_fail("%s: passive: origin %d's notification missing or not 1",
                            nf_name[w->flavor], o);
            }
        }
    }
    notify_check_empty(w->win, 0, SLOT(size, 0), "passive");
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

#define MIXED_SLOT 7
#define MIXED_K 5

static void mixed(nwin_t *w)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, id = -7, flag = 1;
    unsigned char buf[8];
    MPI_Count v = -1;
    MPI_Request req;

    OK(MPI_Win_lock_all(0, w->win));
    for (int k = 0; k < MIXED_K; ++k) {
        OK(MPIX_Win_read_notify(buf, 8, MPI_BYTE, right, nwin_disp(w, right, 0), 8, MPI_BYTE,
                                MIXED_SLOT, w->win));
        OK(MPIX_Put_notify(buf, 8, MPI_BYTE, left, nwin_disp(w, left, BLOCK), 8, MPI_BYTE,
                           MIXED_SLOT, w->win));
        OK(MPI_Win_flush_all(w->win));     /* buf is read again next turn */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPIX_Win_get_notify_value(w->win, MIXED_SLOT, &v));
    if (2 * MIXED_K != v) {
        notify_fail("%s: mixed: get value %lld, not %d", nf_name[w->flavor], (long long) v,
                    2 * MIXED_K);
    }
    OK(MPIX_Win_notify_waitsome(w->win, 0, MIXED_SLOT + 1, 0, &id));
    if (MIXED_SLOT != id) {
        notify_fail("%s: mixed: waitsome found %d, not %d", nf_name[w->flavor], id, MIXED_SLOT);
    }
    OK(MPIX_Win_notify_reset(w->win, MIXED_SLOT, &v));
    if (2 * MIXED_K != v) {
        notify_fail("%s: mixed: reset took %lld, not %d", nf_name[w->flavor], (long long) v,
                    2 * MIXED_K);
    }
    OK(MPIX_Win_get_notify_value(w->win, MIXED_SLOT, &v));
    OK(MPIX_Win_notify_init(w->win, MIXED_SLOT, &req));
    OK(MPI_Start(&req));
    OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    if (0 != v || flag) {
        notify_fail("%s: mixed: after reset the slot holds %lld%s", nf_name[w->flavor],
                    (long long) v, flag ? " and a request completed on it" : "");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* one more of each, taken by the request */
    OK(MPIX_Win_read_notify(buf, 8, MPI_BYTE, right, nwin_disp(w, right, 0), 8, MPI_BYTE,
                            MIXED_SLOT, w->win));
    OK(MPIX_Put_notify(buf, 8, MPI_BYTE, left, nwin_disp(w, left, BLOCK), 8, MPI_BYTE,
                       MIXED_SLOT, w->win));
    OK(MPI_Win_flush_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    {
        MPI_Status st;
        MPI_Count got = -1;
        OK(MPI_Wait(&req, &st));
        /* It completes at the first count it sees: the rest stays */
        OK(MPI_Get_elements_x(&st, MPI_COUNT, &got));
        OK(MPIX_Win_notify_reset(w->win, MIXED_SLOT, &v));
        if (got < 1 || 2 != got + v) {
            notify_fail("%s: mixed: the request took %lld and reset %lld, not 2 together",
                        nf_name[w->flavor], (long long) got, (long long) v);
        }
    }
    OK(MPI_Request_free(&req));
    notify_check_empty(w->win, 0, SLOT(size, 0), "mixed");
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

#define ACC_K 1000
#define ACC_SLOT(o) (SLOT(size, 0) + (o))

static void accorder(nwin_t *w)
{
    int64_t one = 1;
    OK(MPI_Win_lock_all(0, w->win));
    if (0 == rank) {
        volatile int64_t *word = (volatile int64_t *) (w->base + BLOCK);
        *word = 0;
        OK(MPI_Win_sync(w->win));
        MPI_Barrier(MPI_COMM_WORLD);
        long taken = 0, want = (long) ACC_K * (size - 1);
        double end = notify_now() + NOTIFY_DEADLINE;
        while (taken < want && notify_now() < end) {
            for (int o = 1; o < size; ++o) {
                MPI_Count v = 0;
                OK(MPIX_Win_get_notify_value(w->win, ACC_SLOT(o), &v));
                if (0 == v) {
                    continue;
                }
                OK(MPIX_Win_notify_reset(w->win, ACC_SLOT(o), &v));
                taken += (long) v;
                __atomic_thread_fence(__ATOMIC_ACQUIRE);
                if (*word < taken) {
                    notify_fail("%s: accorder: %ld notifications taken, the word is %lld",
                                nf_name[w->flavor], taken, (long long) *word);
                    taken = want;
                }
            }
        }
        if (taken != want) {
            notify_fail("%s: accorder: %ld of %ld notifications", nf_name[w->flavor], taken,
                        want);
        }
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int k = 0; k < ACC_K; ++k) {
            OK(MPIX_Accumulate_notify(&one, 1, MPI_INT64_T, 0, nwin_disp(w, 0, BLOCK), 1,
                                      MPI_INT64_T, MPI_SUM, ACC_SLOT(rank), w->win));
        }
    }
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    notify_check_empty(w->win, 0, ACC_SLOT(size), "accorder");
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    src = malloc((size_t) size * NSIZE * BLOCK);
    for (int f = 0; f < NF_COUNT; ++f) {
        nwin_t w;
        nwin_open(&w, f, (MPI_Aint) size * NSIZE * BLOCK, MPI_COMM_WORLD);
        /* defined for valgrind, which does not see CMA writes; before anyone puts */
        memset(w.base, 0, (size_t) w.bytes);
        MPI_Barrier(MPI_COMM_WORLD);
        landed(&w);
        ordered(&w);
        passive(&w);
        mixed(&w);
        accorder(&w);
        nwin_close(&w);
    }
    free(src);
    return ompix_test_finish("notify_put_am");
}
