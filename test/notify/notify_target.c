/*
 * ompix-test: np=2,3,4 tls=shm,tcp,net pml=ob1,ucx timeout=120 paths="win:ucx slots:ucx acc:am" mca="osc rdma2,sm"
 *
 * Target-notified operations (MPIX_Put_notify, MPIX_Get_notify,
 * MPIX_Accumulate_notify with MPI_SUM and MPI_REPLACE) on allocate, create
 * and dynamic windows, under lock (exclusive and shared), lock_all, fence
 * and PSCW.  Every rank is origin toward every rank (itself included,
 * except in PSCW) and target; as target it consumes its own slots with
 * waitsome + reset, making no synchronization call with the origins, and
 * checks its window memory at the moment each notification is taken:
 *
 *   put       6 per origin, each to its own 64-byte block and slot
 *             (contiguous, vector target type, vector origin type): the
 *             block holds the origin's data, count exactly 1
 *   get       1 per origin, of its own 64-byte block, slot per origin:
 *             once notified the target overwrites the block (the data has
 *             been read), and the origin checks after its epoch that it
 *             got the original bytes
 *   SUM       4 adds of 1 per origin into one shared int64, slot per
 *             origin: the word is at least the number of adds taken
 *   REPLACE   values 1..5 in order per origin into its own int64, slot
 *             per origin: the word is at least the number taken (same
 *             origin accumulates are ordered), 5 at the end
 *
 * Exact totals per slot, and no slot left set once all are taken.  In the
 * generic variant (notify_target_gen.c, osc sm and pt2pt) every window
 * first gets MPIX_Win_set_num_notify (the generic path's documented
 * limitation for target-notified operations).
 */
#include "notify_common.h"

#define WIN_BYTES 16384
#define BLK 64
#define NPUT 6
#define NSUM 4
#define NREP 5
#define PUT_OFF 0                           /* [origin][NPUT][BLK] */
#define GET_OFF 4096                        /* [origin][BLK] */
#define SUM_OFF 8192                        /* one int64 */
#define REP_OFF (SUM_OFF + 64)              /* [origin] int64 */
#define PUT_SLOT0 10                        /* + origin * NPUT + k */
#define GET_SLOT0 200                       /* + origin */
#define SUM_SLOT0 300                       /* + origin */
#define REP_SLOT0 400                       /* + origin */
#define NSLOTS 512
#define MAXSEG 4

typedef struct {
    MPI_Aint off, len;
} seg_t;

typedef struct {
    MPI_Datatype otype, ttype;
    int ocount, tcount, no, nt;
    seg_t o[MAXSEG], t[MAXSEG];
} play_t;

static play_t plays[3];
static MPI_Datatype vec_t;
static const char *mode_name;
static int cur_flavor;

static void make_layouts(void)
{
    MPI_Type_vector(4, 2, 4, MPI_INT, &vec_t);   /* 4 x 8 bytes, stride 16 */
    MPI_Type_commit(&vec_t);
    plays[0] = (play_t) {MPI_BYTE, MPI_BYTE, BLK, BLK, 1, 1, {{0, BLK}}, {{0, BLK}}};
    plays[1] = (play_t) {MPI_INT, vec_t, 8, 1, 1, 4, {{0, 32}},
                         {{0, 8}, {16, 8}, {32, 8}, {48, 8}}};
    plays[2] = (play_t) {vec_t, MPI_INT, 1, 8, 4, 1, {{0, 8}, {16, 8}, {32, 8}, {48, 8}},
                         {{0, 32}}};
}

/* Origin r's source byte j of its k-th put to t; never 0 (blocks start 0). */
static unsigned char put_src(int r, int t, int k, int j)
{
    return (unsigned char) ((r * 37 + t * 11 + k * 5 + j * 3 + 7) % 255 + 1);
}

/* What target t's block (r, k) holds after the put. */
static void put_expect(int r, int t, int k, unsigned char *out)
{
    const play_t *p = &plays[k % 3];
    int oi = 0;
    MPI_Aint opos = 0;
    memset(out, 0, BLK);
    for (int ti = 0; ti < p->nt; ++ti) {
        for (MPI_Aint b = 0; b < p->t[ti].len; ++b) {
            out[p->t[ti].off + b] = put_src(r, t, k, (int) (p->o[oi].off + opos));
            if (++opos == p->o[oi].len) {
                ++oi;
                opos = 0;
            }
        }
    }
}

static void rc_check(int rc, const char *what, int t)
{
    if (MPI_SUCCESS != rc) {
        notify_fail("%s %s %s: %s to %d failed with class %d", PATH_NAME, mode_name,
                    nf_name[cur_flavor], what, t, err_class(rc));
    }
}

static unsigned char src[64][NPUT][BLK];   /* [target]: valid until the epoch ends */
static unsigned char *gbuf;                 /* [target][BLK] */
static int64_t rep_vals[NREP];
static const int64_t one = 1;

/* Every operation of this origin toward t, inside an access epoch. */
static void issue_to(nwin_t *w, int t)
{
    for (int k = 0; k < NPUT; ++k) {
        const play_t *p = &plays[k % 3];
        for (int j = 0; j < BLK; ++j) {
            src[t][k][j] = put_src(rank, t, k, j);
        }
        rc_check(MPIX_Put_notify(src[t][k], p->ocount, p->otype, t,
                                 nwin_disp(w, t, PUT_OFF + (rank * NPUT + k) * BLK), p->tcount,
                                 p->ttype, PUT_SLOT0 + rank * NPUT + k, w->win),
                 "put_notify", t);
    }
    memset(gbuf + t * BLK, 0, BLK);
    rc_check(MPIX_Get_notify(gbuf + t * BLK, BLK, MPI_BYTE, t,
                             nwin_disp(w, t, GET_OFF + rank * BLK), BLK, MPI_BYTE,
                             GET_SLOT0 + rank, w->win),
             "get_notify", t);
    for (int i = 0; i < NSUM; ++i) {
        rc_check(MPIX_Accumulate_notify(&one, 1, MPI_INT64_T, t, nwin_disp(w, t, SUM_OFF), 1,
                                        MPI_INT64_T, MPI_SUM, SUM_SLOT0 + rank, w->win),
                 "accumulate_notify SUM", t);
    }
    for (int i = 0; i < NREP; ++i) {
        rc_check(MPIX_Accumulate_notify(&rep_vals[i], 1, MPI_INT64_T, t,
                                        nwin_disp(w, t, REP_OFF + rank * 8), 1, MPI_INT64_T,
                                        MPI_REPLACE, REP_SLOT0 + rank, w->win),
                 "accumulate_notify REPLACE", t);
    }
}

/* The origin's gets, after its epoch: the original bytes, although each
 * target overwrites its block as soon as the get is notified. */
static void check_gets(int pscw)
{
    for (int t = 0; t < size; ++t) {
        if (pscw && t == rank) {
            continue;
        }
        for (int j = 0; j < BLK; ++j) {
            if (gbuf[t * BLK + j] != pat(t, GET_OFF + rank * BLK + j)) {
                notify_fail("%s %s %s: get_notify from %d: byte %d is 0x%02x, expected 0x%02x",
                            PATH_NAME, mode_name, nf_name[cur_flavor], t, j,
                            gbuf[t * BLK + j], pat(t, GET_OFF + rank * BLK + j));
                break;
            }
        }
    }
}

static int64_t load64(const nwin_t *w, MPI_Aint off)
{
    return __atomic_load_n((int64_t *) (w->base + off), __ATOMIC_ACQUIRE);
}

/* Consume this rank's notifications from the origins (all, or all but
 * itself) until the exact totals, checking memory as each is taken. */
static void consume(nwin_t *w, int pscw)
{
    int origins = pscw ? size - 1 : size;
    long expect = (long) origins * (NPUT + 1 + NSUM + NREP), got = 0;
    long sum_taken = 0, rep_taken[64] = {0}, per_slot[NSLOTS] = {0};
    unsigned char want[BLK];

    while (got < expect) {
        int id;
        MPI_Count c;
        if (!notify_take(w->win, 0, NSLOTS, &id, &c)) {
            notify_fail("%s %s %s: only %ld of %ld notifications came", PATH_NAME, mode_name,
                        nf_name[cur_flavor], got, expect);
            return;
        }
        if (c <= 0) {
            notify_fail("%s %s %s: waitsome returned slot %d but reset took %lld", PATH_NAME,
                        mode_name, nf_name[cur_flavor], id, (long long) c);
            continue;
        }
        got += c;
        per_slot[id] += c;
        if (id >= PUT_SLOT0 && id < PUT_SLOT0 + size * NPUT) {
            int r = (id - PUT_SLOT0) / NPUT, k = (id - PUT_SLOT0) % NPUT;
            const unsigned char *blk = w->base + PUT_OFF + (r * NPUT + k) * BLK;
            put_expect(r, rank, k, want);
            for (int j = 0; j < BLK; ++j) {
                if (blk[j] != want[j]) {
                    notify_fail("%s %s %s: put_notify %d from %d: byte %d is 0x%02x, expected "
                                "0x%02x, when the notification was seen", PATH_NAME, mode_name,
                                nf_name[cur_flavor], k, r, j, blk[j], want[j]);
                    break;
                }
            }
        } else if (id >= GET_SLOT0 && id < GET_SLOT0 + size) {
            /* the get has read the block: overwriting it must not change
             * what the origin receives */
            memset(w->base + GET_OFF + (id - GET_SLOT0) * BLK, 0x5A, BLK);
        } else if (id >= SUM_SLOT0 && id < SUM_SLOT0 + size) {
            sum_taken += c;
            int64_t v = load64(w, SUM_OFF);
            if (v < sum_taken) {
                notify_fail("%s %s %s: %ld SUM notifications taken but the word is %lld",
                            PATH_NAME, mode_name, nf_name[cur_flavor], sum_taken, (long long) v);
            }
        } else if (id >= REP_SLOT0 && id < REP_SLOT0 + size) {
            int r = id - REP_SLOT0;
            rep_taken[r] += c;
            int64_t v = load64(w, REP_OFF + r * 8);
            if (v < rep_taken[r]) {
                notify_fail("%s %s %s: %ld REPLACE notifications from %d taken but the word is "
                            "%lld", PATH_NAME, mode_name, nf_name[cur_flavor], rep_taken[r], r,
                            (long long) v);
            }
        } else {
            notify_fail("%s %s %s: notification on unused slot %d (count %lld)", PATH_NAME,
                        mode_name, nf_name[cur_flavor], id, (long long) c);
        }
    }
    for (int r = 0; r < size; ++r) {
        long want_n = (pscw && r == rank) ? 0 : 1;
        for (int k = 0; k < NPUT; ++k) {
            if (per_slot[PUT_SLOT0 + r * NPUT + k] != want_n) {
                notify_fail("%s %s %s: put slot of origin %d #%d took %ld, expected %ld",
                            PATH_NAME, mode_name, nf_name[cur_flavor], r, k,
                            per_slot[PUT_SLOT0 + r * NPUT + k], want_n);
            }
        }
        CHECK(per_slot[GET_SLOT0 + r] == want_n);
        CHECK(per_slot[SUM_SLOT0 + r] == want_n * NSUM);
        CHECK(per_slot[REP_SLOT0 + r] == want_n * NREP);
        if (want_n && load64(w, REP_OFF + r * 8) != NREP) {
            notify_fail("%s %s %s: REPLACE word of origin %d is %lld, expected %d", PATH_NAME,
                        mode_name, nf_name[cur_flavor], r,
                        (long long) load64(w, REP_OFF + r * 8), NREP);
        }
    }
    if (load64(w, SUM_OFF) != (int64_t) origins * NSUM) {
        notify_fail("%s %s %s: SUM word is %lld, expected %d", PATH_NAME, mode_name,
                    nf_name[cur_flavor], (long long) load64(w, SUM_OFF), origins * NSUM);
    }
}

/* Window contents for a mode: pattern everywhere, puts' blocks and the
 * accumulate words zero. */
static void reinit(nwin_t *w)
{
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    for (MPI_Aint i = 0; i < w->bytes; ++i) {
        w->base[i] = pat(rank, i);
    }
    memset(w->base + PUT_OFF, 0, (size_t) size * NPUT * BLK);
    memset(w->base + SUM_OFF, 0, 64 + 8 * (size_t) size);
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void finish_mode(nwin_t *w, int pscw)
{
    consume(w, pscw);
    check_gets(pscw);
    MPI_Barrier(MPI_COMM_WORLD);
    notify_check_empty(w->win, 0, NSLOTS, mode_name);
}

static void run_modes(nwin_t *w)
{
    MPI_Group others = notify_others_group();

    reinit(w);
    mode_name = "lock";
    for (int k = 0; k < size; ++k) {
        int t = (rank + k) % size;
        OK(MPI_Win_lock(k % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        issue_to(w, t);
        OK(MPI_Win_unlock(t, w->win));
    }
    finish_mode(w, 0);

    reinit(w);
    mode_name = "lock_all";
    OK(MPI_Win_lock_all(0, w->win));
    for (int k = 0; k < size; ++k) {
        issue_to(w, (rank + k) % size);
    }
    OK(MPI_Win_unlock_all(w->win));
    finish_mode(w, 0);

    reinit(w);
    mode_name = "fence";
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
    for (int k = 0; k < size; ++k) {
        issue_to(w, (rank + k) % size);
    }
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
    finish_mode(w, 0);

    reinit(w);
    mode_name = "PSCW";
    OK(MPI_Win_post(others, 0, w->win));
    OK(MPI_Win_start(others, 0, w->win));
    for (int k = 1; k < size; ++k) {
        issue_to(w, (rank + k) % size);
    }
    OK(MPI_Win_complete(w->win));
    OK(MPI_Win_wait(w->win));
    finish_mode(w, 1);

    MPI_Group_free(&others);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    if (size > 64) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    make_layouts();
    gbuf = malloc((size_t) size * BLK);
    for (int i = 0; i < NREP; ++i) {
        rep_vals[i] = i + 1;
    }
    for (int f = 0; f < NF_COUNT; ++f) {
        nwin_t w;
        cur_flavor = f;
        nwin_open(&w, f, WIN_BYTES, MPI_COMM_WORLD);
        run_modes(&w);
        nwin_close(&w);
    }
    free(gbuf);
    MPI_Type_free(&vec_t);
    return ompix_test_finish("notify_target");
}
