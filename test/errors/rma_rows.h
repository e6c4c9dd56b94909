/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The RMA rows of the error matrix (errors_matrix.h): every operation
 * (Put, Get, Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap,
 * the four request-based forms, and the notify extension's notified
 * operations and their request forms) with every bad target range (INTPTR_MAX,
 * INTPTR_MAX - 7, a negative displacement, a range straddling the end, a
 * target datatype whose extent times count overflows, a displacement
 * whose product with the disp unit wraps to 0) on every flavor (allocate,
 * create, dynamic: MPI_ERR_RMA_RANGE; dynamic ranges must lie in an
 * attached region); NULL buffers with a count (MPI_ERR_BUFFER), derived
 * and null datatypes (MPI_ERR_TYPE), wrong epochs (MPI_ERR_RMA_SYNC),
 * allocations no memory can hold (MPI_ERR_NO_MEM on every rank), double
 * free (MPI_ERR_WIN), attach/detach misuse (MPI_ERR_RMA_ATTACH,
 * MPI_ERR_RMA_FLAVOR).  Rank 0 makes the call, toward rank 1 (itself with
 * one rank).  rma.c runs them on osc/rdma2, rma_stock.c the baseline
 * rows on the stock components.
 */
#ifndef RMA_ROWS_H
#define RMA_ROWS_H

#include "errors_matrix.h"
#include <sys/statvfs.h>

#define RMA_BYTES 64

enum { RMA_ALLOCATE, RMA_CREATE, RMA_DYNAMIC };
static const char *const rma_flavor[] = {"allocate", "create", "dynamic"};

typedef struct {
    MPI_Win win;
    void *mem;                  /* create/dynamic: our buffer */
    MPI_Aint target_base;       /* dynamic: the target's attached address */
    int target, flavor;
} rma_win_t;

static inline void rma_open(rma_win_t *w, int flavor, int disp_unit)
{
    MPI_Aint mine = 0;

    w->target = size > 1 ? 1 : 0;
    w->flavor = flavor;
    w->mem = NULL;
    w->target_base = 0;
    if (RMA_ALLOCATE == flavor) {
        void *base;
        MPI_Win_allocate(RMA_BYTES, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w->win);
        memset(base, 0, RMA_BYTES);
    } else {
        w->mem = calloc(1, RMA_BYTES);
        if (RMA_CREATE == flavor) {
            MPI_Win_create(w->mem, RMA_BYTES, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, &w->win);
        } else {
            MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->win);
            MPI_Win_attach(w->win, w->mem, RMA_BYTES);
            MPI_Get_address(w->mem, &mine);
        }
    }
    /* the target's attached address (0 for the other flavors) */
    MPI_Bcast(&mine, 1, MPI_AINT, w->target, MPI_COMM_WORLD);
    w->target_base = mine;
    errors_watch_win(w->win);
}

static inline void rma_close(rma_win_t *w)
{
    MPI_Win_set_errhandler(w->win, MPI_ERRORS_ARE_FATAL);
    if (RMA_DYNAMIC == w->flavor) {
        MPI_Win_detach(w->win, w->mem);
    }
    MPI_Win_free(&w->win);
    free(w->mem);
}

/* ---- operations ---------------------------------------------------- */

/* The notified operations (slot 0) reach osc/rdma2 through the notify
 * extension's registry: their range checks are rdma2's. */
enum { OP_PUT, OP_GET, OP_ACC, OP_GACC, OP_FOP, OP_CAS, OP_RPUT, OP_RGET, OP_RACC, OP_RGACC,
       OP_PUTN, OP_GETN, OP_READN, OP_ACCN, OP_GACCN, OP_RPUTN, OP_RGETN, OP_RACCN, OP_RGACCN,
       NOPS };
static const char *const rma_op_name[] = {
    "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op",
    "MPI_Compare_and_swap", "MPI_Rput", "MPI_Rget", "MPI_Raccumulate", "MPI_Rget_accumulate",
    "MPIX_Put_notify", "MPIX_Get_notify", "MPIX_Win_read_notify", "MPIX_Accumulate_notify",
    "MPIX_Get_accumulate_notify", "MPIX_Rput_notify", "MPIX_Rget_notify",
    "MPIX_Raccumulate_notify", "MPIX_Rget_accumulate_notify"};

/* One operation: origin/result/compare buffers and types given; a request
 * form waits for its request, whose error counts as the call's. */
typedef struct {
    void *origin, *result, *compare;
    int count, tcount;
    MPI_Datatype dt, tdt;
    MPI_Aint disp;
} rma_args_t;

static inline int rma_wait(int rc, MPI_Request *req)
{
    return MPI_SUCCESS == rc ? MPI_Wait(req, MPI_STATUS_IGNORE) : rc;
}

/* The notified forms of Get_accumulate and the request forms (slot 0). */
static inline int rma_do_notify(int op, const rma_args_t *a, int t, MPI_Win win)
{
    MPI_Request req = MPI_REQUEST_NULL;

    switch (op) {
    case OP_GACCN:
        return MPIX_Get_accumulate_notify(a->origin, a->count, a->dt, a->result, a->count, a->dt,
                                          t, a->disp, a->tcount, a->tdt, MPI_SUM, 0, win);
    case OP_RPUTN:
        return rma_wait(MPIX_Rput_notify(a->origin, a->count, a->dt, t, a->disp, a->tcount,
                                         a->tdt, 0, win, &req), &req);
    case OP_RGETN:
        return rma_wait(MPIX_Rget_notify(a->origin, a->count, a->dt, t, a->disp, a->tcount,
                                         a->tdt, 0, win, &req), &req);
    case OP_RACCN:
        return rma_wait(MPIX_Raccumulate_notify(a->origin, a->count, a->dt, t, a->disp,
                                                a->tcount, a->tdt, MPI_SUM, 0, win, &req), &req);
    case OP_RGACCN:
        return rma_wait(MPIX_Rget_accumulate_notify(a->origin, a->count, a->dt, a->result,
                                                    a->count, a->dt, t, a->disp, a->tcount,
                                                    a->tdt, MPI_SUM, 0, win, &req), &req);
    default: return MPI_ERR_INTERN;
    }
}

static inline int rma_do(int op, const rma_args_t *a, int t, MPI_Win win)
{
    MPI_Request req = MPI_REQUEST_NULL;

    switch (op) {
    case OP_PUT: return MPI_Put(a->origin, a->count, a->dt, t, a->disp, a->tcount, a->tdt, win);
    case OP_GET: return MPI_Get(a->origin, a->count, a->dt, t, a->disp, a->tcount, a->tdt, win);
    case OP_ACC:
        return MPI_Accumulate(a->origin, a->count, a->dt, t, a->disp, a->tcount, a->tdt,
                              MPI_SUM, win);
    case OP_GACC:
        return MPI_Get_accumulate(a->origin, a->count, a->dt, a->result, a->count, a->dt, t,
                                  a->disp, a->tcount, a->tdt, MPI_SUM, win);
    case OP_FOP: return MPI_Fetch_and_op(a->origin, a->result, a->dt, t, a->disp, MPI_SUM, win);
    case OP_CAS:
        return MPI_Compare_and_swap(a->origin, a->compare, a->result, a->dt, t, a->disp, win);
    case OP_RPUT:
        return rma_wait(MPI_Rput(a->origin, a->count, a->dt, t, a->disp, a->tcount, a->tdt,
                                 win, &req), &req);
    case OP_RGET:
        return rma_wait(MPI_Rget(a->origin, a->count, a->dt, t, a->disp, a->tcount, a->tdt,
                                 win, &req), &req);
    case OP_RACC:
        return rma_wait(MPI_Raccumulate(a->origin, a->count, a->dt, t, a->disp, a->tcount,
                                        a->tdt, MPI_SUM, win, &req), &req);
    case OP_PUTN:
        return MPIX_Put_notify(a->origin, a->count, a->dt, t, a->disp, a->tcount, a->tdt, 0, win);
    case OP_GETN:
        return MPIX_Get_notify(a->origin, a->count, a->dt, t, a->disp, a->tcount, a->tdt, 0, win);
    case OP_READN:
        return MPIX_Win_read_notify(a->origin, a->count, a->dt, t, a->disp, a->tcount, a->tdt, 0,
                                    win);
    case OP_ACCN:
        return MPIX_Accumulate_notify(a->origin, a->count, a->dt, t, a->disp, a->tcount, a->tdt,
                                      MPI_SUM, 0, win);
    case OP_RGACC:
        return rma_wait(MPI_Rget_accumulate(a->origin, a->count, a->dt, a->result, a->count,
                                            a->dt, t, a->disp, a->tcount, a->tdt, MPI_SUM, win,
                                            &req), &req);
    default: return rma_do_notify(op, a, t, win);
    }
}

/* Rank 0 makes `op` with `a` inside a shared lock of the target. */
static inline int rma_locked(int op, const rma_args_t *a, rma_win_t *w)
{
    int rc = ERRORS_NOCALL;

    if (0 == rank) {
        MPI_Win_lock(MPI_LOCK_SHARED, w->target, 0, w->win);
        rc = rma_do(op, a, w->target, w->win);
        MPI_Win_unlock(w->target, w->win);
    }
    return rc;
}

/* ---- bad target ranges ---------------------------------------------- */

enum { BAD_MAX, BAD_MAX7, BAD_NEG, BAD_END, BAD_EXTENT, BAD_UNIT, NBAD };
static const char *const rma_bad_name[] = {
    "disp INTPTR_MAX", "disp INTPTR_MAX-7", "disp -8", "range straddles the end",
    "target extent x count overflows", "disp x disp_unit 8 wraps to 0"};

/* row->arg: op * 16 + flavor; row->arg2: the bad input */
static int rma_row_range(const errors_row_t *row)
{
    int op = (int) (row->arg / 16), flavor = (int) (row->arg % 16), bad = (int) row->arg2;
    int origin[8] = {1, 1, 1, 1, 1, 1, 1, 1}, result[8], compare[1] = {0};
    rma_args_t a = {origin, result, compare, 1, 1, MPI_INT, MPI_INT, 0};
    MPI_Datatype huge = MPI_DATATYPE_NULL;
    rma_win_t w;
    int rc;

    rma_open(&w, flavor, BAD_UNIT == bad ? 8 : 1);
    switch (bad) {
    case BAD_MAX: a.disp = INTPTR_MAX; break;
    case BAD_MAX7: a.disp = INTPTR_MAX - 7; break;
    case BAD_NEG: a.disp = -8; break;
    case BAD_END: a.disp = w.target_base + RMA_BYTES - 2; break;
    case BAD_UNIT: a.disp = (MPI_Aint) 1 << 61; break;
    default:
        MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint) 1 << 62, &huge);
        MPI_Type_commit(&huge);
        a.disp = w.target_base;
        a.tdt = huge;
        a.count = a.tcount = 4;
    }
    rc = rma_locked(op, &a, &w);
    rma_close(&w);
    if (MPI_DATATYPE_NULL != huge) MPI_Type_free(&huge);
    return rc;
}

/* ---- other bad inputs ----------------------------------------------- */

/* row->arg: op; a NULL origin (result for the fetching forms, compare for
 * Compare_and_swap) with a count of predefined elements: nothing is mapped
 * at page 0, so MPI_BOTTOM with a predefined type names no valid buffer. */
static int rma_row_null_buffer(const errors_row_t *row)
{
    int op = (int) row->arg, origin[1] = {1}, result[1], compare[1] = {0};
    rma_args_t a = {NULL, result, compare, 1, 1, MPI_INT, MPI_INT, 0};
    rma_win_t w;
    int rc;

    if (row->arg2) {            /* the result (compare) buffer is the NULL one */
        a.origin = origin;
        if (OP_CAS == op) a.compare = NULL; else a.result = NULL;
    }
    rma_open(&w, RMA_ALLOCATE, 1);
    a.disp = w.target_base;
    rc = rma_locked(op, &a, &w);
    rma_close(&w);
    return rc;
}

/* row->arg: op; row->arg2: 0 MPI_DATATYPE_NULL, 1 a derived type (an
 * MPI_INT contiguous of 1), which MPI allows for neither fetch_and_op nor
 * compare_and_swap */
static int rma_row_type(const errors_row_t *row)
{
    int origin[1] = {1}, result[1], compare[1] = {0};
    rma_args_t a = {origin, result, compare, 1, 1, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, 0};
    MPI_Datatype derived = MPI_DATATYPE_NULL;
    rma_win_t w;
    int rc;

    if (row->arg2) {
        MPI_Type_contiguous(1, MPI_INT, &derived);
        MPI_Type_commit(&derived);
        a.dt = a.tdt = derived;
    }
    rma_open(&w, RMA_ALLOCATE, 1);
    rc = rma_locked((int) row->arg, &a, &w);
    rma_close(&w);
    if (MPI_DATATYPE_NULL != derived) MPI_Type_free(&derived);
    return rc;
}

/* A passive epoch inside a fence epoch that an operation opened:
 * row->arg 0 MPI_Win_lock, 1 MPI_Win_lock_all. */
static int rma_row_lock_in_fence(const errors_row_t *row)
{
    int one = 1, rc = ERRORS_NOCALL;
    rma_win_t w;

    rma_open(&w, (int) row->arg2, 1);
    MPI_Win_fence(0, w.win);
    if (0 == rank) {
        MPI_Put(&one, 1, MPI_INT, w.target, w.target_base, 1, MPI_INT, w.win);
        rc = row->arg ? MPI_Win_lock_all(0, w.win)
                      : MPI_Win_lock(MPI_LOCK_SHARED, w.target, 0, w.win);
        if (MPI_SUCCESS == rc && row->arg) MPI_Win_unlock_all(w.win);
        if (MPI_SUCCESS == rc && !row->arg) MPI_Win_unlock(w.target, w.win);
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win);
    rma_close(&w);
    return rc;
}

/* Bytes free in /dev/shm (0 where there is none). */
static inline unsigned long long rma_shm_free(void)
{
    struct statvfs st;
    return 0 == statvfs("/dev/shm", &st) ? (unsigned long long) st.f_bavail * st.f_frsize : 0;
}

/* MPI_Win_allocate of 2^50 bytes: row->arg 0 on every rank, 1 on rank 0
 * only (the others ask for 64 bytes); every rank must get the error at
 * once (a hang is the row's timeout), reported on the communicator, and
 * /dev/shm must not have lost more than 64 MiB to the attempt.  Open
 * MPI's MPI_Win_allocate binding turns every component error into
 * MPI_ERR_WIN, so the class MPI names (MPI_ERR_NO_MEM) can not come
 * through: an ERRORS_BINDING row. */
static int rma_row_huge(const errors_row_t *row)
{
    MPI_Aint bytes = (!row->arg || 0 == rank) ? (MPI_Aint) 1 << 50 : RMA_BYTES;
    unsigned long long before = rma_shm_free();
    MPI_Win win = MPI_WIN_NULL;
    void *base;
    int rc;

    errors_watch_comm(MPI_COMM_WORLD);
    rc = MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (MPI_SUCCESS == rc) MPI_Win_free(&win);
    if (MPI_SUCCESS != rc && rma_shm_free() + (64ull << 20) < before) {
        printf("rank %d: MPI_Win_allocate of %lld bytes left %llu bytes in /dev/shm\n", rank,
               (long long) bytes, before - rma_shm_free());
        rc = MPI_ERR_INTERN;
    }
    return rc;
}

/* Synchronization calls without their epoch: row->arg selects. */
static int rma_row_epoch(const errors_row_t *row)
{
    rma_win_t w;
    MPI_Group g;
    int rc = ERRORS_NOCALL;

    rma_open(&w, (int) row->arg2, 1);
    if (0 == rank) {
        switch (row->arg) {
        case 0: rc = MPI_Win_unlock(w.target, w.win); break;
        case 1: rc = MPI_Win_unlock_all(w.win); break;
        case 2: rc = MPI_Win_flush(w.target, w.win); break;
        case 3: rc = MPI_Win_complete(w.win); break;
        case 4: rc = MPI_Win_wait(w.win); break;
        case 5:
            MPI_Win_get_group(w.win, &g);
            MPI_Win_lock(MPI_LOCK_SHARED, w.target, 0, w.win);
            rc = MPI_Win_start(g, 0, w.win);
            MPI_Win_unlock(w.target, w.win);
            MPI_Group_free(&g);
            break;
        default:
            MPI_Win_lock(MPI_LOCK_SHARED, w.target, 0, w.win);
            rc = MPI_Win_lock(MPI_LOCK_SHARED, w.target, 0, w.win);
            MPI_Win_unlock(w.target, w.win);
        }
    }
    rma_close(&w);
    return rc;
}

/* MPI_Win_free while this rank holds a lock in it: refused, the window
 * stays usable (then unlocked and freed). */
static int rma_row_free_locked(const errors_row_t *row)
{
    rma_win_t w;
    int rc = ERRORS_NOCALL, ok, all;

    (void) row;
    rma_open(&w, RMA_ALLOCATE, 1);
    if (0 == rank) {
        MPI_Win_lock(MPI_LOCK_SHARED, w.target, 0, w.win);
        rc = MPI_Win_free(&w.win);
    }
    /* if it was freed anyway, the others must not wait in their free */
    ok = MPI_WIN_NULL != w.win;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all) {
        if (0 == rank) MPI_Win_unlock(w.target, w.win);
        rma_close(&w);
    } else {
        free(w.mem);
    }
    return rc;
}

/* Dynamic windows: row->arg 0 MPI_Win_attach of NULL with 64 bytes, 1 of
 * a region overlapping one attached, 2 MPI_Win_detach of an address not
 * attached, 3 MPI_Win_attach to an allocated window. */
static int rma_row_attach(const errors_row_t *row)
{
    rma_win_t w;
    int rc = ERRORS_NOCALL;

    rma_open(&w, 3 == row->arg ? RMA_ALLOCATE : RMA_DYNAMIC, 1);
    if (0 == rank) {
        switch (row->arg) {
        case 0: rc = MPI_Win_attach(w.win, NULL, RMA_BYTES); break;
        case 1: rc = MPI_Win_attach(w.win, (char *) w.mem + 8, 8); break;
        case 2: rc = MPI_Win_detach(w.win, (char *) w.mem + 8); break;
        default: {
            static char other[8];
            rc = MPI_Win_attach(w.win, other, sizeof(other));
        }
        }
    }
    rma_close(&w);
    return rc;
}

/* MPI_Win_free of a freed window (the handle is MPI_WIN_NULL): the
 * binding's check, reported on MPI_COMM_WORLD (MPI_WIN_NULL has no
 * handler of its own). */
static int rma_row_double_free(const errors_row_t *row)
{
    rma_win_t w;
    int rc;

    (void) row;
    rma_open(&w, RMA_ALLOCATE, 1);
    rma_close(&w);
    errors_watch_comm(MPI_COMM_WORLD);
    rc = MPI_Win_free(&w.win);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return rc;
}

/* MPI_Rput (row->arg 1: MPIX_Rput_notify) with a NULL request pointer
 * toward a real target: the binding passes it to the component. */
static int rma_row_null_request(const errors_row_t *row)
{
    int one = 1, rc = ERRORS_NOCALL;
    rma_win_t w;

    rma_open(&w, RMA_ALLOCATE, 1);
    if (0 == rank) {
        MPI_Win_lock(MPI_LOCK_SHARED, w.target, 0, w.win);
        rc = row->arg ? MPIX_Rput_notify(&one, 1, MPI_INT, w.target, 0, 1, MPI_INT, 0, w.win, NULL)
                      : MPI_Rput(&one, 1, MPI_INT, w.target, 0, 1, MPI_INT, w.win, NULL);
        MPI_Win_unlock(w.target, w.win);
    }
    rma_close(&w);
    return rc;
}

/* Fills rows[] with the RMA table; returns how many. */
static inline int rma_rows(errors_row_t *rows)
{
    static const char *const epoch_call[] = {
        "MPI_Win_unlock", "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_complete",
        "MPI_Win_wait", "MPI_Win_start", "MPI_Win_lock"};
    static const char *const epoch_input[] = {
        "no lock", "no lock_all", "no passive epoch", "no start", "no post",
        "inside a lock epoch", "target already locked"};
    static char inputs[NOPS * 3 * NBAD][64];
    int n = 0;

    for (int op = 0; op < NOPS; ++op) {
        for (int fl = 0; fl < 3; ++fl) {
            for (int bad = 0; bad < NBAD; ++bad) {
                if ((BAD_UNIT == bad && RMA_DYNAMIC == fl) ||
                    (BAD_EXTENT == bad && (OP_FOP == op || OP_CAS == op))) {
                    continue;   /* dynamic windows have disp_unit 1; the atomics take 1 element */
                }
                snprintf(inputs[n], sizeof(inputs[n]), "%s window, %s", rma_flavor[fl],
                         rma_bad_name[bad]);
                /* the bindings refuse negative displacements of static windows */
                rows[n] = (errors_row_t) {rma_op_name[op], inputs[n], MPI_ERR_RMA_RANGE,
                                          rma_row_range, op * 16 + fl, bad, 0,
                                          BAD_NEG == bad && RMA_DYNAMIC != fl ? MPI_ERR_DISP : 0,
                                          NULL};
                ++n;
            }
        }
    }
    for (int op = 0; op < NOPS; ++op) {
        rows[n++] = (errors_row_t) {rma_op_name[op], "NULL origin, count 1 MPI_INT",
                                    MPI_ERR_BUFFER, rma_row_null_buffer, op, 0, 0, 0, NULL};
        if (OP_GACC == op || OP_FOP == op || OP_RGACC == op || OP_GACCN == op
            || OP_RGACCN == op) {
            rows[n++] = (errors_row_t) {rma_op_name[op], "NULL result, count 1 MPI_INT",
                                        MPI_ERR_BUFFER, rma_row_null_buffer, op, 1, 0, 0, NULL};
        }
        if (OP_CAS == op) {
            rows[n++] = (errors_row_t) {rma_op_name[op], "NULL compare, MPI_INT",
                                        MPI_ERR_BUFFER, rma_row_null_buffer, op, 1, 0, 0, NULL};
        }
        if (op < OP_PUTN) {
            rows[n++] = (errors_row_t) {rma_op_name[op], "MPI_DATATYPE_NULL", MPI_ERR_TYPE,
                                        rma_row_type, op, 0, ERRORS_STOCK, 0, NULL};
        }
    }
    rows[n++] = (errors_row_t) {"MPI_Fetch_and_op", "derived datatype (contiguous 1 MPI_INT)",
                                MPI_ERR_TYPE, rma_row_type, OP_FOP, 1, 0, 0, NULL};
    rows[n++] = (errors_row_t) {"MPI_Compare_and_swap", "derived datatype (contiguous 1 MPI_INT)",
                                MPI_ERR_TYPE, rma_row_type, OP_CAS, 1, 0, 0, NULL};
    for (int fl = 0; fl < 2; ++fl) {
        rows[n++] = (errors_row_t) {"MPI_Win_lock", fl ? "after a put in a fence epoch, create"
                                                       : "after a put in a fence epoch, allocate",
                                    MPI_ERR_RMA_SYNC, rma_row_lock_in_fence, 0, fl, 0, 0, NULL};
        rows[n++] = (errors_row_t) {"MPI_Win_lock_all", fl ? "after a put in a fence epoch, create"
                                                           : "after a put in a fence epoch, allocate",
                                    MPI_ERR_RMA_SYNC, rma_row_lock_in_fence, 1, fl, 0, 0, NULL};
    }
    for (int e = 0; e < 7; ++e) {
        rows[n++] = (errors_row_t) {epoch_call[e], epoch_input[e], MPI_ERR_RMA_SYNC,
                                    rma_row_epoch, e, RMA_ALLOCATE, 0, 0, NULL};
    }
    rows[n++] = (errors_row_t) {"MPI_Win_attach", "NULL base, 64 bytes", MPI_ERR_RMA_ATTACH,
                                rma_row_attach, 0, 0, ERRORS_STOCK, MPI_ERR_ARG, NULL};
    rows[n++] = (errors_row_t) {"MPI_Win_attach", "overlapping an attached region",
                                MPI_ERR_RMA_ATTACH, rma_row_attach, 1, 0, 0, 0, NULL};
    rows[n++] = (errors_row_t) {"MPI_Win_detach", "an address not attached", MPI_ERR_RMA_ATTACH,
                                rma_row_attach, 2, 0, 0, 0, NULL};
    rows[n++] = (errors_row_t) {"MPI_Win_attach", "to an allocated window", MPI_ERR_RMA_FLAVOR,
                                rma_row_attach, 3, 0, 0, 0, NULL};
    rows[n++] = (errors_row_t) {"MPI_Win_free", "inside a lock epoch", MPI_ERR_RMA_SYNC,
                                rma_row_free_locked, 0, 0, 0, 0, NULL};
    rows[n++] = (errors_row_t) {"MPI_Win_allocate", "2^50 bytes on every rank", MPI_ERR_NO_MEM,
                                rma_row_huge, 0, 0, ERRORS_BINDING, 0, NULL};
    rows[n++] = (errors_row_t) {"MPI_Win_allocate", "2^50 bytes on rank 0 only", MPI_ERR_NO_MEM,
                                rma_row_huge, 1, 0, ERRORS_BINDING, 0, NULL};
    rows[n++] = (errors_row_t) {"MPI_Win_free", "freed window (MPI_WIN_NULL)", MPI_ERR_WIN,
                                rma_row_double_free, 0, 0, ERRORS_STOCK, 0, NULL};
    rows[n++] = (errors_row_t) {"MPI_Rput", "NULL request", MPI_ERR_REQUEST, rma_row_null_request,
                                0, 0, 0, MPI_ERR_ARG, NULL};
    rows[n++] = (errors_row_t) {"MPIX_Rput_notify", "NULL request", MPI_ERR_REQUEST,
                                rma_row_null_request, 1, 0, 0, 0, NULL};
    rows[n++] = (errors_row_t) {"MPI_Rput", "NULL request, MPI_PROC_NULL target", MPI_ERR_REQUEST,
                                NULL, 0, 0, 0, 0,
                                "Open MPI 4.1's MPI_Rput binding stores through the request for "
                                "MPI_PROC_NULL before any component runs (SIGSEGV)"};
    return n;
}

#define RMA_MAX_ROWS (NOPS * 3 * NBAD + 4 * NOPS + 64)

#endif
