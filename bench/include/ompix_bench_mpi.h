/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The harness of the two-rank MPI benchmark programs (rdma2_bench,
 * notify_bench): a metric is a loop with optional untimed setup, teardown
 * and check; run() times repetitions of a calibrated length and prints the
 * median in the BEGIN/RESULT/FAILED/NOTE protocol bench/run reads; instr()
 * runs a metric's loop under its callgrind name once.  Each program
 * describes itself with one ompix_bench_harness_t.
 */
#ifndef OMPIX_BENCH_MPI_H
#define OMPIX_BENCH_MPI_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "ompix_bench.h"

typedef struct ompix_bench_metric_t {
    const char *name, *unit;       /* unit "MB/s": bandwidth, else µs (or ms) per operation */
    void (*setup)(void);           /* before each timed repetition, untimed, or NULL */
    void (*loop)(long n);          /* n iterations, timed */
    void (*teardown)(void);        /* after each repetition, untimed, or NULL */
    void (*check)(void);           /* once at the end (collective): counts into *bad, or NULL */
    int ops;                       /* operations per iteration (2 for ping-pongs) */
    void (*measured)(long n);      /* loop under its callgrind name (instr), or NULL */
} ompix_bench_metric_t;

typedef struct ompix_bench_harness_t {
    int reps, min_reps;            /* repetitions per metric: at most, at least */
    double rep_seconds;            /* a repetition lasts about this long */
    double metric_seconds;         /* no repetition starts after this (past min_reps) */
    double bytes_per_iteration;    /* of "MB/s" metrics */
    long instr_warmup;             /* untimed iterations before instr's counted loop */
    long *bad;                     /* wrong results this rank saw in the current metric */
    double metric_start;           /* MPI_Wtime() when the current metric began */
    double elapsed;                /* since then, the later rank's, as of the last repetition */
} ompix_bench_harness_t;

static inline void ompix_bench_call(void (*fn)(void))
{
    if (fn) {
        fn();
    }
}

/* One repetition of n iterations: the slower rank's seconds (for
 * origin-only loops, rank 0's: rank 1 returns at once).  Also sets
 * h->elapsed, the same on both ranks. */
static inline double ompix_bench_timed(ompix_bench_harness_t *h, const ompix_bench_metric_t *m,
                                       long n)
{
    double t0, mine[2], worst[2];
    MPI_Barrier(MPI_COMM_WORLD);
    ompix_bench_call(m->setup);
    t0 = MPI_Wtime();
    m->loop(n);
    mine[0] = MPI_Wtime() - t0;
    ompix_bench_call(m->teardown);
    mine[1] = MPI_Wtime() - h->metric_start;
    MPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    h->elapsed = worst[1];
    return worst[0];
}

/* Iterations for a repetition of about h->rep_seconds.  Both ranks compute
 * the same n from the same allreduced time, so collective loops (fence,
 * PSCW, window creation) stay matched. */
static inline long ompix_bench_calibrate(ompix_bench_harness_t *h, const ompix_bench_metric_t *m)
{
    long n = 4;
    double t = ompix_bench_timed(h, m, n);
    while (t < h->rep_seconds / 16 && n < (1L << 30)) {
        n *= 8;
        t = ompix_bench_timed(h, m, n);
    }
    double want = n * h->rep_seconds / (t > 0 ? t : 1e-9);
    return want < 2 ? 2 : (long) want;
}

/* Collective: true if some rank saw a wrong result (rank 0 prints the
 * FAILED line). */
static inline int ompix_bench_failed(ompix_bench_harness_t *h, const char *name)
{
    long allbad;
    int rank;
    MPI_Allreduce(h->bad, &allbad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (allbad && 0 == rank) {
        printf("FAILED %s wrong results in %ld operations or checks\n", name, allbad);
        fflush(stdout);
    }
    return 0 != allbad;
}

/* Collective: the result, unless some rank saw a wrong result or `why`. */
static inline void ompix_bench_report(ompix_bench_harness_t *h, const char *name,
                                      const char *unit, double value, const char *why)
{
    int rank;
    if (ompix_bench_failed(h, name)) {
        return;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (0 == rank) {
        if (why) {
            printf("FAILED %s %s\n", name, why);
        } else {
            printf("RESULT %s %s %.6g\n", name, unit, value);
        }
        fflush(stdout);
    }
}

/* Times a metric: an untimed warm-up (first accesses set up peer state),
 * calibration, then up to h->reps repetitions; reports their median. */
static inline void ompix_bench_run(ompix_bench_harness_t *h, const ompix_bench_metric_t *m)
{
    double v[h->reps];
    int reps = 0, rank;
    h->metric_start = MPI_Wtime();
    ompix_bench_timed(h, m, 4);
    long n = ompix_bench_calibrate(h, m);
    /* elapsed is allreduced, so both ranks stop after the same repetition
     * and the collective loops stay matched */
    while (reps < h->reps && (reps < h->min_reps || h->elapsed < h->metric_seconds)) {
        double t = ompix_bench_timed(h, m, n);
        v[reps++] = 0 == strcmp(m->unit, "MB/s") ? (double) n * h->bytes_per_iteration / t / 1e6
                                                 : t / ((double) n * m->ops) * 1e6;
    }
    ompix_bench_call(m->check);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (0 == rank && reps < h->reps) {
        printf("NOTE %s median of %d repetitions (of %d): its %.1f s budget was spent\n", m->name,
               reps, h->reps, h->metric_seconds);
    }
    ompix_bench_report(h, m->name, m->unit, ompix_bench_median(v, reps), NULL);
}

/* instr: the metric's loop once under its callgrind name (m->measured), n
 * iterations, after an untimed warm-up; prints INSTR or FAILED. */
static inline void ompix_bench_instr(ompix_bench_harness_t *h, const ompix_bench_metric_t *m,
                                     long n)
{
    int rank;
    ompix_bench_call(m->setup);
    m->loop(h->instr_warmup);
    ompix_bench_call(m->teardown);
    MPI_Barrier(MPI_COMM_WORLD);
    ompix_bench_call(m->setup);
    m->measured(n);
    ompix_bench_call(m->teardown);
    MPI_Barrier(MPI_COMM_WORLD);
    ompix_bench_call(m->check);
    if (ompix_bench_failed(h, m->name)) {
        return;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (0 == rank) {
        printf("INSTR %s ok\n", m->name);
        fflush(stdout);
    }
}

#endif
