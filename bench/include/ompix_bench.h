/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What every ompix benchmark program needs: a monotonic clock and the
 * median of repetitions (bench/run compiles them with -I bench/include).
 */
#ifndef OMPIX_BENCH_H
#define OMPIX_BENCH_H

#include <stdlib.h>
#include <time.h>

/* Seconds on a monotonic clock. */
static inline double ompix_bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static inline int ompix_bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

/* Median of v[0..n-1] (sorts v). */
static inline double ompix_bench_median(double *v, int n)
{
    qsort(v, n, sizeof(*v), ompix_bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
