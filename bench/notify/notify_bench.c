/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Notified-RMA benchmarks (issue 15).  One run measures whichever osc
 * component the mpirun's `--mca osc` list leaves selectable; bench/run
 * notify runs the notified metrics on osc/rdma2 (ours) and on the generic
 * path (a stock component), and the baseline metrics, which use standard
 * MPI calls only, on each stock component, and compares.  Exactly 2 ranks,
 * an MPI_Win_allocate window; rank 0 is the origin, rank 1 the target.
 *
 *   notify_bench METRIC... | all
 *   notify_bench instr N METRIC...
 *
 *   pipe_notify    read_pipeline_4KiB, ours: rank 0 reads 4-KiB chunks of
 *                  rank 1's window under lock_all with MPIX_Win_read_notify,
 *                  32 in flight (one slot and buffer each), taking each
 *                  with MPIX_Win_notify_waitsome + MPIX_Win_notify_reset
 *                  and re-issuing into the freed slot (MB/s)
 *   pipe_getflush  the same chunks, MPI_Get + MPI_Win_flush each (MB/s)
 *   pipe_rget      32 MPI_Rget in flight, MPI_Waitany, re-issue (MB/s)
 *   lat_notify     read_notify_8B: MPIX_Win_read_notify of 8 bytes until its
 *                  notification is seen (waitsome) and taken (reset) (µs)
 *   lat_getflush   MPI_Get of 8 bytes + MPI_Win_flush (µs)
 *   pp_notify      put_notify_pingpong_8B, ours: the ranks bounce 8 bytes
 *                  with MPIX_Put_notify; each waits for its slot
 *                  (waitsome + reset) and checks the data (µs per one-way)
 *   pp_putsend     the same with MPI_Put + MPI_Win_flush + a zero-byte
 *                  MPI_Send/MPI_Recv as the signal (µs per one-way)
 *
 * Every chunk's first and last words are cleared before the read and
 * checked after it (they name the chunk), every ping-pong value is checked,
 * so a component that is fast because it is wrong gets no number.  Medians
 * of REPS repetitions of about REP_SECONDS each (fewer once the metric
 * has taken METRIC_SECONDS).
 *
 * Output (rank 0), the protocol of bench/rdma2/rdma2_bench.c, so that
 * bench/run reuses its driver: "BEGIN <metric>", then "RESULT <metric>
 * <unit> <value>" or "FAILED <metric> <why>"; "NOTE <metric> <text>".
 *
 * instr: for callgrind (bench/run notify --instr-only).  The origin-only
 * metrics run N operations (chunks, reads) inside their own function
 * notify_bench_measured_<metric>, after an untimed warm-up, while rank 1
 * waits in a barrier; bench/run takes the difference of two run lengths.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <mpi-ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompix_bench_mpi.h"

#define REPS 15
#define MIN_REPS 5
#define REP_SECONDS 0.02
#define METRIC_SECONDS 3.0
#define CHUNK 4096
#define NCHUNK 256                 /* 1 MiB of chunks in rank 1's window */
#define INFLIGHT 32
#define WORDS (CHUNK / 8)
#define OFF_LAT (NCHUNK * CHUNK)   /* 8 bytes read by the latency metrics */
#define OFF_PP (OFF_LAT + 64)      /* the ping-pong's landing word */
#define WIN_BYTES (OFF_PP + 64)
#define SLOT_PP 1

#ifndef OMPI_HAVE_MPI_EXT_NOTIFY
#error "notify_bench needs ompix's notified RMA (OMPI_HAVE_MPI_EXT_NOTIFY)"
#endif

static int rank, peer;
static MPI_Win win;
static unsigned char *base;
static uint64_t *dst;              /* [INFLIGHT][WORDS] */
static long bad;
static int64_t ppval;              /* the ping-pong's outgoing value */
static int64_t ppseq;

typedef ompix_bench_metric_t metric_t;

static ompix_bench_harness_t harness = {
    .reps = REPS,
    .min_reps = MIN_REPS,
    .rep_seconds = REP_SECONDS,
    .metric_seconds = METRIC_SECONDS,
    .bytes_per_iteration = CHUNK,
    .instr_warmup = INFLIGHT * 2,
    .bad = &bad,
};

/* Word w of chunk c of rank 1's window. */
static uint64_t chunk_word(long c, long w)
{
    return ((uint64_t) c << 32) ^ (uint64_t) (w * 2654435761u) ^ UINT64_C(0x5bd1e995);
}

static void clear_ends(int slot)
{
    dst[slot * WORDS] = 0;
    dst[slot * WORDS + WORDS - 1] = 0;
}

static void check_ends(int slot, long c)
{
    bad += dst[slot * WORDS] != chunk_word(c, 0);
    bad += dst[slot * WORDS + WORDS - 1] != chunk_word(c, WORDS - 1);
}

static void lock_peer(void)
{
    MPI_Win_lock_all(0, win);
}

static void unlock_peer(void)
{
    MPI_Win_unlock_all(win);
}

/* ---- read_pipeline_4KiB */

static void pipe_notify(long n)
{
    long chunk_of[INFLIGHT], issued = 0, done = 0;
    if (0 != rank) {
        return;
    }
    for (int s = 0; s < INFLIGHT && issued < n; ++s, ++issued) {
        chunk_of[s] = issued % NCHUNK;
        clear_ends(s);
        MPIX_Win_read_notify(dst + s * WORDS, CHUNK, MPI_BYTE, 1, chunk_of[s] * CHUNK, CHUNK,
                             MPI_BYTE, s, win);
    }
    while (done < n) {
        int id = MPIX_NOTIFY_NONE;
        MPI_Count c = 0;
        MPIX_Win_notify_waitsome(win, 0, INFLIGHT, MPIX_NOTIFY_BLOCK, &id);
        if (id < 0 || id >= INFLIGHT) {
            ++bad;
            return;
        }
        MPIX_Win_notify_reset(win, id, &c);
        bad += 1 != c;
        check_ends(id, chunk_of[id]);
        ++done;
        if (issued < n) {
            chunk_of[id] = issued++ % NCHUNK;
            clear_ends(id);
            MPIX_Win_read_notify(dst + id * WORDS, CHUNK, MPI_BYTE, 1, chunk_of[id] * CHUNK,
                                 CHUNK, MPI_BYTE, id, win);
        }
    }
}

static void pipe_getflush(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        long c = i % NCHUNK;
        int s = (int) (i % INFLIGHT);
        clear_ends(s);
        MPI_Get(dst + s * WORDS, CHUNK, MPI_BYTE, 1, c * CHUNK, CHUNK, MPI_BYTE, win);
        MPI_Win_flush(1, win);
        check_ends(s, c);
    }
}

static void pipe_rget(long n)
{
    MPI_Request req[INFLIGHT];
    long chunk_of[INFLIGHT], issued = 0, done = 0;
    if (0 != rank) {
        return;
    }
    for (int s = 0; s < INFLIGHT; ++s) {
        req[s] = MPI_REQUEST_NULL;
    }
    for (int s = 0; s < INFLIGHT && issued < n; ++s, ++issued) {
        chunk_of[s] = issued % NCHUNK;
        clear_ends(s);
        MPI_Rget(dst + s * WORDS, CHUNK, MPI_BYTE, 1, chunk_of[s] * CHUNK, CHUNK, MPI_BYTE, win,
                 &req[s]);
    }
    while (done < n) {
        int s = MPI_UNDEFINED;
        MPI_Waitany(INFLIGHT, req, &s, MPI_STATUS_IGNORE);
        if (MPI_UNDEFINED == s) {
            ++bad;
            return;
        }
        check_ends(s, chunk_of[s]);
        ++done;
        if (issued < n) {
            chunk_of[s] = issued++ % NCHUNK;
            clear_ends(s);
            MPI_Rget(dst + s * WORDS, CHUNK, MPI_BYTE, 1, chunk_of[s] * CHUNK, CHUNK, MPI_BYTE,
                     win, &req[s]);
        }
    }
}

/* ---- read_notify_8B */

static void lat_notify(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        uint64_t v = 0;
        int id = MPIX_NOTIFY_NONE;
        MPI_Count c = 0;
        MPIX_Win_read_notify(&v, 8, MPI_BYTE, 1, OFF_LAT, 8, MPI_BYTE, 0, win);
        MPIX_Win_notify_waitsome(win, 0, 1, MPIX_NOTIFY_BLOCK, &id);
        MPIX_Win_notify_reset(win, 0, &c);
        bad += 1 != c || v != chunk_word(-1, 0);
    }
}

static void lat_getflush(long n)
{
    for (long i = 0; 0 == rank && i < n; ++i) {
        uint64_t v = 0;
        MPI_Get(&v, 8, MPI_BYTE, 1, OFF_LAT, 8, MPI_BYTE, win);
        MPI_Win_flush(1, win);
        bad += v != chunk_word(-1, 0);
    }
}

/* ---- put_notify_pingpong_8B: one-way = put + the peer seeing it */

static int64_t landed(void)
{
    return __atomic_load_n((int64_t *) (base + OFF_PP), __ATOMIC_ACQUIRE);
}

static void pp_notify_wait(void)
{
    int id = MPIX_NOTIFY_NONE;
    MPI_Count c = 0;
    MPIX_Win_notify_waitsome(win, SLOT_PP, 1, MPIX_NOTIFY_BLOCK, &id);
    MPIX_Win_notify_reset(win, SLOT_PP, &c);
    bad += 1 != c || landed() != ppseq;
}

static void pp_notify_send(void)
{
    ppval = ppseq;
    MPIX_Put_notify(&ppval, 1, MPI_INT64_T, peer, OFF_PP, 1, MPI_INT64_T, SLOT_PP, win);
}

static void pp_notify(long n)
{
    for (long i = 0; i < n; ++i) {
        ++ppseq;
        if (0 == rank) {
            pp_notify_send();
            pp_notify_wait();
        } else {
            pp_notify_wait();
            pp_notify_send();
        }
    }
    /* ppval must stay until the last put completed */
    MPI_Win_flush(peer, win);
}

static void pp_putsend_wait(void)
{
    MPI_Recv(NULL, 0, MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad += landed() != ppseq;
}

static void pp_putsend_send(void)
{
    ppval = ppseq;
    MPI_Put(&ppval, 1, MPI_INT64_T, peer, OFF_PP, 1, MPI_INT64_T, win);
    MPI_Win_flush(peer, win);
    MPI_Send(NULL, 0, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
}

static void pp_putsend(long n)
{
    for (long i = 0; i < n; ++i) {
        ++ppseq;
        if (0 == rank) {
            pp_putsend_send();
            pp_putsend_wait();
        } else {
            pp_putsend_wait();
            pp_putsend_send();
        }
    }
}

#define MEASURED(name)                                                    \
    __attribute__((noinline)) void notify_bench_measured_##name(long n); \
    __attribute__((noinline)) void notify_bench_measured_##name(long n)  \
    {                                                                     \
        name(n);                                                          \
    }
MEASURED(pipe_notify)
MEASURED(pipe_getflush)
MEASURED(pipe_rget)
MEASURED(lat_notify)
MEASURED(lat_getflush)
#define M(name) notify_bench_measured_##name

static const metric_t metrics[] = {
    { "pipe_notify", "MB/s", lock_peer, pipe_notify, unlock_peer, NULL, 1, M(pipe_notify) },
    { "pipe_getflush", "MB/s", lock_peer, pipe_getflush, unlock_peer, NULL, 1, M(pipe_getflush) },
    { "pipe_rget", "MB/s", lock_peer, pipe_rget, unlock_peer, NULL, 1, M(pipe_rget) },
    { "lat_notify", "us", lock_peer, lat_notify, unlock_peer, NULL, 1, M(lat_notify) },
    { "lat_getflush", "us", lock_peer, lat_getflush, unlock_peer, NULL, 1, M(lat_getflush) },
    { "pp_notify", "us", lock_peer, pp_notify, unlock_peer, NULL, 2, NULL },
    { "pp_putsend", "us", lock_peer, pp_putsend, unlock_peer, NULL, 2, NULL },
};
#define NMETRICS ((int) (sizeof(metrics) / sizeof(metrics[0])))

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
    int size, first = 1, ok;
    long instr_n = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = 1 - rank;
    ok = 2 == size && argc >= 2;
    if (ok && 0 == strcmp(argv[1], "instr")) {
        ok = argc >= 4 && (instr_n = atol(argv[2])) > 0;
        first = 3;
    }
    for (int i = first; ok && i < argc; ++i) {
        const metric_t *m = find(argv[i]);
        ok = instr_n ? NULL != m && NULL != m->measured : 0 == strcmp(argv[i], "all") || m;
    }
    if (!ok) {
        if (0 == rank) {
            fprintf(stderr, "usage: mpirun -np 2 notify_bench METRIC...|all\n"
                            "       mpirun -np 2 notify_bench instr N METRIC...\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    MPI_Win_allocate(WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    for (long c = 0; c < NCHUNK; ++c) {
        for (long w = 0; w < WORDS; ++w) {
            uint64_t v = chunk_word(c, w);
            memcpy(base + c * CHUNK + w * 8, &v, 8);
        }
    }
    uint64_t lat = chunk_word(-1, 0);
    memcpy(base + OFF_LAT, &lat, 8);
    memset(base + OFF_PP, 0, 64);
    MPI_Win_unlock(rank, win);
    /* 64 slots on both paths (nothing needs it first: the default would
     * do; kept so that the numbers stay comparable with earlier runs). */
    MPIX_Win_set_num_notify(win, MPI_INFO_NULL, 64);
    MPI_Barrier(MPI_COMM_WORLD);
    dst = malloc((size_t) INFLIGHT * CHUNK);

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
            } else {
                ompix_bench_run(&harness, m);
            }
        }
    }
    MPI_Win_free(&win);
    free(dst);
    MPI_Finalize();
    return 0;
}
