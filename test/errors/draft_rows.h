/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Error-matrix rows (errors_matrix.h) of the calls added with the MPI
 * Forum draft and bundles (issue 27): MPIX_Get_accumulate_notify, the
 * request forms MPIX_Rput/Rget/Raccumulate/Rget_accumulate_notify,
 * MPIX_Win_reset_notify_value, MPIX_Win_notify_threshold (on an
 * MPI_Win_allocate window with 4 notification slots: ids -1 and 4, count
 * -1, MPI_DATATYPE_NULL, MPI_OP_NULL, target rank = size, displacement
 * INTPTR_MAX, no epoch, NULL request, NULL value, timeout -2), and
 * MPIX_Bundle_init, MPIX_Grequest_persistent_init (bad counts, NULL
 * arrays, members that are not inactive persistent requests).  Rank 0
 * makes the call toward rank 1 (itself with one rank).  draft.c runs them
 * on osc/rdma2 (native path), draft_gen.c on osc sm (generic path).
 */
#ifndef DRAFT_ROWS_H
#define DRAFT_ROWS_H

#include "errors_matrix.h"
#include <mpi-ext.h>

#define DRAFT_SLOTS 4
enum { DR_GACCN, DR_RPUTN, DR_RGETN, DR_RACCN, DR_RGACCN, DR_NOPS };
static const char *const draft_op_name[] = {
    "MPIX_Get_accumulate_notify", "MPIX_Rput_notify", "MPIX_Rget_notify",
    "MPIX_Raccumulate_notify", "MPIX_Rget_accumulate_notify"};

enum { DB_ID_NEG, DB_ID_END, DB_COUNT, DB_TYPE, DB_OP, DB_RANK, DB_RANGE, DB_EPOCH, DB_REQ, DB_N };
static const char *const draft_bad_name[] = {
    "id -1", "id = slot count (4)", "count -1", "MPI_DATATYPE_NULL", "MPI_OP_NULL",
    "target rank = size", "disp INTPTR_MAX", "no epoch", "NULL request"};
static const int draft_bad_class[] = {
    MPIX_ERR_RMA_NOTIFICATION, MPIX_ERR_RMA_NOTIFICATION, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_OP,
    MPI_ERR_RANK, MPI_ERR_RMA_RANGE, MPI_ERR_RMA_SYNC, MPI_ERR_REQUEST};

typedef struct {
    int origin[4], result[4], count, target, id;
    MPI_Datatype dt;
    MPI_Op op;
    MPI_Aint disp;
    MPI_Request *req;
} draft_args_t;

static inline int draft_wait(int rc, MPI_Request *req)
{
    return MPI_SUCCESS == rc && NULL != req ? MPI_Wait(req, MPI_STATUS_IGNORE) : rc;
}

static inline int draft_call(int op, draft_args_t *a, MPI_Win win)
{
    switch (op) {
    case DR_GACCN:
        return MPIX_Get_accumulate_notify(a->origin, a->count, a->dt, a->result, a->count, a->dt,
                                          a->target, a->disp, a->count, a->dt, a->op, a->id, win);
    case DR_RPUTN:
        return draft_wait(MPIX_Rput_notify(a->origin, a->count, a->dt, a->target, a->disp,
                                           a->count, a->dt, a->id, win, a->req), a->req);
    case DR_RGETN:
        return draft_wait(MPIX_Rget_notify(a->result, a->count, a->dt, a->target, a->disp,
                                           a->count, a->dt, a->id, win, a->req), a->req);
    case DR_RACCN:
        return draft_wait(MPIX_Raccumulate_notify(a->origin, a->count, a->dt, a->target, a->disp,
                                                  a->count, a->dt, a->op, a->id, win, a->req),
                          a->req);
    default:
        return draft_wait(MPIX_Rget_accumulate_notify(a->origin, a->count, a->dt, a->result,
                                                      a->count, a->dt, a->target, a->disp,
                                                      a->count, a->dt, a->op, a->id, win,
                                                      a->req), a->req);
    }
}

static inline MPI_Win draft_open(void)
{
    MPI_Win win;
    void *base;

    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    memset(base, 0, 64);
    MPIX_Win_set_num_notify(win, MPI_INFO_NULL, DRAFT_SLOTS);
    MPI_Barrier(MPI_COMM_WORLD);
    errors_watch_win(win);
    return win;
}

static inline void draft_close(MPI_Win *win)
{
    MPI_Win_set_errhandler(*win, MPI_ERRORS_ARE_FATAL);
    MPI_Win_free(win);
}

/* row->arg: the operation; row->arg2: the bad input. */
static int draft_row_op(const errors_row_t *row)
{
    MPI_Request req = MPI_REQUEST_NULL;
    draft_args_t a = {{1, 1, 1, 1}, {0}, 1, size > 1 ? 1 : 0, 0, MPI_INT, MPI_SUM, 0, &req};
    int bad = (int) row->arg2, rc = ERRORS_NOCALL;
    MPI_Win win = draft_open();

    switch (bad) {
    case DB_ID_NEG: a.id = -1; break;
    case DB_ID_END: a.id = DRAFT_SLOTS; break;
    case DB_COUNT: a.count = -1; break;
    case DB_TYPE: a.dt = MPI_DATATYPE_NULL; break;
    case DB_OP: a.op = MPI_OP_NULL; break;
    case DB_RANK: a.target = size; break;
    case DB_RANGE: a.disp = INTPTR_MAX; break;
    case DB_REQ: a.req = NULL; break;
    default: break;
    }
    if (0 == rank) {
        if (DB_EPOCH != bad) MPI_Win_lock(MPI_LOCK_SHARED, size > 1 ? 1 : 0, 0, win);
        rc = draft_call((int) row->arg, &a, win);
        if (DB_EPOCH != bad) MPI_Win_unlock(size > 1 ? 1 : 0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    draft_close(&win);
    return rc;
}

/* MPIX_Win_reset_notify_value (row->arg 0) and MPIX_Win_notify_threshold
 * (1); row->arg2: 0 id -1, 1 id 4, 2 NULL value, 3 timeout -2, 4 the
 * window MPI_WIN_NULL (reported on MPI_COMM_WORLD). */
static int draft_row_slot(const errors_row_t *row)
{
    MPI_Count v = 0, *vp = 2 == row->arg2 ? NULL : &v;
    int id = 0 == row->arg2 ? -1 : 1 == row->arg2 ? DRAFT_SLOTS : 0;
    int timeout = 3 == row->arg2 ? -2 : 0, rc = ERRORS_NOCALL;
    MPI_Win win = draft_open(), use = 4 == row->arg2 ? MPI_WIN_NULL : win;

    if (MPI_WIN_NULL == use) errors_watch_comm(MPI_COMM_WORLD);
    if (0 == rank) {
        rc = row->arg ? MPIX_Win_notify_threshold(use, id, 1, timeout, vp)
                      : MPIX_Win_reset_notify_value(use, id, vp);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Barrier(MPI_COMM_WORLD);
    draft_close(&win);
    return rc;
}

static int draft_gstart(void *s) { (void) s; return MPI_SUCCESS; }
static int draft_gpoll(void *s, int *done) { (void) s; *done = 1; return MPI_SUCCESS; }
static int draft_gfree(void *s) { (void) s; return MPI_SUCCESS; }

/* MPIX_Bundle_init (row->arg2 0-6) and MPIX_Grequest_persistent_init
 * (7-8), errors on MPI_COMM_WORLD (no object of their own yet). */
static int draft_row_bundle(const errors_row_t *row)
{
    int one = 1, two = 2, neg = -1, buf = 0, rc;
    MPI_Request m[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL}, b = MPI_REQUEST_NULL;

    MPI_Recv_init(&buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m[0]);
    errors_watch_comm(MPI_COMM_WORLD);
    switch (row->arg2) {
    case 0: rc = MPIX_Bundle_init(-1, &one, m, MPI_INFO_NULL, &b); break;
    case 1: rc = MPIX_Bundle_init(1, NULL, m, MPI_INFO_NULL, &b); break;
    case 2: rc = MPIX_Bundle_init(1, &neg, m, MPI_INFO_NULL, &b); break;
    case 3: rc = MPIX_Bundle_init(1, &one, NULL, MPI_INFO_NULL, &b); break;
    case 4: rc = MPIX_Bundle_init(1, &one, m, MPI_INFO_NULL, NULL); break;
    case 5: rc = MPIX_Bundle_init(1, &two, m, MPI_INFO_NULL, &b); break;   /* m[1] null */
    case 6: m[1] = m[0]; rc = MPIX_Bundle_init(1, &two, m, MPI_INFO_NULL, &b); break;
    case 7: rc = MPIX_Grequest_persistent_init(draft_gstart, NULL, draft_gfree, NULL, &b); break;
    default:
        rc = MPIX_Grequest_persistent_init(draft_gstart, draft_gpoll, draft_gfree, NULL, NULL);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (MPI_REQUEST_NULL != b) MPI_Request_free(&b);
    MPI_Request_free(&m[0]);
    return rc;
}

/* Fills rows[] with the table; returns how many. */
static inline int draft_rows(errors_row_t *rows)
{
    static const char *const slot_input[] = {"id -1", "id = slot count (4)", "NULL value",
                                             "timeout -2", "MPI_WIN_NULL"};
    static const char *const bundle_input[] = {
        "nrounds -1", "NULL round_sizes", "round size -1", "NULL members", "NULL bundle",
        "member MPI_REQUEST_NULL", "one member listed twice", "NULL poll_fn", "NULL request"};
    int n = 0;

    for (int op = 0; op < DR_NOPS; ++op) {
        for (int bad = 0; bad < DB_N; ++bad) {
            if ((DB_OP == bad && (DR_RPUTN == op || DR_RGETN == op))
                || (DB_REQ == bad && DR_GACCN == op)) {
                continue;       /* no op argument; no request */
            }
            rows[n++] = (errors_row_t) {draft_op_name[op], draft_bad_name[bad],
                                        draft_bad_class[bad], draft_row_op, op, bad, 0,
                                        DB_REQ == bad ? MPI_ERR_ARG : 0, NULL};
        }
    }
    for (int f = 0; f < 2; ++f) {
        for (int bad = 0; bad < 5; ++bad) {
            if (0 == f && 3 == bad) continue;     /* reset has no timeout */
            rows[n++] = (errors_row_t) {f ? "MPIX_Win_notify_threshold"
                                          : "MPIX_Win_reset_notify_value",
                                        slot_input[bad], 4 == bad ? MPI_ERR_WIN : MPI_ERR_ARG,
                                        draft_row_slot, f, bad, 0, 0, NULL};
        }
    }
    for (int bad = 0; bad < 9; ++bad) {
        rows[n++] = (errors_row_t) {bad < 7 ? "MPIX_Bundle_init" : "MPIX_Grequest_persistent_init",
                                    bundle_input[bad],
                                    5 == bad || 6 == bad ? MPI_ERR_REQUEST : MPI_ERR_ARG,
                                    draft_row_bundle, 0, bad, 0, 0, NULL};
    }
    return n;
}

#define DRAFT_MAX_ROWS (DR_NOPS * DB_N + 32)

#endif
