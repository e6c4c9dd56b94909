/*
 * Copyright (c) 2026 The ompix developers.
 *
 * One-sided benchmarks.  One run measures whichever osc component the
 * mpirun's `--mca osc` list leaves selectable; bench/run rdma2 runs this
 * program once per component (ours and each stock one) and compares.  The
 * list names only the component wanted (rdma2 with `rdma2,sm`: sm declines
 * MPI_Win_allocate windows), so if that component can not serve the window,
 * window creation fails and the run reports an error instead of silently
 * measuring another component.  Every metric also checks the data it moved,
 * so a component that is fast because it is wrong does not get a number.
 *
 *   rdma2_bench allocate|create|shared METRIC... | all      (exactly 2 ranks)
 *   rdma2_bench allocate|create|shared instr N METRIC...
 *
 * allocate: one MPI_Win_allocate window; create: MPI_Win_create over
 * malloc()ed memory; shared: MPI_Win_allocate_shared (osc sm serves only
 * those).  Rank 0 is the origin, rank 1 the target, and
 * operations move one int64 (8 bytes) unless said otherwise.  "Epoch" below
 * means a passive epoch opened before the timed loop and closed after it
 * (untimed): MPI_Win_lock(MPI_LOCK_SHARED, 1) on rank 0.
 *
 *   put_lock      MPI_Win_lock(SHARED) + MPI_Put + MPI_Win_unlock, each time
 *                 (shared lock, as in the OSU benchmarks)
 *   put_flush     MPI_Put + MPI_Win_flush, in an epoch
 *   put_fence     fence ping-pong (OSU): rank 0 puts, fence, fence; rank 1
 *                 fence, puts, fence.  Time per put, i.e. per fence
 *   put_pscw      PSCW ping-pong (OSU): start, put, complete, post, wait on
 *                 rank 0 mirrored by rank 1.  Time per access epoch
 *   put_lock_all  MPI_Win_lock_all + MPI_Put + MPI_Win_unlock_all, each time
 *   get_lock      MPI_Win_lock(SHARED) + MPI_Get + MPI_Win_unlock, each time
 *   get_flush     MPI_Get + MPI_Win_flush, in an epoch
 *   acc_lock      MPI_Accumulate (MPI_INT64_T, MPI_SUM) + MPI_Win_flush, in an
 *                 epoch: the latency of one completed atomic update (the lock
 *                 is not taken per operation; put_lock measures that)
 *   fop_flush     MPI_Fetch_and_op (MPI_INT64_T, MPI_SUM) + MPI_Win_flush, in
 *                 an epoch
 *   cas_flush     MPI_Compare_and_swap (MPI_INT64_T) + MPI_Win_flush, in an
 *                 epoch
 *       (µs per operation, median of REPS repetitions of at least
 *        REP_SECONDS each, the slower rank's time; fewer, at least MIN_REPS,
 *        if the metric has taken METRIC_SECONDS)
 *   put_bw_64KiB  16 MPI_Puts of 64 KiB to distinct target offsets, then
 *   get_bw_64KiB  MPI_Win_flush, in an epoch (MB/s, 10^6 bytes)
 *   win_create_allocate  MPI_Win_allocate (or _shared) of 8 bytes +
 *                 MPI_Win_free, both ranks (µs per pair)
 *   acc_<type>_<size>, get_acc_<type>_<size>  MPI_Accumulate /
 *                 MPI_Get_accumulate (MPI_SUM of 1s and -1s in turn: no
 *                 overflow, exact in every type) + MPI_Win_flush, in an
 *                 epoch: type char, float or double (MPI_CHAR, MPI_FLOAT,
 *                 MPI_DOUBLE), size 8B, 1KiB, 64KiB or 1MiB of contiguous
 *                 elements (OSU's osu_acc_latency / osu_get_acc_latency
 *                 with -s flush); checked: every fetched first element, and
 *                 the target's first and last elements of every size
 *   passive_lock_ms  rank 1 times MPI_Win_lock(EXCLUSIVE, 0) + MPI_Put +
 *                 MPI_Win_unlock while rank 0 computes for one second
 *                 without calling MPI (ms, median of PASSIVE_REPS); an
 *                 implementation that needs the target to progress takes
 *                 until the computation ends.  Rank 1 waits PASSIVE_DELAY
 *                 first, and a repetition where its lock still began before
 *                 rank 0 computed is redone.
 *
 * instr: for callgrind (bench/run rdma2 counts instructions per operation
 * with it).  Each metric's loop runs N iterations inside its own function
 * rdma2_bench_measured_<metric>, after an untimed warm-up (first accesses
 * set up peer state) and between the metric's own setup and teardown;
 * collect with --toggle-collect='rdma2_bench_measured_*' and take the
 * difference of two run lengths, so that one-time costs (lazy binding,
 * first-touch) cancel.  The acc_ and get_acc_ loops of 1KiB, 64KiB and 1MiB run
 * N/10, N/200 and N/1000 iterations there (BIG_DIV; bench/run divides
 * accordingly): a callgrind run of 2000 1 MiB reductions would take hours.  Only the origin-only metrics have an instr form:
 * rank 1 waits in a barrier meanwhile, so rank 0's count is its own work,
 * not polling for a peer that callgrind slowed down.  The data is checked
 * as in timed runs ("INSTR <metric> ok" or "FAILED <metric> ...").
 *
 * Output (rank 0): "BEGIN <metric>" before a metric starts, so that the
 * driver knows which metric a crash or a hang hit; then either
 * "RESULT <metric> <unit> <median>" or "FAILED <metric> <why>" (wrong data,
 * or no valid repetition); "NOTE <metric> <text>" adds context.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ompix_bench_mpi.h"

#define REPS 15
#define MIN_REPS 5
#define PASSIVE_REPS 5
#define REP_SECONDS 0.01          /* long enough for a timer, short enough for 5 components */
#define METRIC_SECONDS 2.5        /* wall-time budget per metric: no repetition starts after
                                   * it once MIN_REPS are done (a loaded machine stalls
                                   * implementations that need the peer to run for seconds) */
#define PASSIVE_COMPUTE 1.0       /* seconds rank 0 computes outside MPI */
#define PASSIVE_DELAY 0.1         /* rank 1 waits this long, so rank 0 is surely computing */
#define BW_BYTES 65536
#define BW_WINDOW 16              /* operations in flight per flush */

/* Layout of every rank's window.  Each word has one writer and one
 * checked invariant, so the metrics can run in any order or subset. */
#define OFF_PUT 0                 /* the peer's puts: holds the peer's `seq` */
#define OFF_GET 8                 /* constant getval(owner), read by gets */
#define OFF_ACC 16                /* rank 1's: +1 per accumulate/fetch_and_op of rank 0 */
#define OFF_CAS 24                /* rank 1's: incremented by rank 0's compare_and_swaps */
#define OFF_BWPUT 4096            /* the peer's bandwidth puts: put_pat */
#define OFF_BWGET (OFF_BWPUT + BW_WINDOW * BW_BYTES)   /* constant get_pat(owner) */
#define OFF_BIG (OFF_BWGET + BW_WINDOW * BW_BYTES)  /* rank 1's: the acc_ metrics, one
                                                   * BIG_MAX region per type */
#define BIG_MAX (1 << 20)
#define WIN_BYTES (OFF_BIG + BIG_TYPES * BIG_MAX)

/* The acc_/get_acc_ metrics: types, sizes, and the instr divisors. */
enum { BIG_CHAR, BIG_FLOAT, BIG_DOUBLE, BIG_TYPES };
enum { BIG_8B, BIG_1KIB, BIG_64KIB, BIG_1MIB, BIG_SIZES };
static const size_t big_bytes[BIG_SIZES] = {8, 1024, 65536, BIG_MAX};
static const long big_div[BIG_SIZES] = {1, 10, 200, 1000};
static const size_t big_esize[BIG_TYPES] = {1, sizeof(float), sizeof(double)};
static int64_t big_adds[BIG_TYPES][BIG_SIZES];  /* rank 0: sum of what each size added */
static int big_turn[BIG_TYPES];                   /* rank 0: next one adds -1 */
static unsigned char *big_ones[BIG_TYPES][2], *big_res;   /* 1s and -1s */

static int rank, peer, shared, created;
static void *created_mem;        /* create: the window memory, freed after MPI_Win_free */
static MPI_Win win;
static unsigned char *base;       /* this rank's window memory */
static MPI_Group peer_group;
static int64_t seq;               /* last value this rank put into the peer's OFF_PUT */
static int64_t adds;              /* rank 0: +1s applied to rank 1's OFF_ACC */
static int64_t casv;              /* rank 0: value of rank 1's OFF_CAS */
static long bad;                  /* wrong results this rank saw in the current metric */
static const int64_t one = 1;
static unsigned char *bwsrc, *bwdst;

typedef ompix_bench_metric_t metric_t;

static ompix_bench_harness_t harness = {
    .reps = REPS,
    .min_reps = MIN_REPS,
    .rep_seconds = REP_SECONDS,
    .metric_seconds = METRIC_SECONDS,
    .bytes_per_iteration = (double) BW_WINDOW * BW_BYTES,
    .instr_warmup = 4,
    .bad = &bad,
};

static int64_t getval(int r)
{
    return INT64_C(0x0123456789abcdef) ^ r;
}

static unsigned char put_pat(long j)
{
    return (unsigned char) (j * 7 + 3);
}

static unsigned char get_pat(int r, long w, long j)
{
    return (unsigned char) (j * 13 + w * 29 + r * 101 + 1);
}

/* Local access to our own window memory inside a lock epoch on ourselves,
 * which is correct in the separate memory model too (osc pt2pt). */
static int64_t read_own(MPI_Aint off)
{
    int64_t v;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    memcpy(&v, base + off, sizeof(v));
    MPI_Win_unlock(rank, win);
    return v;
}

/* ---- the loops (origin-only ones return at once on rank 1, which waits
 * in the next collective and so progresses implementations that need it) */

static void lock_peer(void)
{
    if (0 == rank) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    }
}

static void unlock_peer(void)
{
    if (0 == rank) {
        MPI_Win_unlock(1, win);
    }
}

static void put_lock(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        ++seq;
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&seq, 1, MPI_INT64_T, 1, OFF_PUT, 1, MPI_INT64_T, win);
        MPI_Win_unlock(1, win);
    }
}

static void put_flush(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        ++seq;
        MPI_Put(&seq, 1, MPI_INT64_T, 1, OFF_PUT, 1, MPI_INT64_T, win);
        MPI_Win_flush(1, win);
    }
}

static void fence_open(void)
{
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
}

static void fence_close(void)
{
    /* closes the fence epochs, so that the lock epochs of the checks and
     * of later metrics are allowed */
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
}

static void put_fence(long n)
{
    for (long i = 0; i < n; ++i) {
        if (0 == rank) {
            ++seq;
            MPI_Put(&seq, 1, MPI_INT64_T, peer, OFF_PUT, 1, MPI_INT64_T, win);
            MPI_Win_fence(0, win);
            MPI_Win_fence(0, win);
        } else {
            MPI_Win_fence(0, win);
            ++seq;
            MPI_Put(&seq, 1, MPI_INT64_T, peer, OFF_PUT, 1, MPI_INT64_T, win);
            MPI_Win_fence(0, win);
        }
    }
}

static void put_pscw(long n)
{
    for (long i = 0; i < n; ++i) {
        if (0 == rank) {
            MPI_Win_start(peer_group, 0, win);
            ++seq;
            MPI_Put(&seq, 1, MPI_INT64_T, peer, OFF_PUT, 1, MPI_INT64_T, win);
            MPI_Win_complete(win);
            MPI_Win_post(peer_group, 0, win);
            MPI_Win_wait(win);
        } else {
            MPI_Win_post(peer_group, 0, win);
            MPI_Win_wait(win);
            MPI_Win_start(peer_group, 0, win);
            ++seq;
            MPI_Put(&seq, 1, MPI_INT64_T, peer, OFF_PUT, 1, MPI_INT64_T, win);
            MPI_Win_complete(win);
        }
    }
}

static void put_lock_all(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        ++seq;
        MPI_Win_lock_all(0, win);
        MPI_Put(&seq, 1, MPI_INT64_T, 1, OFF_PUT, 1, MPI_INT64_T, win);
        MPI_Win_unlock_all(win);
    }
}

static void get_lock(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        int64_t got = 0;
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Get(&got, 1, MPI_INT64_T, 1, OFF_GET, 1, MPI_INT64_T, win);
        MPI_Win_unlock(1, win);
        bad += got != getval(1);
    }
}

static void get_flush(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        int64_t got = 0;
        MPI_Get(&got, 1, MPI_INT64_T, 1, OFF_GET, 1, MPI_INT64_T, win);
        MPI_Win_flush(1, win);
        bad += got != getval(1);
    }
}

static void acc_lock(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        MPI_Accumulate(&one, 1, MPI_INT64_T, 1, OFF_ACC, 1, MPI_INT64_T, MPI_SUM, win);
        MPI_Win_flush(1, win);
        ++adds;
    }
}

static void fop_flush(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        int64_t old = -1;
        MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 1, OFF_ACC, MPI_SUM, win);
        MPI_Win_flush(1, win);
        bad += old != adds++;
    }
}

static void cas_flush(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        int64_t cmp = casv, next = casv + 1, old = -1;
        MPI_Compare_and_swap(&next, &cmp, &old, MPI_INT64_T, 1, OFF_CAS, win);
        MPI_Win_flush(1, win);
        bad += old != casv++;
    }
}

/* ---- acc_/get_acc_: large accumulates */

static MPI_Datatype big_type(int t)
{
    return BIG_CHAR == t ? MPI_CHAR : BIG_FLOAT == t ? MPI_FLOAT : MPI_DOUBLE;
}

/* Whether element idx of a type-t array holds k. */
static int big_is(int t, const void *buf, size_t idx, int64_t k)
{
    if (BIG_CHAR == t) return ((const signed char *) buf)[idx] == k;
    if (BIG_FLOAT == t) return ((const float *) buf)[idx] == (float) k;
    return ((const double *) buf)[idx] == (double) k;
}

/* What element idx of type t's region holds: the sums of the sizes covering it. */
static int64_t big_count(int t, size_t idx)
{
    int64_t k = 0;
    for (int z = 0; z < BIG_SIZES; ++z) {
        k += idx < big_bytes[z] / big_esize[t] ? big_adds[t][z] : 0;
    }
    return k;
}

static void big_loop(int t, int z, int fetch, long n)
{
    MPI_Datatype dt = big_type(t);
    int cnt = (int) (big_bytes[z] / big_esize[t]);
    MPI_Aint off = OFF_BIG + (MPI_Aint) t * BIG_MAX;

    for (long i = 0; 0 == rank && i < n; ++i) {
        const void *src = big_ones[t][big_turn[t]];
        if (fetch) {
            MPI_Get_accumulate(src, cnt, dt, big_res, cnt, dt, 1, off, cnt, dt, MPI_SUM, win);
        } else {
            MPI_Accumulate(src, cnt, dt, 1, off, cnt, dt, MPI_SUM, win);
        }
        MPI_Win_flush(1, win);
        bad += fetch && !big_is(t, big_res, 0, big_count(t, 0));
        big_adds[t][z] += big_turn[t] ? -1 : 1;
        big_turn[t] ^= 1;
    }
}

/* Rank 1 checks the first and the last element of every size's range. */
static void check_big(void)
{
    MPI_Bcast(big_adds, BIG_TYPES * BIG_SIZES, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (1 != rank) return;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    for (int t = 0; t < BIG_TYPES; ++t) {
        const unsigned char *region = base + OFF_BIG + (size_t) t * BIG_MAX;
        for (int z = 0; z < BIG_SIZES; ++z) {
            size_t last = big_bytes[z] / big_esize[t] - 1;
            bad += !big_is(t, region, 0, big_count(t, 0)) ||
                   !big_is(t, region, last, big_count(t, last));
        }
    }
    MPI_Win_unlock(rank, win);
}

static void big_init(void)
{
    for (int t = 0; t < BIG_TYPES; ++t) {
        for (int s = 0; s < 2; ++s) {
            void *p = big_ones[t][s] = malloc(BIG_MAX);
            for (size_t i = 0; i < BIG_MAX / big_esize[t]; ++i) {
                if (BIG_CHAR == t) ((signed char *) p)[i] = (signed char) (s ? -1 : 1);
                else if (BIG_FLOAT == t) ((float *) p)[i] = s ? -1.0f : 1.0f;
                else ((double *) p)[i] = s ? -1.0 : 1.0;
            }
        }
    }
    big_res = malloc(BIG_MAX);
}

static void big_fini(void)
{
    for (int t = 0; t < BIG_TYPES; ++t) {
        free(big_ones[t][0]);
        free(big_ones[t][1]);
    }
    free(big_res);
}

#define BIG_LOOPS(t, z, name)                                           \
    static void acc_##name(long n) { big_loop(t, z, 0, n); }            \
    static void get_acc_##name(long n) { big_loop(t, z, 1, n); }
/* X(type, size, name) for the four sizes of one type */
#define BIG_SIZES_OF(X, t, name)                                        \
    X(t, BIG_8B, name##_8B) X(t, BIG_1KIB, name##_1KiB)                 \
    X(t, BIG_64KIB, name##_64KiB) X(t, BIG_1MIB, name##_1MiB)
BIG_SIZES_OF(BIG_LOOPS, BIG_CHAR, char)
BIG_SIZES_OF(BIG_LOOPS, BIG_FLOAT, float)
BIG_SIZES_OF(BIG_LOOPS, BIG_DOUBLE, double)

static void put_bw(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        for (long w = 0; w < BW_WINDOW; ++w) {
            MPI_Put(bwsrc, BW_BYTES, MPI_BYTE, 1, OFF_BWPUT + w * BW_BYTES, BW_BYTES, MPI_BYTE, win);
        }
        MPI_Win_flush(1, win);
    }
}

static void get_bw_setup(void)
{
    if (0 == rank) {
        memset(bwdst, 0, (size_t) BW_WINDOW * BW_BYTES);  /* so the check sees fresh data */
    }
    lock_peer();
}

static void get_bw(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        for (long w = 0; w < BW_WINDOW; ++w) {
            MPI_Get(bwdst + w * BW_BYTES, BW_BYTES, MPI_BYTE, 1, OFF_BWGET + w * BW_BYTES, BW_BYTES,
                    MPI_BYTE, win);
        }
        MPI_Win_flush(1, win);
    }
}

static void get_bw_teardown(void)
{
    unlock_peer();
    for (long w = 0; 0 == rank && w < BW_WINDOW; ++w) {
        for (long j = 0; j < BW_BYTES; ++j) {
            if (bwdst[w * BW_BYTES + j] != get_pat(1, w, j)) {
                ++bad;
                break;
            }
        }
    }
}

static void win_create(long n)
{
    for (long i = 0; i < n; ++i) {
        void *p;
        MPI_Win w;
        if (shared) {
            MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w);
        } else {
            MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w);
        }
        bad += NULL == p;
        MPI_Win_free(&w);
    }
}

/* ---- checks (collective) */

static void check_put(void)
{
    int64_t peer_seq;
    MPI_Sendrecv(&seq, 1, MPI_INT64_T, peer, 0, &peer_seq, 1, MPI_INT64_T, peer, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad += read_own(OFF_PUT) != peer_seq;
}

static void check_word(MPI_Aint off, int64_t expect)
{
    MPI_Bcast(&expect, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (1 == rank) {
        bad += read_own(off) != expect;
    }
}

static void check_acc(void)
{
    check_word(OFF_ACC, adds);
}

static void check_cas(void)
{
    check_word(OFF_CAS, casv);
}

static void check_bw_put(void)
{
    if (1 == rank) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
        for (long w = 0; w < BW_WINDOW; ++w) {
            for (long j = 0; j < BW_BYTES; ++j) {
                if (base[OFF_BWPUT + w * BW_BYTES + j] != put_pat(j)) {
                    ++bad;
                    break;
                }
            }
        }
        MPI_Win_unlock(rank, win);
    }
}

static void spin_until(double end)
{
    volatile double x = 1.0;
    while (ompix_bench_now() < end) {
        for (int k = 0; k < 1000; ++k) {
            x = x * 1.0000001 + 1e-9;
        }
    }
}

/* Rank 1 locks rank 0 while rank 0 computes without calling MPI.  Clocks
 * are CLOCK_MONOTONIC on one node, so the ranks' intervals compare.  A
 * repetition counts only if the lock began after the computation did (on
 * a loaded machine rank 0 may leave the barrier late, and a target still
 * in MPI would make any implementation look passive); others are redone,
 * up to PASSIVE_TRIES in all. */
#define PASSIVE_TRIES (3 * PASSIVE_REPS)
static void passive(void)
{
    double ms[PASSIVE_REPS];
    int reps = 0, tries = 0, waited = 0;

    if (1 == rank) {              /* warm-up while rank 0 is in MPI */
        ++seq;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&seq, 1, MPI_INT64_T, 0, OFF_PUT, 1, MPI_INT64_T, win);
        MPI_Win_unlock(0, win);
    }
    while (reps < PASSIVE_REPS && tries++ < PASSIVE_TRIES) {
        double mine[2], theirs[2];   /* rank 0: computation; rank 1: lock..unlock */
        MPI_Barrier(MPI_COMM_WORLD);
        if (0 == rank) {
            mine[0] = ompix_bench_now();
            spin_until(mine[0] + PASSIVE_COMPUTE);
            mine[1] = ompix_bench_now();
        } else {
            struct timespec d = { 0, (long) (PASSIVE_DELAY * 1e9) };
            nanosleep(&d, NULL);
            ++seq;
            mine[0] = ompix_bench_now();
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
            MPI_Put(&seq, 1, MPI_INT64_T, 0, OFF_PUT, 1, MPI_INT64_T, win);
            MPI_Win_unlock(0, win);
            mine[1] = ompix_bench_now();
        }
        MPI_Sendrecv(mine, 2, MPI_DOUBLE, peer, 0, theirs, 2, MPI_DOUBLE, peer, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const double *compute = 0 == rank ? mine : theirs, *lock = 0 == rank ? theirs : mine;
        if (lock[0] < compute[0]) {
            continue;             /* both ranks see the same times, so agree */
        }
        ms[reps++] = (lock[1] - lock[0]) * 1e3;
        waited += lock[1] > compute[1];
    }
    check_put();
    if (0 == rank && waited) {
        printf("NOTE passive_lock_ms %d of %d unlocks returned only after the target stopped "
               "computing\n", waited, reps);
    }
    if (0 == rank && tries > reps) {
        printf("NOTE passive_lock_ms %d of %d repetitions redone: the lock began before the target "
               "was computing (loaded machine)\n", tries - reps, tries);
    }
    ompix_bench_report(&harness, "passive_lock_ms", "ms", reps ? ompix_bench_median(ms, reps) : 0,
           reps ? NULL : "no repetition where the target was computing when the lock began");
}

/* The loops callgrind counts in instr mode, one function per metric, so
 * that one run measures several (bench/run: --toggle-collect). */
#define MEASURED(name)                                                   \
    __attribute__((noinline)) void rdma2_bench_measured_##name(long n); \
    __attribute__((noinline)) void rdma2_bench_measured_##name(long n)  \
    {                                                                    \
        name(n);                                                         \
    }
MEASURED(put_lock)
MEASURED(put_flush)
MEASURED(put_lock_all)
MEASURED(get_lock)
MEASURED(get_flush)
MEASURED(acc_lock)
MEASURED(fop_flush)
MEASURED(cas_flush)
/* instr: the acc_/get_acc_ loops of size z run n / big_div[z] iterations */
#define MEASURED_BIG(t, z, name)                                                  \
    __attribute__((noinline)) void rdma2_bench_measured_acc_##name(long n);     \
    __attribute__((noinline)) void rdma2_bench_measured_acc_##name(long n)      \
    {                                                                            \
        acc_##name(n / big_div[z]);                                              \
    }                                                                            \
    __attribute__((noinline)) void rdma2_bench_measured_get_acc_##name(long n); \
    __attribute__((noinline)) void rdma2_bench_measured_get_acc_##name(long n)  \
    {                                                                            \
        get_acc_##name(n / big_div[z]);                                          \
    }
BIG_SIZES_OF(MEASURED_BIG, BIG_CHAR, char)
BIG_SIZES_OF(MEASURED_BIG, BIG_FLOAT, float)
BIG_SIZES_OF(MEASURED_BIG, BIG_DOUBLE, double)
#define M(name) rdma2_bench_measured_##name
#define BIG_METRICS(name)                                                                   \
    { "acc_" #name, "us", lock_peer, acc_##name, unlock_peer, check_big, 1, M(acc_##name) }, \
    { "get_acc_" #name, "us", lock_peer, get_acc_##name, unlock_peer, check_big, 1,          \
      M(get_acc_##name) }

static const metric_t metrics[] = {
    { "put_lock", "us", NULL, put_lock, NULL, check_put, 1, M(put_lock) },
    { "put_flush", "us", lock_peer, put_flush, unlock_peer, check_put, 1, M(put_flush) },
    { "put_fence", "us", fence_open, put_fence, fence_close, check_put, 2, NULL },
    { "put_pscw", "us", NULL, put_pscw, NULL, check_put, 2, NULL },
    { "put_lock_all", "us", NULL, put_lock_all, NULL, check_put, 1, M(put_lock_all) },
    { "get_lock", "us", NULL, get_lock, NULL, NULL, 1, M(get_lock) },
    { "get_flush", "us", lock_peer, get_flush, unlock_peer, NULL, 1, M(get_flush) },
    { "acc_lock", "us", lock_peer, acc_lock, unlock_peer, check_acc, 1, M(acc_lock) },
    { "fop_flush", "us", lock_peer, fop_flush, unlock_peer, check_acc, 1, M(fop_flush) },
    { "cas_flush", "us", lock_peer, cas_flush, unlock_peer, check_cas, 1, M(cas_flush) },
    BIG_METRICS(char_8B), BIG_METRICS(char_1KiB), BIG_METRICS(char_64KiB),
    BIG_METRICS(char_1MiB), BIG_METRICS(float_8B), BIG_METRICS(float_1KiB),
    BIG_METRICS(float_64KiB), BIG_METRICS(float_1MiB), BIG_METRICS(double_8B),
    BIG_METRICS(double_1KiB), BIG_METRICS(double_64KiB), BIG_METRICS(double_1MiB),
    { "put_bw_64KiB", "MB/s", lock_peer, put_bw, unlock_peer, check_bw_put, 1, NULL },
    { "get_bw_64KiB", "MB/s", get_bw_setup, get_bw, get_bw_teardown, NULL, 1, NULL },
    { "win_create_allocate", "us", NULL, win_create, NULL, NULL, 1, NULL },
    { "passive_lock_ms", "ms", NULL, NULL, NULL, NULL, 1, NULL },   /* passive() */
};
#define NMETRICS ((int) (sizeof(metrics) / sizeof(metrics[0])))

static void make_window(void)
{
    MPI_Group world;
    if (shared) {
        MPI_Win_allocate_shared(WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    } else if (created) {
        if (0 != posix_memalign(&created_mem, 4096, WIN_BYTES)) {
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        base = created_mem;
        MPI_Win_create(base, WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        MPI_Win_allocate(WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    }
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    memset(base, 0, OFF_BWGET);
    memset(base + OFF_BIG, 0, (size_t) BIG_TYPES * BIG_MAX);
    int64_t v = getval(rank);
    memcpy(base + OFF_GET, &v, sizeof(v));
    for (long w = 0; w < BW_WINDOW; ++w) {
        for (long j = 0; j < BW_BYTES; ++j) {
            base[OFF_BWGET + w * BW_BYTES + j] = get_pat(rank, w, j);
        }
    }
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &peer_group);
    MPI_Group_free(&world);
    big_init();
    bwsrc = malloc(BW_BYTES);
    bwdst = malloc((size_t) BW_WINDOW * BW_BYTES);
    for (long j = 0; j < BW_BYTES; ++j) {
        bwsrc[j] = put_pat(j);
    }
}

static const metric_t *find(const char *name)
{
    for (int i = 0; i < NMETRICS; ++i) {
        if (0 == strcmp(metrics[i].name, name)) {
            return &metrics[i];
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int size, ok = argc >= 3, first = 2;
    long instr_n = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = 1 - rank;
    ok = ok && 2 == size &&
         (0 == strcmp(argv[1], "allocate") || 0 == strcmp(argv[1], "create") ||
          0 == strcmp(argv[1], "shared"));
    if (ok && 0 == strcmp(argv[2], "instr")) {
        ok = argc >= 5 && (instr_n = atol(argv[3])) > 0;
        first = 4;
    }
    for (int i = first; ok && i < argc; ++i) {
        const metric_t *m = find(argv[i]);
        ok = instr_n ? NULL != m && NULL != m->measured
                     : 0 == strcmp(argv[i], "all") || NULL != m;
    }
    if (!ok) {
        if (0 == rank) {
            fprintf(stderr, "usage: mpirun -np 2 rdma2_bench allocate|create|shared "
                            "METRIC...|all\n"
                            "       mpirun -np 2 rdma2_bench allocate|create|shared "
                            "instr N METRIC...\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    shared = 0 == strcmp(argv[1], "shared");
    created = 0 == strcmp(argv[1], "create");
    make_window();

    for (int i = first; i < argc; ++i) {
        for (int k = 0; k < NMETRICS; ++k) {
            const metric_t *m = &metrics[k];
            if (strcmp(argv[i], "all") && strcmp(argv[i], m->name)) {
                continue;
            }
            if (0 == rank) {
                printf("BEGIN %s\n", m->name);
                fflush(stdout);
            }
            bad = 0;
            if (instr_n) {
                ompix_bench_instr(&harness, m, instr_n);
            } else if (m->loop) {
                ompix_bench_run(&harness, m);
            } else {
                passive();
            }
        }
    }

    MPI_Group_free(&peer_group);
    MPI_Win_free(&win);
    free(created_mem);
    free(bwsrc);
    free(bwdst);
    big_fini();
    MPI_Finalize();
    return 0;
}
