/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=90 mca="osc rdma2,sm"
 *
 * Which slot MPIX_Win_notify_waitsome finds, whatever slot the previous
 * call found (it may start its scan anywhere; it must still see the whole
 * range and nothing outside it).  Every rank sets its own slots with
 * read_notify of one byte from its right neighbour (checked), waits until
 * the slot holds the count (flush, then get_notify_value with progress
 * calls: waitsome on a slot nobody sets), then, with timeout 0:
 *
 *   below     slot 5 found and taken, then slot 2 alone is set: found
 *   range     slots 1 and 6 set: [3, 7) finds 6, [0, 3) finds 1, [7, 8)
 *             finds nothing (neither from inside nor outside the range
 *             of the last hit)
 *   all       the 8 slots set: 8 calls find each exactly once (count 1),
 *             then nothing; with a 10 ms timeout nothing either
 *
 * on allocate, create and dynamic windows; notify_scan_gen.c runs the same
 * on the generic path.
 */
#include "notify_common.h"

#define WIN_BYTES 4096
#define SLOT0 40                /* the 8 slots [SLOT0, SLOT0 + 8) */
#define NSLOT 8

static unsigned char got[NSLOT];

/* Slot SLOT0 + k set by a one-byte read from the right neighbour. */
static void set_slot(const nwin_t *w, int k)
{
    int target = (rank + 1) % size;
    MPI_Count v = 0;
    double end = notify_now() + NOTIFY_DEADLINE;

    got[k] = 0;
    OK(MPIX_Win_read_notify(&got[k], 1, MPI_BYTE, target, nwin_disp(w, target, 7 * k), 1,
                            MPI_BYTE, SLOT0 + k, w->win));
    OK(MPI_Win_flush(target, w->win));
    while (v < 1 && notify_now() < end) {
        int none = -7;
        /* a progress call (the generic path notifies through progress) on
         * a slot nobody sets */
        OK(MPIX_Win_notify_waitsome(w->win, SLOT0 + NSLOT, 1, 0, &none));
        CHECK(MPIX_NOTIFY_NONE == none);
        OK(MPIX_Win_get_notify_value(w->win, SLOT0 + k, &v));
    }
    if (1 != v) {
        notify_fail("slot %d holds %lld after its read", SLOT0 + k, (long long) v);
    }
    if (got[k] != pat(target, 7 * k)) {
        notify_fail("read into slot %d: byte %d, expected %d", SLOT0 + k, got[k],
                    pat(target, 7 * k));
    }
}

/* waitsome over slots [SLOT0 + first, + num) with timeout 0 finds `want`
 * (a slot offset, or -1 for none). */
static void expect(const nwin_t *w, int first, int num, int want, const char *what)
{
    int id = -7;

    OK(MPIX_Win_notify_waitsome(w->win, SLOT0 + first, num, 0, &id));
    if ((want < 0 && MPIX_NOTIFY_NONE != id) || (want >= 0 && SLOT0 + want != id)) {
        notify_fail("%s %s: waitsome [%d, %d) returned %d, expected %d", nf_name[w->flavor],
                    what, SLOT0 + first, SLOT0 + first + num, id,
                    want < 0 ? MPIX_NOTIFY_NONE : SLOT0 + want);
    }
}

static void take(const nwin_t *w, int k)
{
    MPI_Count c = -1;

    OK(MPIX_Win_notify_reset(w->win, SLOT0 + k, &c));
    CHECK(1 == c);
}

static void all_once(const nwin_t *w)
{
    int seen[NSLOT] = {0};

    for (int k = 0; k < NSLOT; ++k) {
        set_slot(w, k);
    }
    for (int i = 0; i < NSLOT; ++i) {
        int id = -7;
        OK(MPIX_Win_notify_waitsome(w->win, SLOT0, NSLOT, 0, &id));
        if (id < SLOT0 || id >= SLOT0 + NSLOT) {
            notify_fail("%s all: call %d returned %d", nf_name[w->flavor], i, id);
            return;
        }
        seen[id - SLOT0]++;
        take(w, id - SLOT0);
    }
    for (int k = 0; k < NSLOT; ++k) {
        if (1 != seen[k]) {
            notify_fail("%s all: slot %d found %d times", nf_name[w->flavor], SLOT0 + k,
                        seen[k]);
        }
    }
    expect(w, 0, NSLOT, -1, "all, then");
    {
        int id = -7;
        OK(MPIX_Win_notify_waitsome(w->win, SLOT0, NSLOT, 10, &id));
        CHECK(MPIX_NOTIFY_NONE == id);
    }
}

static void one_flavor(int flavor)
{
    nwin_t w;

    nwin_open(&w, flavor, WIN_BYTES, MPI_COMM_WORLD);
    nwin_fill(&w);
    OK(MPI_Win_lock_all(0, w.win));

    set_slot(&w, 5);
    expect(&w, 0, NSLOT, 5, "below, first");
    take(&w, 5);
    set_slot(&w, 2);
    expect(&w, 0, NSLOT, 2, "below");
    take(&w, 2);

    set_slot(&w, 1);
    set_slot(&w, 6);
    expect(&w, 3, 4, 6, "range [3, 7)");
    expect(&w, 0, 3, 1, "range [0, 3)");
    expect(&w, 7, 1, -1, "range [7, 8)");
    expect(&w, 3, 4, 6, "range [3, 7) again");
    expect(&w, 7, 1, -1, "range [7, 8) again");
    take(&w, 1);
    take(&w, 6);

    all_once(&w);
    notify_check_empty(w.win, SLOT0, NSLOT, "scan");
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    nwin_close(&w);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    for (int f = 0; f < NF_COUNT; ++f) {
        one_flavor(f);
    }
    return ompix_test_finish(NOTIFY_GENERIC ? "notify_scan_gen" : "notify_scan");
}
