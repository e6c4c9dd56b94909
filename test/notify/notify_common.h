/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Helpers shared by the notified-RMA tests: byte windows of every flavor
 * osc/rdma2 serves (allocate, create, dynamic) behind one handle, a byte
 * pattern that differs per owner and per offset (so a stale or shifted
 * read is caught), taking notifications with a deadline instead of
 * waiting forever (a lost notification is a failure, not a hang), and
 * what the generic-path variants (NOTIFY_GENERIC, the *_gen.c files) must
 * do differently.
 *
 * Windows have disp_unit 1; dynamic windows attach one buffer per rank
 * and nwin_disp() adds its address, so callers never see the difference.
 */
#ifndef NOTIFY_COMMON_H
#define NOTIFY_COMMON_H

#define _POSIX_C_SOURCE 200809L
#include "ompix_test.h"
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#ifndef NOTIFY_GENERIC
#define NOTIFY_GENERIC 0
#endif

/* Seconds a test waits for a notification before it counts as lost. */
#define NOTIFY_DEADLINE 20.0

/* NOTIFY_SHARED: the flavors include MPI_Win_allocate_shared windows
 * (generic variants on one node, where osc sm serves them; osc/rdma2 does
 * not). */
#ifndef NOTIFY_SHARED
#define NOTIFY_SHARED 0
#endif
enum { NF_ALLOCATE, NF_CREATE, NF_DYNAMIC, NF_SHARED };
#define NF_COUNT (NOTIFY_SHARED ? NF_SHARED + 1 : NF_SHARED)
static const char *const nf_name[] = {"allocate", "create", "dynamic", "shared"};
#define PATH_NAME (NOTIFY_GENERIC ? "generic" : "rdma2")

typedef struct {
    MPI_Win win;
    int flavor;
    MPI_Aint bytes;
    unsigned char *base;     /* this rank's part */
    MPI_Aint *addr;          /* dynamic: every rank's attached address */
    void *own;               /* memory this helper allocated */
} nwin_t;

#define OK(call) CHECK(MPI_SUCCESS == (call))

static inline double notify_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* A failure that is not a plain CHECK, with context. */
static inline void notify_fail(const char *fmt, ...)
{
    va_list ap;
    char msg[512];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ompix_test_failures++;
    printf("rank %d: %s\n", rank, msg);
    fflush(stdout);
}

/* The byte at offset `off` of rank `owner`'s window part. */
static inline unsigned char pat(int owner, MPI_Aint off)
{
    return (unsigned char) (owner * 131 + off * 7 + (off >> 8) * 3 + 1);
}

static inline void nwin_open(nwin_t *w, int flavor, MPI_Aint bytes, MPI_Comm comm)
{
    int n;
    memset(w, 0, sizeof *w);
    w->flavor = flavor;
    w->bytes = bytes;
    MPI_Comm_size(comm, &n);
    switch (flavor) {
    case NF_ALLOCATE:
        OK(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, comm, &w->base, &w->win));
        break;
    case NF_SHARED:
        OK(MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, comm, &w->base, &w->win));
        break;
    case NF_CREATE:
        w->own = malloc((size_t) bytes);
        w->base = w->own;
        OK(MPI_Win_create(w->base, bytes, 1, MPI_INFO_NULL, comm, &w->win));
        break;
    default: {
        MPI_Aint mine;
        w->own = malloc((size_t) bytes);
        w->base = w->own;
        OK(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win));
        OK(MPI_Win_attach(w->win, w->base, bytes));
        MPI_Get_address(w->base, &mine);
        w->addr = malloc(n * sizeof(MPI_Aint));
        MPI_Allgather(&mine, 1, MPI_AINT, w->addr, 1, MPI_AINT, comm);
        break;
    }
    }
    MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
}

static inline void nwin_close(nwin_t *w)
{
    if (NF_DYNAMIC == w->flavor) {
        OK(MPI_Win_detach(w->win, w->base));
    }
    OK(MPI_Win_free(&w->win));
    free(w->own);
    free(w->addr);
    w->own = NULL;
    w->addr = NULL;
}

/* Target displacement of byte `off` of rank `target`'s part. */
static inline MPI_Aint nwin_disp(const nwin_t *w, int target, MPI_Aint off)
{
    return NF_DYNAMIC == w->flavor ? MPI_Aint_add(w->addr[target], off) : off;
}

/* Fills this rank's part with pat() (inside an exclusive self-lock, so the
 * store is ordered with the others' later accesses in any memory model),
 * then a barrier. */
static inline void nwin_fill(nwin_t *w)
{
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    for (MPI_Aint i = 0; i < w->bytes; ++i) {
        w->base[i] = pat(rank, i);
    }
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Takes one notification in [first, first+num): waitsome, then reset.
 * Returns 1 with *id and *count (the count the reset took: 0 when another
 * thread took it first), or 0 after NOTIFY_DEADLINE seconds. */
static inline int notify_take(MPI_Win win, int first, int num, int *id, MPI_Count *count)
{
    double end = notify_now() + NOTIFY_DEADLINE;
    do {
        int got = -7;
        if (MPI_SUCCESS != MPIX_Win_notify_waitsome(win, first, num, 100, &got)) {
            notify_fail("MPIX_Win_notify_waitsome(%d, %d) failed", first, num);
            return 0;
        }
        if (MPIX_NOTIFY_NONE == got) {
            continue;
        }
        if (got < first || got >= first + num) {
            notify_fail("waitsome [%d, %d) returned id %d", first, first + num, got);
            return 0;
        }
        *id = got;
        *count = -1;
        if (MPI_SUCCESS != MPIX_Win_notify_reset(win, got, count)) {
            notify_fail("MPIX_Win_notify_reset(%d) failed", got);
            return 0;
        }
        return 1;
    } while (notify_now() < end);
    return 0;
}

/* Nothing left in [first, first+num): waitsome with timeout 0 finds no
 * slot set (an increment consumed twice or never consumed shows here). */
static inline void notify_check_empty(MPI_Win win, int first, int num, const char *what)
{
    int id = -7;
    OK(MPIX_Win_notify_waitsome(win, first, num, 0, &id));
    if (MPIX_NOTIFY_NONE != id) {
        MPI_Count v = -1;
        MPIX_Win_get_notify_value(win, id, &v);
        notify_fail("%s: slot %d still holds %lld after every expected notification was taken",
                    what, id, (long long) v);
    }
}

/* The group of every rank but this one (PSCW epochs). */
static inline MPI_Group notify_others_group(void)
{
    MPI_Group world, others;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_excl(world, 1, &rank, &others);
    MPI_Group_free(&world);
    return others;
}

/* The MPI_T tests' main (notify_mpit.c, notify_consumed.c): MPI, then an
 * MPI_T session *session, check() (unless NULL), one(f) on a window of
 * every flavor; returns the exit status. */
static inline int notify_mpit_main(int *argc, char ***argv, MPI_T_pvar_session *session,
                                   void (*check)(void), void (*one)(int), const char *name)
{
    int provided;

    ompix_test_init(argc, argv);
    OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    OK(MPI_T_pvar_session_create(session));
    if (NULL != check) {
        check();
    }
    for (int f = 0; f < NF_COUNT; ++f) {
        one(f);
    }
    OK(MPI_T_pvar_session_free(session));
    OK(MPI_T_finalize());
    return ompix_test_finish(name);
}

#endif
