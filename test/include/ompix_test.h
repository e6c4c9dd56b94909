/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Shared helpers for ompix's MPI tests: CHECK records a failure with its
 * location instead of aborting, so one run reports every broken rule;
 * ompix_test_finish() agrees on the outcome across ranks and sets the exit
 * status the runner reads.
 */
#ifndef OMPIX_TEST_H
#define OMPIX_TEST_H

#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>

static int ompix_test_failures;

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) {                                                        \
            int r_;                                                           \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                               \
            printf("rank %d: %s:%d: check failed: %s\n", r_, __FILE__,        \
                   __LINE__, #cond);                                          \
            fflush(stdout);                                                   \
            ompix_test_failures++;                                            \
        }                                                                     \
    } while (0)

/* The error class of a return code (MPI_SUCCESS stays MPI_SUCCESS). */
static inline int err_class(int rc)
{
    int cls = rc;
    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    }
    return cls;
}

#define CHECK_CLASS(call, cls)                                                \
    do {                                                                      \
        int got_ = err_class(call);                                           \
        if (got_ != (cls)) {                                                  \
            int r_;                                                           \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                               \
            printf("rank %d: %s:%d: %s returned class %d, expected %s (%d)\n",\
                   r_, __FILE__, __LINE__, #call, got_, #cls, (cls));         \
            fflush(stdout);                                                   \
            ompix_test_failures++;                                            \
        }                                                                     \
    } while (0)

/* Finalizes MPI and returns the process exit status: 0 only if no rank
 * recorded a failure. */
static inline int ompix_test_finish(const char *name)
{
    int total = 0, rank;
    MPI_Allreduce(&ompix_test_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (0 == rank) {
        printf("%s: %s (%d failed checks)\n", name, total ? "FAILED" : "ok", total);
    }
    MPI_Finalize();
    return total ? 1 : 0;
}

#endif
