/*
 * ompix-test: np=2,3,4 tls=shm,tcp,net pml=ob1,ucx timeout=120 paths="win:ucx" mca="osc rdma2,sm"
 *
 * MPIX_Win_read_notify (origin-notified read, GASPI's read_notify) on
 * allocate, create and dynamic windows: every rank reads from every rank
 * (itself included where the epoch allows) and checks each origin buffer,
 * gaps and bytes past the data included, at the moment its notification
 * is taken, against the target's byte pattern:
 *
 *   lock_all  32 reads in flight on 32 slots, each taken with
 *             waitsome + reset (count exactly 1) and re-issued into the
 *             freed slot with another target, offset and layout, 384 in
 *             all, with no flush or unlock before the notifications
 *   lock      per target, alternating exclusive and shared: 8 reads,
 *             all taken inside the epoch
 *   fence     4 reads per target, taken after the closing fence
 *   PSCW      4 reads per target of the access group, taken after
 *             MPI_Win_complete
 *
 * Layouts cycle through contiguous ints, a vector target type, a vector
 * origin type, a resized struct {int; double} (extent 24, gaps checked)
 * and count 0 (the notification fires, the buffer stays untouched).
 * notify_read_gen.c runs the same on the generic path (osc sm, pt2pt).
 */
#include "notify_common.h"

#define WIN_BYTES 65536
#define BUFSZ 512
#define INFLIGHT 32
#define SLOT0 100               /* not slot 0: ids are not assumed to start there */
#define PIPE_READS 384
#define LOCK_READS 8
#define ACTIVE_READS 4
#define MAXSEG 8

typedef struct {
    MPI_Aint off, len;
} seg_t;

typedef struct {
    const char *name;
    MPI_Datatype otype, ttype;
    int ocount, tcount;
    int no, nt;
    seg_t o[MAXSEG], t[MAXSEG];
    MPI_Aint tspan;              /* bytes of the target window the read covers */
} layout_t;

enum { NLAYOUT = 5 };
static layout_t layouts[NLAYOUT];
static MPI_Datatype vec_t, struct_t;

static void make_layouts(void)
{
    MPI_Datatype raw;
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};

    MPI_Type_vector(4, 2, 3, MPI_INT, &vec_t);       /* 4 x 8 bytes, stride 12 */
    MPI_Type_commit(&vec_t);
    MPI_Type_create_struct(2, bl, disp, types, &raw);
    MPI_Type_create_resized(raw, 0, 24, &struct_t);  /* int @0, double @8, extent 24 */
    MPI_Type_free(&raw);
    MPI_Type_commit(&struct_t);

    layouts[0] = (layout_t) {"contiguous", MPI_INT, MPI_INT, 64, 64, 1, 1,
                             {{0, 256}}, {{0, 256}}, 256};
    layouts[1] = (layout_t) {"vector target", MPI_INT, vec_t, 8, 1, 1, 4,
                             {{0, 32}}, {{0, 8}, {12, 8}, {24, 8}, {36, 8}}, 44};
    layouts[2] = (layout_t) {"vector origin", vec_t, MPI_INT, 1, 8, 4, 1,
                             {{0, 8}, {12, 8}, {24, 8}, {36, 8}}, {{0, 32}}, 32};
    layouts[3] = (layout_t) {"resized struct", struct_t, struct_t, 3, 3, 6, 6,
                             {{0, 4}, {8, 8}, {24, 4}, {32, 8}, {48, 4}, {56, 8}},
                             {{0, 4}, {8, 8}, {24, 4}, {32, 8}, {48, 4}, {56, 8}}, 64};
    layouts[4] = (layout_t) {"zero size", MPI_INT, MPI_INT, 0, 0, 0, 0, {{0, 0}}, {{0, 0}}, 0};
}

/* One read in flight: what its origin buffer must hold once notified. */
typedef struct {
    int target, layout, busy;
    MPI_Aint toff;
} rec_t;

static unsigned char bufs[INFLIGHT][BUFSZ];
static rec_t recs[INFLIGHT];
static const char *mode_name;
static int cur_flavor;

static void issue(nwin_t *w, int slot, int target, int layout, MPI_Aint toff)
{
    const layout_t *l = &layouts[layout];
    rec_t *r = &recs[slot];
    memset(bufs[slot], 0xEE, BUFSZ);
    r->target = target;
    r->layout = layout;
    r->toff = toff;
    r->busy = 1;
    int rc = MPIX_Win_read_notify(bufs[slot], l->ocount, l->otype, target,
                                  nwin_disp(w, target, toff), l->tcount, l->ttype, SLOT0 + slot,
                                  w->win);
    if (MPI_SUCCESS != rc) {
        notify_fail("%s %s %s: read_notify (target %d, %s) failed with class %d", PATH_NAME,
                    mode_name, nf_name[cur_flavor], target, l->name, err_class(rc));
        r->busy = 0;
    }
}

/* The origin buffer of slot `slot` against the type maps. */
static void check_read(int slot, MPI_Count count)
{
    const rec_t *r = &recs[slot];
    const layout_t *l = &layouts[r->layout];
    unsigned char expect[BUFSZ];
    int ti = 0;
    MPI_Aint tpos = 0;

    if (1 != count) {
        notify_fail("%s %s %s: slot %d (target %d, %s) took count %lld, expected 1", PATH_NAME,
                    mode_name, nf_name[cur_flavor], SLOT0 + slot, r->target, l->name,
                    (long long) count);
    }
    memset(expect, 0xEE, BUFSZ);
    for (int oi = 0; oi < l->no; ++oi) {
        for (MPI_Aint k = 0; k < l->o[oi].len; ++k) {
            expect[l->o[oi].off + k] = pat(r->target, r->toff + l->t[ti].off + tpos);
            if (++tpos == l->t[ti].len) {
                ++ti;
                tpos = 0;
            }
        }
    }
    for (int i = 0; i < BUFSZ; ++i) {
        if (expect[i] != bufs[slot][i]) {
            notify_fail("%s %s %s: slot %d (target %d, offset %ld, %s): byte %d is 0x%02x, "
                        "expected 0x%02x, when the notification was seen", PATH_NAME, mode_name,
                        nf_name[cur_flavor], SLOT0 + slot, r->target, (long) r->toff, l->name, i,
                        bufs[slot][i], expect[i]);
            break;
        }
    }
}

/* Takes `n` notifications of slots [SLOT0, SLOT0+INFLIGHT), checks each;
 * with `reissue`, re-issues into the freed slot until `*left` is 0. */
static void take_and_check(nwin_t *w, int n, int *left, unsigned *seq)
{
    for (int done = 0; done < n; ++done) {
        int id;
        MPI_Count c;
        if (!notify_take(w->win, SLOT0, INFLIGHT, &id, &c)) {
            notify_fail("%s %s %s: %d of %d notifications never came", PATH_NAME, mode_name,
                        nf_name[cur_flavor], n - done, n);
            return;
        }
        int slot = id - SLOT0;
        if (!recs[slot].busy) {
            notify_fail("%s %s %s: slot %d notified with no read outstanding (count %lld)",
                        PATH_NAME, mode_name, nf_name[cur_flavor], id, (long long) c);
            continue;
        }
        recs[slot].busy = 0;
        check_read(slot, c);
        if (left && *left > 0) {
            --*left;
            ++*seq;
            int target = (int) (*seq * 7 + rank) % size;
            issue(w, slot, target, *seq % NLAYOUT, (*seq * 389) % (WIN_BYTES - BUFSZ));
            ++n;
        }
    }
}

static void mode_lock_all(nwin_t *w)
{
    unsigned seq = (unsigned) rank * 1000;
    int left = PIPE_READS - INFLIGHT;
    mode_name = "lock_all pipeline";
    OK(MPI_Win_lock_all(0, w->win));
    for (int s = 0; s < INFLIGHT; ++s, ++seq) {
        issue(w, s, (int) (seq + s) % size, seq % NLAYOUT, (seq * 389) % (WIN_BYTES - BUFSZ));
    }
    take_and_check(w, INFLIGHT, &left, &seq);
    notify_check_empty(w->win, SLOT0, INFLIGHT, "lock_all pipeline");
    OK(MPI_Win_unlock_all(w->win));
}

static void mode_lock(nwin_t *w)
{
    mode_name = "lock";
    for (int k = 0; k < size; ++k) {
        int t = (rank + k) % size;
        OK(MPI_Win_lock(k % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        for (int s = 0; s < LOCK_READS; ++s) {
            issue(w, s, t, (s + k) % NLAYOUT, 1000 + s * 613 + k * 17);
        }
        take_and_check(w, LOCK_READS, NULL, NULL);
        OK(MPI_Win_unlock(t, w->win));
    }
}

/* Fence (self included) or PSCW (the others): reads issued in the epoch,
 * taken after it closed. */
static void mode_active(nwin_t *w, int pscw)
{
    MPI_Group others = notify_others_group();
    int n = 0;
    mode_name = pscw ? "PSCW" : "fence";
    if (pscw) {
        OK(MPI_Win_post(others, 0, w->win));
        OK(MPI_Win_start(others, 0, w->win));
    } else {
        OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
    }
    for (int t = 0; t < size; ++t) {
        if (pscw && t == rank) {
            continue;
        }
        for (int k = 0; k < ACTIVE_READS; ++k, ++n) {
            issue(w, n, t, (n + pscw) % NLAYOUT, 3000 + n * 211 + rank * 5);
        }
    }
    if (pscw) {
        OK(MPI_Win_complete(w->win));
        OK(MPI_Win_wait(w->win));
    } else {
        OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
    }
    take_and_check(w, n, NULL, NULL);
    notify_check_empty(w->win, SLOT0, INFLIGHT, mode_name);
    MPI_Group_free(&others);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    make_layouts();
    for (int f = 0; f < NF_COUNT; ++f) {
        nwin_t w;
        cur_flavor = f;
        nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
        nwin_fill(&w);
        mode_lock_all(&w);
        MPI_Barrier(MPI_COMM_WORLD);
        mode_lock(&w);
        MPI_Barrier(MPI_COMM_WORLD);
        mode_active(&w, 0);
        MPI_Barrier(MPI_COMM_WORLD);
        mode_active(&w, 1);
        MPI_Barrier(MPI_COMM_WORLD);
        nwin_close(&w);
    }
    MPI_Type_free(&vec_t);
    MPI_Type_free(&struct_t);
    return ompix_test_finish("notify_read");
}
