/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The error matrix: tables of rows (call, bad input, expected class), one
 * table per feature in its own file (rma.c, persist.c, ...), run by one
 * harness.  Every row runs twice: once with MPI_ERRORS_RETURN on the
 * object it uses and once with a recording error handler, which must see
 * exactly one call with the class the call returned.  A row passes when
 * that class is the one MPI names (`expect`, or `also` where MPI allows
 * either); it reports "silent" when the call returned MPI_SUCCESS and
 * "wrong" for any other class.  A row whose bad input makes Open MPI's
 * binding layer crash before any component runs has a `skip` reason and
 * is listed, not run.
 *
 * Adding rows: write `static int my_row(const errors_row_t *row)`, which
 * creates what it needs, hands each object to errors_watch_comm or
 * errors_watch_win (which set the handler of the running mode), makes the
 * bad call on the ranks that make it and returns its code
 * (ERRORS_NOCALL on the others), then cleans up; add
 * `{ "call", "bad input", MPI_ERR_..., my_row, arg }` to a table and pass
 * the table to errors_main.  Rows are collective: every rank runs every
 * row.
 *
 * Arguments: --list prints the rows; --row N runs row N only; --from N
 * starts at row N (test/errors/matrix.py restarts there after a row that
 * crashed or hung, to count crashes and hangs row by row); --skip N leaves
 * row N out;
 * --mode return|handler runs one mode only.
 * Output, rank 0: "ROW <n> <ok|binding|silent|wrong|handler|skip> <call> | <input>
 * | got <class> expected <class>".
 */
#ifndef ERRORS_MATRIX_H
#define ERRORS_MATRIX_H

#include "ompix_test.h"
#include <stdint.h>
#include <string.h>

#define ERRORS_NOCALL (-4242)   /* this rank did not make the checked call */

enum { ERRORS_MODE_RETURN = 1, ERRORS_MODE_HANDLER = 2 };
/* row flags */
#define ERRORS_STOCK 1u         /* stock components return the class MPI names: baseline row */
/* Open MPI's binding answers this row before any component runs (with
 * mpi_param_check on): a wrong class is reported as "binding", which no
 * component can change, and does not fail the run */
#define ERRORS_BINDING 2u

typedef struct errors_row errors_row_t;
struct errors_row {
    const char *call;
    const char *input;
    int expect;                 /* the class MPI names */
    int (*run)(const errors_row_t *row);
    intptr_t arg;               /* the row function's parameter */
    intptr_t arg2;
    unsigned flags;
    int also;                   /* a second class MPI allows, or 0 */
    const char *skip;           /* not run: why */
};

static int errors_mode;
static int errors_calls, errors_class;

static void errors_record_comm(MPI_Comm *comm, int *code, ...)
{
    (void) comm;
    errors_calls++;
    MPI_Error_class(*code, &errors_class);
}

static void errors_record_win(MPI_Win *win, int *code, ...)
{
    (void) win;
    errors_calls++;
    MPI_Error_class(*code, &errors_class);
}

static MPI_Errhandler errors_comm_eh, errors_win_eh;

/* Sets the running mode's handler on an object a row uses. */
static inline void errors_watch_comm(MPI_Comm comm)
{
    MPI_Comm_set_errhandler(comm, ERRORS_MODE_RETURN == errors_mode ? MPI_ERRORS_RETURN
                                                                     : errors_comm_eh);
}

static inline void errors_watch_win(MPI_Win win)
{
    MPI_Win_set_errhandler(win, ERRORS_MODE_RETURN == errors_mode ? MPI_ERRORS_RETURN
                                                                   : errors_win_eh);
}

static const struct { int cls; const char *name; } errors_names[] = {
    {MPI_SUCCESS, "MPI_SUCCESS"}, {MPI_ERR_BUFFER, "MPI_ERR_BUFFER"},
    {MPI_ERR_COUNT, "MPI_ERR_COUNT"}, {MPI_ERR_TYPE, "MPI_ERR_TYPE"},
    {MPI_ERR_TAG, "MPI_ERR_TAG"}, {MPI_ERR_COMM, "MPI_ERR_COMM"},
    {MPI_ERR_RANK, "MPI_ERR_RANK"}, {MPI_ERR_REQUEST, "MPI_ERR_REQUEST"},
    {MPI_ERR_ROOT, "MPI_ERR_ROOT"}, {MPI_ERR_GROUP, "MPI_ERR_GROUP"},
    {MPI_ERR_OP, "MPI_ERR_OP"}, {MPI_ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY"},
    {MPI_ERR_DIMS, "MPI_ERR_DIMS"}, {MPI_ERR_ARG, "MPI_ERR_ARG"},
    {MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN"}, {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE"},
    {MPI_ERR_OTHER, "MPI_ERR_OTHER"}, {MPI_ERR_INTERN, "MPI_ERR_INTERN"},
    {MPI_ERR_PENDING, "MPI_ERR_PENDING"}, {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS"},
    {MPI_ERR_INFO, "MPI_ERR_INFO"}, {MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM"},
    {MPI_ERR_WIN, "MPI_ERR_WIN"}, {MPI_ERR_BASE, "MPI_ERR_BASE"},
    {MPI_ERR_SIZE, "MPI_ERR_SIZE"}, {MPI_ERR_DISP, "MPI_ERR_DISP"},
    {MPI_ERR_LOCKTYPE, "MPI_ERR_LOCKTYPE"}, {MPI_ERR_ASSERT, "MPI_ERR_ASSERT"},
    {MPI_ERR_RMA_CONFLICT, "MPI_ERR_RMA_CONFLICT"}, {MPI_ERR_RMA_SYNC, "MPI_ERR_RMA_SYNC"},
    {MPI_ERR_RMA_RANGE, "MPI_ERR_RMA_RANGE"}, {MPI_ERR_RMA_ATTACH, "MPI_ERR_RMA_ATTACH"},
    {MPI_ERR_RMA_SHARED, "MPI_ERR_RMA_SHARED"}, {MPI_ERR_RMA_FLAVOR, "MPI_ERR_RMA_FLAVOR"},
};

static inline const char *errors_class_name(int cls)
{
    static char other[32];
    for (size_t i = 0; i < sizeof(errors_names) / sizeof(errors_names[0]); ++i) {
        if (errors_names[i].cls == cls) return errors_names[i].name;
    }
    snprintf(other, sizeof(other), "class %d", cls);
    return other;
}

/* Outcomes, worst last: the worst over ranks and modes is reported. */
enum { ERRORS_OK, ERRORS_BOUND, ERRORS_HANDLER, ERRORS_WRONG, ERRORS_SILENT };
static const char *const errors_outcome[] = {"ok", "binding", "handler", "wrong", "silent"};

/* Whether Open MPI's bindings check arguments (mpi_param_check). */
static inline int errors_param_check(void)
{
    const char *v = getenv("OMPI_MCA_mpi_param_check");
    return NULL == v || 0 != strcmp(v, "0");
}

/* One mode of one row on this rank: its outcome, and the class in *got. */
static int errors_run_mode(const errors_row_t *row, int mode, int *got)
{
    int rc, cls;

    errors_mode = mode;
    errors_calls = 0;
    errors_class = MPI_SUCCESS;
    rc = row->run(row);
    MPI_Barrier(MPI_COMM_WORLD);
    if (ERRORS_NOCALL == rc) {
        *got = -1;
        return ERRORS_OK;
    }
    cls = err_class(rc);
    *got = cls;
    if (MPI_SUCCESS == cls) return ERRORS_SILENT;
    if (cls != row->expect && cls != row->also) {
        return (row->flags & ERRORS_BINDING) && errors_param_check() ? ERRORS_BOUND : ERRORS_WRONG;
    }
    if (ERRORS_MODE_HANDLER == mode && (1 != errors_calls || errors_class != cls)) {
        return ERRORS_HANDLER;
    }
    return ERRORS_OK;
}

/* Both modes (or the chosen one) of row i; rank 0 prints its line. */
static int errors_run_row(const errors_row_t *row, int i, int modes)
{
    int worst = ERRORS_OK, got = -1, all[2], mine[2];

    for (int mode = ERRORS_MODE_RETURN; mode <= ERRORS_MODE_HANDLER; mode <<= 1) {
        int g, o;
        if (!(modes & mode)) continue;
        o = errors_run_mode(row, mode, &g);
        if (o >= worst) {
            worst = o;
            if (g >= 0) got = g;
        }
    }
    /* the worst outcome over ranks, and a class some calling rank got */
    mine[0] = worst * 1000 + (got < 0 ? 999 : got);
    MPI_Allreduce(&mine[0], &all[0], 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    mine[1] = got;
    MPI_Allreduce(&mine[1], &all[1], 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    worst = all[0] / 1000;
    got = all[0] % 1000 == 999 ? all[1] : all[0] % 1000;
    if (0 == rank) {
        printf("ROW %d %s %s | %s | got %s expected %s%s%s\n", i, errors_outcome[worst],
               row->call, row->input, got < 0 ? "(no call)" : errors_class_name(got),
               errors_class_name(row->expect), row->also ? " or " : "",
               row->also ? errors_class_name(row->also) : "");
        fflush(stdout);
    }
    return worst;
}

/* Runs the rows whose flags include `require`; returns the exit status. */
static inline int errors_main(int argc, char **argv, const errors_row_t *rows, int n,
                              const char *name, unsigned require)
{
    int only = -1, from = 0, skip[64], nskip = 0, modes = ERRORS_MODE_RETURN | ERRORS_MODE_HANDLER, bad = 0;

    ompix_test_init(&argc, &argv);
    MPI_Comm_create_errhandler(errors_record_comm, &errors_comm_eh);
    MPI_Win_create_errhandler(errors_record_win, &errors_win_eh);
    for (int a = 1; a < argc; ++a) {
        if (0 == strcmp(argv[a], "--list")) only = -2;
        else if (0 == strcmp(argv[a], "--row") && a + 1 < argc) only = atoi(argv[++a]);
        else if (0 == strcmp(argv[a], "--from") && a + 1 < argc) from = atoi(argv[++a]);
        else if (0 == strcmp(argv[a], "--skip") && a + 1 < argc && nskip < 64) {
            skip[nskip++] = atoi(argv[++a]);
        }
        else if (0 == strcmp(argv[a], "--mode") && a + 1 < argc) {
            ++a;
            modes = 0 == strcmp(argv[a], "return") ? ERRORS_MODE_RETURN : ERRORS_MODE_HANDLER;
        }
    }
    for (int i = 0; i < n; ++i) {
        const errors_row_t *row = &rows[i];
        int skipped = 0;
        for (int k = 0; k < nskip; ++k) skipped |= skip[k] == i;
        if ((only >= 0 && i != only) || i < from || skipped || (row->flags & require) != require) {
            continue;
        }
        if (-2 == only || NULL != row->skip) {
            if (0 == rank) {
                printf("ROW %d %s %s | %s | expected %s%s%s\n", i, row->skip ? "skip" : "row",
                       row->call, row->input, errors_class_name(row->expect),
                       row->skip ? ": " : "", row->skip ? row->skip : "");
            }
            continue;
        }
        int o = errors_run_row(row, i, modes);
        bad += ERRORS_OK != o && ERRORS_BOUND != o;
    }
    ompix_test_failures += 0 == rank ? bad : 0;
    MPI_Errhandler_free(&errors_comm_eh);
    MPI_Errhandler_free(&errors_win_eh);
    return ompix_test_finish(name);
}

#endif
