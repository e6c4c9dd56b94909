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

#include "ompix_pcoll.h"

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

/* A counting error handler, for communicators and for windows: how many
 * errors it was handed, and the class of the last one. */
static int err_handler_calls, err_handler_class;

static inline void ompix_test_count_comm_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    err_handler_calls++;
    MPI_Error_class(*code, &err_handler_class);
}

static inline void ompix_test_count_win_error(MPI_Win *win, int *code, ...)
{
    (void)win;
    err_handler_calls++;
    MPI_Error_class(*code, &err_handler_class);
}

static inline MPI_Errhandler counting_comm_errhandler(void)
{
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(ompix_test_count_comm_error, &eh);
    return eh;
}

static inline MPI_Errhandler counting_win_errhandler(void)
{
    MPI_Errhandler eh;
    MPI_Win_create_errhandler(ompix_test_count_win_error, &eh);
    return eh;
}

/* The call must fail with `cls`, and the counting handler must see it once. */
#define CHECK_ERR(call, cls)                                                  \
    do {                                                                      \
        int before_ = err_handler_calls;                                      \
        CHECK_CLASS(call, cls);                                               \
        CHECK(err_handler_calls == before_ + 1 && err_handler_class == (cls));\
    } while (0)

/* This rank, the communicator size and the ring neighbours in
 * MPI_COMM_WORLD, set by ompix_test_init. */
static int rank, size, left, right;

/* MPI_Init_thread with `required`; returns the level provided. */
static inline int ompix_test_init_thread(int *argc, char ***argv, int required)
{
    int provided;

    MPI_Init_thread(argc, argv, required, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    return provided;
}

static inline void ompix_test_init(int *argc, char ***argv)
{
    (void) ompix_test_init_thread(argc, argv, MPI_THREAD_SINGLE);
}

/* A generalized request whose status reports 3 MPI_INT elements from
 * source 42 with tag 43; complete it with MPI_Grequest_complete. */
static inline int ompix_test_gquery(void *extra, MPI_Status *st)
{
    (void)extra;
    MPI_Status_set_elements(st, MPI_INT, 3);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = 42;
    st->MPI_TAG = 43;
    st->MPI_ERROR = MPI_SUCCESS;
    return MPI_SUCCESS;
}
static inline int ompix_test_gfree(void *extra) { (void)extra; return MPI_SUCCESS; }
static inline int ompix_test_gcancel(void *extra, int done) { (void)extra; (void)done; return MPI_SUCCESS; }

static inline MPI_Request grequest(void)
{
    MPI_Request g;
    MPI_Grequest_start(ompix_test_gquery, ompix_test_gfree, ompix_test_gcancel, NULL, &g);
    return g;
}

static inline MPI_Request completed_grequest(void)
{
    MPI_Request g = grequest();
    MPI_Grequest_complete(g);
    return g;
}

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
