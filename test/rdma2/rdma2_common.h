/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Helpers shared by the osc rdma2 acceptance tests: windows of every
 * flavor behind one handle, target displacements that work for all of
 * them, element layouts (contiguous, vector, indexed, struct) with the
 * element map to check data against, and failure reports that name the
 * rank, case, index, expected and received value.
 *
 * Every window holds elements of type elem_t (MPI_LONG_LONG).  Windows of
 * flavor create/allocate/shared use disp_unit sizeof(elem_t); dynamic
 * windows use disp_unit 1 and the attached buffer's address, so
 * rwin_disp() hides the difference.
 */
#ifndef RDMA2_COMMON_H
#define RDMA2_COMMON_H

#include "ompix_test.h"
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

typedef long long elem_t;
#define ELEM MPI_LONG_LONG

enum { FL_CREATE, FL_ALLOCATE, FL_DYNAMIC, FL_SHARED, NFLAVORS };
static const char *const flavor_name[NFLAVORS] = {"create", "allocate", "dynamic", "shared"};

struct rwin {
    MPI_Win win;
    int flavor;
    MPI_Aint nelem;          /* elements in this rank's part */
    elem_t *base;            /* this rank's part (NULL if nelem == 0 and allowed) */
    MPI_Aint *addr;          /* dynamic: every rank's attached address */
    void *own;               /* memory this helper malloc'ed */
};

/* Prints at most this many mismatches per report() label. */
#define REPORT_LIMIT 8
static int report_count;
static char report_label[256];

/* Starts a new check label ("case"); later report()s name it. */
static inline void set_case(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(report_label, sizeof report_label, fmt, ap);
    va_end(ap);
    report_count = 0;
}

/* Exact comparison of one element; records and (up to a limit) prints a
 * failure naming rank, case, what is checked, index, expected and got. */
static inline int check_eq(const char *what, long idx, long long expected, long long got)
{
    if (expected == got) {
        return 1;
    }
    ompix_test_failures++;
    if (report_count++ < REPORT_LIMIT) {
        printf("rank %d: case %s: %s index %ld: expected %lld, got %lld\n", rank,
               report_label, what, idx, expected, got);
        fflush(stdout);
    }
    return 0;
}

/* A failure that is not a value mismatch. */
static inline void fail(const char *fmt, ...)
{
    va_list ap;
    char msg[256];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ompix_test_failures++;
    printf("rank %d: case %s: %s\n", rank, report_label, msg);
    fflush(stdout);
}

/* MPI_SUCCESS or a failure naming the call. */
#define OK(call)                                                              \
    do {                                                                      \
        int rc_ = (call);                                                     \
        if (MPI_SUCCESS != rc_) {                                             \
            char s_[MPI_MAX_ERROR_STRING];                                    \
            int l_ = 0;                                                       \
            MPI_Error_string(rc_, s_, &l_);                                   \
            fail("%s:%d: %s failed: %s", __FILE__, __LINE__, #call, s_);      \
        }                                                                     \
    } while (0)

/* Whether windows of this flavor can be opened over comm (collective):
 * MPI_Win_allocate_shared needs ranks that share memory, which ranks on
 * several hosts do not (the tls=net leg, test/hosts). */
static inline int rwin_flavor_ok(int flavor, MPI_Comm comm)
{
    MPI_Comm node;
    int n, here;

    if (FL_SHARED != flavor) {
        return 1;
    }
    MPI_Comm_size(comm, &n);
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &here);
    MPI_Comm_free(&node);
    return here == n;
}

/* Opens a window of `nelem` elements per rank (nelem may differ between
 * ranks and may be 0) of the given flavor over `comm`. Errors on windows
 * return (the tests check return codes themselves). */
static inline void rwin_open(struct rwin *w, int flavor, MPI_Aint nelem, MPI_Comm comm)
{
    MPI_Aint bytes = nelem * (MPI_Aint) sizeof(elem_t);
    int n;
    memset(w, 0, sizeof *w);
    w->flavor = flavor;
    w->nelem = nelem;
    MPI_Comm_size(comm, &n);
    switch (flavor) {
    case FL_CREATE:
        w->own = malloc(bytes ? (size_t) bytes : 1);
        w->base = w->own;
        OK(MPI_Win_create(w->base, bytes, sizeof(elem_t), MPI_INFO_NULL, comm, &w->win));
        break;
    case FL_ALLOCATE:
        OK(MPI_Win_allocate(bytes, sizeof(elem_t), MPI_INFO_NULL, comm, &w->base, &w->win));
        break;
    case FL_SHARED:
        OK(MPI_Win_allocate_shared(bytes, sizeof(elem_t), MPI_INFO_NULL, comm, &w->base, &w->win));
        break;
    case FL_DYNAMIC: {
        MPI_Aint mine;
        w->own = malloc(bytes ? (size_t) bytes : 1);
        w->base = w->own;
        OK(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win));
        if (bytes) {
            OK(MPI_Win_attach(w->win, w->base, bytes));
        }
        MPI_Get_address(w->base, &mine);
        w->addr = malloc(n * sizeof(MPI_Aint));
        MPI_Allgather(&mine, 1, MPI_AINT, w->addr, 1, MPI_AINT, comm);
        break;
    }
    }
    MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
}

static inline void rwin_close(struct rwin *w)
{
    if (FL_DYNAMIC == w->flavor && w->nelem) {
        OK(MPI_Win_detach(w->win, w->base));
    }
    OK(MPI_Win_free(&w->win));
    free(w->own);
    free(w->addr);
    w->own = NULL;
    w->addr = NULL;
}

/* Target displacement of element `idx` of rank `target`'s part. */
static inline MPI_Aint rwin_disp(const struct rwin *w, int target, MPI_Aint idx)
{
    if (FL_DYNAMIC == w->flavor) {
        return MPI_Aint_add(w->addr[target], idx * (MPI_Aint) sizeof(elem_t));
    }
    return idx;
}

/* Element layouts: `count` elements of elem_t at element offsets map[]
 * (in type-map order) inside a span of `span` elements. */
#define MAXCNT 12
#define LAYOUT_SPAN 24
enum { LY_CONTIG, LY_VECTOR, LY_INDEXED, LY_STRUCT, NLAYOUTS };
static const char *const layout_name[NLAYOUTS] = {"contig", "vector", "indexed", "struct"};

struct layout {
    int kind;
    MPI_Datatype type;       /* one instance describes all `count` elements */
    int count;
    int map[MAXCNT];
};

/* Builds layout `kind` with MAXCNT elements.  vector: blocks of 2, stride 3;
 * indexed: blocks out of address order; struct: blocks of elem_t at byte
 * displacements, also out of order, resized to LAYOUT_SPAN elements. */
static inline void layout_make(struct layout *l, int kind)
{
    int i, k = 0;
    l->kind = kind;
    l->count = MAXCNT;
    switch (kind) {
    case LY_CONTIG:
        MPI_Type_contiguous(MAXCNT, ELEM, &l->type);
        for (i = 0; i < MAXCNT; ++i) {
            l->map[i] = i;
        }
        break;
    case LY_VECTOR:
        MPI_Type_vector(MAXCNT / 2, 2, 3, ELEM, &l->type);
        for (i = 0; i < MAXCNT; ++i) {
            l->map[i] = (i / 2) * 3 + i % 2;
        }
        break;
    case LY_INDEXED: {
        /* 12 elements: [20,21,22] [0] [5,6] [15] [9,10,11,12] [2] */
        int bl[6] = {3, 1, 2, 1, 4, 1}, dp[6] = {20, 0, 5, 15, 9, 2};
        MPI_Type_indexed(6, bl, dp, ELEM, &l->type);
        for (i = 0; i < 6; ++i) {
            for (int j = 0; j < bl[i]; ++j) {
                l->map[k++] = dp[i] + j;
            }
        }
        break;
    }
    case LY_STRUCT: {
        /* 12 elements: [7,8] [1] [17,18,19] [3,4] [13] [21,22,23] */
        int bl[6] = {2, 1, 3, 2, 1, 3};
        int el[6] = {7, 1, 17, 3, 13, 21};
        MPI_Aint dp[6];
        MPI_Datatype ty[6], t;
        for (i = 0; i < 6; ++i) {
            dp[i] = el[i] * (MPI_Aint) sizeof(elem_t);
            ty[i] = ELEM;
            for (int j = 0; j < bl[i]; ++j) {
                l->map[k++] = el[i] + j;
            }
        }
        MPI_Type_create_struct(6, bl, dp, ty, &t);
        MPI_Type_create_resized(t, 0, LAYOUT_SPAN * (MPI_Aint) sizeof(elem_t), &l->type);
        MPI_Type_free(&t);
        break;
    }
    }
    MPI_Type_commit(&l->type);
}

static inline void layout_free(struct layout *l)
{
    MPI_Type_free(&l->type);
}

#endif
