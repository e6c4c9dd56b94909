/*
 * Copyright (c) 2026 The ompix developers.
 *
 * One RMA "case": every origin issues a chosen set of the ten RMA
 * operations (Put, Get, Accumulate, Get_accumulate, Fetch_and_op,
 * Compare_and_swap, Rput, Rget, Raccumulate, Rget_accumulate) to its
 * targets inside one synchronization mode, with chosen origin, target and
 * result layouts; then every origin checks every fetched element (and that
 * elements outside the result layout were left alone), and every target
 * checks its whole window part against an independently computed image,
 * which also catches stray writes.
 *
 * Window part of each rank: NOPS * size regions of REG elements; region
 * (op, origin) is written only by that origin with that operation.
 */
#ifndef RDMA2_ENGINE_H
#define RDMA2_ENGINE_H

#include "rdma2_common.h"

enum { OP_PUT, OP_GET, OP_ACC, OP_GACC, OP_FOP, OP_CAS, OP_RPUT, OP_RGET, OP_RACC, OP_RGACC, NOPS };
static const char *const op_name[NOPS] = {"Put", "Get", "Accumulate", "Get_accumulate",
                                          "Fetch_and_op", "Compare_and_swap", "Rput", "Rget",
                                          "Raccumulate", "Rget_accumulate"};
#define ALL_OPS ((1u << NOPS) - 1)
#define REQ_OPS ((1u << OP_RPUT) | (1u << OP_RGET) | (1u << OP_RACC) | (1u << OP_RGACC))
#define PLAIN_OPS (ALL_OPS & ~REQ_OPS)

enum {
    S_FENCE, S_FENCE_ASSERT, S_PSCW, S_PSCW_TEST, S_PSCW_NOCHECK,
    S_LOCK_EXCL, S_LOCK_SHARED, S_LOCK_EXCL_NOCHECK, S_LOCK_SHARED_NOCHECK,
    S_LOCK_ALL, S_LOCK_ALL_NOCHECK, S_FLUSH, S_FLUSH_ALL, S_FLUSH_LOCAL,
    S_FLUSH_LOCAL_ALL, S_SYNC, NSYNCS
};
static const char *const sync_name[NSYNCS] = {
    "fence", "fence+asserts", "pscw", "pscw+test", "pscw+nocheck",
    "lock-exclusive", "lock-shared", "lock-exclusive+nocheck", "lock-shared+nocheck",
    "lock_all", "lock_all+nocheck", "flush", "flush_all", "flush_local",
    "flush_local_all", "win_sync"};
static inline int sync_is_active(int s) { return s <= S_PSCW_NOCHECK; }

/* Who accesses whom. */
enum { PAT_RIGHT, PAT_ALL, PAT_EVEN_ODD, PAT_SELF, NPATS };
static const char *const pat_name[NPATS] = {"right", "all", "even->odd", "self"};

static inline int accesses(int pat, int o, int t)
{
    switch (pat) {
    case PAT_RIGHT: return t == (o + 1) % size;
    case PAT_ALL: return 1;
    case PAT_EVEN_ODD: return 0 == o % 2 && 1 == t % 2;
    case PAT_SELF: return o == t;
    }
    return 0;
}

#define REG LAYOUT_SPAN
#define SENTINEL ((elem_t) 0x7e57e57e57e5LL)
#define SCRIBBLE ((elem_t) -0x5c0b5c0b5c0bLL)

static inline MPI_Aint region(int op, int origin) { return ((MPI_Aint) op * size + origin) * REG; }
static inline MPI_Aint engine_nelem(void) { return (MPI_Aint) NOPS * size * REG; }
static inline elem_t init_val(int t, MPI_Aint idx) { return (elem_t) t * 1000000 + idx + 1; }
/* After win_sync's second phase, targets restore their Get regions with this. */
static inline elem_t init2_val(int t, MPI_Aint idx) { return (elem_t) t * 1000000 + idx + 500001; }
static inline elem_t op_val(int o, int t, int op, int k)
{
    return -((elem_t) o * 100000 + (elem_t) t * 1000 + op * 100 + k + 1);
}

/* Expected value of element idx of target t's part after the case. */
static inline elem_t expected_at(int t, MPI_Aint idx, int pat, unsigned mask,
                                 const struct layout *tl, int restored_get)
{
    int op = (int) (idx / REG / size), o = (int) (idx / REG % size), off = (int) (idx % REG);
    elem_t v = init_val(t, idx);
    if (restored_get && (OP_GET == op || OP_RGET == op)) {
        v = init2_val(t, idx);
    }
    if (!(mask & (1u << op)) || !accesses(pat, o, t)) {
        return v;
    }
    for (int k = 0; k < tl->count; ++k) {
        if (tl->map[k] != off) {
            continue;
        }
        switch (op) {
        case OP_PUT: case OP_RPUT: return op_val(o, t, op, k);
        case OP_ACC: case OP_RACC: case OP_GACC: case OP_RGACC: case OP_FOP:
            return v + op_val(o, t, op, k);
        case OP_CAS: return k % 2 ? v : op_val(o, t, op, k);
        }
    }
    return v;
}

struct ebufs {
    elem_t o[NOPS][REG], r[NOPS][REG], c[REG];
    MPI_Request req[NOPS];
};

static inline void fill_origin(struct ebufs *b, int t, const struct layout *ol)
{
    for (int op = 0; op < NOPS; ++op) {
        for (int i = 0; i < REG; ++i) {
            b->o[op][i] = SENTINEL;
            b->r[op][i] = SENTINEL;
        }
        if (OP_FOP == op || OP_CAS == op) {
            for (int k = 0; k < MAXCNT; ++k) {
                b->o[op][k] = op_val(rank, t, op, k);
            }
        } else {
            for (int k = 0; k < ol->count; ++k) {
                b->o[op][ol->map[k]] = op_val(rank, t, op, k);
            }
        }
        b->req[op] = MPI_REQUEST_NULL;
    }
}

static inline void issue(const struct rwin *w, struct ebufs *b, int t, unsigned mask,
                         const struct layout *ol, const struct layout *tl,
                         const struct layout *rl)
{
    MPI_Win win = w->win;
    for (int op = 0; op < NOPS; ++op) {
        MPI_Aint d = rwin_disp(w, t, region(op, rank));
        if (!(mask & (1u << op))) {
            continue;
        }
        switch (op) {
        case OP_PUT: OK(MPI_Put(b->o[op], 1, ol->type, t, d, 1, tl->type, win)); break;
        case OP_GET: OK(MPI_Get(b->r[op], 1, rl->type, t, d, 1, tl->type, win)); break;
        case OP_ACC: OK(MPI_Accumulate(b->o[op], 1, ol->type, t, d, 1, tl->type, MPI_SUM, win)); break;
        case OP_GACC:
            OK(MPI_Get_accumulate(b->o[op], 1, ol->type, b->r[op], 1, rl->type, t, d, 1,
                                  tl->type, MPI_SUM, win));
            break;
        case OP_FOP:
            for (int k = 0; k < tl->count; ++k) {
                OK(MPI_Fetch_and_op(&b->o[op][k], &b->r[op][k], ELEM, t,
                                    rwin_disp(w, t, region(op, rank) + tl->map[k]), MPI_SUM, win));
            }
            break;
        case OP_CAS:
            for (int k = 0; k < tl->count; ++k) {
                MPI_Aint idx = region(op, rank) + tl->map[k];
                b->c[k] = init_val(t, idx) + (k % 2 ? 7 : 0);   /* odd k: compare fails */
                OK(MPI_Compare_and_swap(&b->o[op][k], &b->c[k], &b->r[op][k], ELEM, t,
                                        rwin_disp(w, t, idx), win));
            }
            break;
        case OP_RPUT: OK(MPI_Rput(b->o[op], 1, ol->type, t, d, 1, tl->type, win, &b->req[op])); break;
        case OP_RGET: OK(MPI_Rget(b->r[op], 1, rl->type, t, d, 1, tl->type, win, &b->req[op])); break;
        case OP_RACC:
            OK(MPI_Raccumulate(b->o[op], 1, ol->type, t, d, 1, tl->type, MPI_SUM, win, &b->req[op]));
            break;
        case OP_RGACC:
            OK(MPI_Rget_accumulate(b->o[op], 1, ol->type, b->r[op], 1, rl->type, t, d, 1,
                                   tl->type, MPI_SUM, win, &b->req[op]));
            break;
        }
    }
}

/* Waits for the request-based operations, then overwrites the origin
 * buffers of Rput and Raccumulate: they are locally complete. */
static inline void wait_requests(struct ebufs *b)
{
    OK(MPI_Waitall(NOPS, b->req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < REG; ++i) {
        b->o[OP_RPUT][i] = SCRIBBLE;
        b->o[OP_RACC][i] = SCRIBBLE;
    }
}

/* Everything fetched from target t (restored: t's Get regions hold init2). */
static inline void check_results(struct ebufs *b, int t, unsigned mask, const struct layout *tl,
                                 const struct layout *rl, int restored)
{
    char what[96];
    for (int op = 0; op < NOPS; ++op) {
        if (!(mask & (1u << op)) || OP_PUT == op || OP_ACC == op || OP_RPUT == op || OP_RACC == op) {
            continue;
        }
        elem_t exp[REG];
        for (int i = 0; i < REG; ++i) {
            exp[i] = SENTINEL;
        }
        for (int k = 0; k < tl->count; ++k) {
            MPI_Aint idx = region(op, rank) + tl->map[k];
            elem_t v = restored && (OP_GET == op || OP_RGET == op) ? init2_val(t, idx) : init_val(t, idx);
            if (OP_FOP == op || OP_CAS == op) {
                exp[k] = v;
            } else {
                exp[rl->map[k]] = v;
            }
        }
        snprintf(what, sizeof what, "%s result from target %d", op_name[op], t);
        for (int i = 0; i < REG; ++i) {
            check_eq(what, i, exp[i], b->r[op][i]);
        }
    }
}

/* Reads back target t's Put/Accumulate regions inside a passive epoch,
 * after the operations were flushed: they must be visible. */
static inline void readback(const struct rwin *w, int t, int pat, unsigned mask,
                            const struct layout *tl, int flush_all)
{
    static const int ops[4] = {OP_PUT, OP_ACC, OP_RPUT, OP_RACC};
    elem_t rb[4][REG];
    char what[96];
    for (int j = 0; j < 4; ++j) {
        OK(MPI_Get(rb[j], REG, ELEM, t, rwin_disp(w, t, region(ops[j], rank)), REG, ELEM, w->win));
    }
    OK(flush_all ? MPI_Win_flush_all(w->win) : MPI_Win_flush(t, w->win));
    for (int j = 0; j < 4; ++j) {
        if (!(mask & (1u << ops[j]))) {
            continue;
        }
        snprintf(what, sizeof what, "read back of %s region at target %d", op_name[ops[j]], t);
        for (int i = 0; i < REG; ++i) {
            check_eq(what, i, expected_at(t, region(ops[j], rank) + i, pat, mask, tl, 0), rb[j][i]);
        }
    }
}

static inline MPI_Group group_of(int pat, int as_origin)
{
    MPI_Group world, g;
    int ranks[64], n = 0;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int p = 0; p < size; ++p) {
        if (as_origin ? accesses(pat, rank, p) : accesses(pat, p, rank)) {
            ranks[n++] = p;
        }
    }
    MPI_Group_incl(world, n, ranks, &g);
    MPI_Group_free(&world);
    return g;
}

/* Target-side check of the whole part (restored: Get regions hold init2). */
static inline void check_target(const struct rwin *w, int pat, unsigned mask,
                                const struct layout *tl, int restored)
{
    char what[64];
    snprintf(what, sizeof what, "target window element");
    for (MPI_Aint i = 0; i < w->nelem; ++i) {
        check_eq(what, (long) i, expected_at(rank, i, pat, mask, tl, restored), w->base[i]);
    }
}

/* Runs one case on window w (which has engine_nelem() elements per rank). */
static inline void run_case(const struct rwin *w, int sync, int pat, unsigned mask,
                            const struct layout *ol, const struct layout *tl,
                            const struct layout *rl)
{
    MPI_Win win = w->win;
    struct ebufs *b = malloc(size * sizeof *b);
    int t, restored = 0;
    int nocheck = (S_LOCK_EXCL_NOCHECK == sync || S_LOCK_SHARED_NOCHECK == sync) ? MPI_MODE_NOCHECK : 0;

    set_case("%s window, %s, pattern %s, origin %s, target %s, result %s", flavor_name[w->flavor],
             sync_name[sync], pat_name[pat], layout_name[ol->kind], layout_name[tl->kind],
             layout_name[rl->kind]);
    if (sync_is_active(sync)) {
        mask &= PLAIN_OPS;      /* request-based operations need passive target */
    }
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (MPI_Aint i = 0; i < w->nelem; ++i) {
        w->base[i] = init_val(rank, i);
    }
    OK(MPI_Win_unlock(rank, win));
    for (t = 0; t < size; ++t) {
        fill_origin(&b[t], t, ol);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    switch (sync) {
    case S_FENCE:
    case S_FENCE_ASSERT: {
        elem_t rb[2][REG];
        OK(MPI_Win_fence(S_FENCE == sync ? 0 : MPI_MODE_NOPRECEDE, win));
        for (t = 0; t < size; ++t) {
            if (accesses(pat, rank, t)) {
                issue(w, &b[t], t, mask, ol, tl, rl);
            }
        }
        if (S_FENCE == sync) {
            OK(MPI_Win_fence(0, win));
            break;
        }
        /* NOSTORE: no local stores since the first fence; NOPUT: the next
         * epoch only reads; NOSUCCEED: no epoch follows. */
        OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, win));
        t = (rank + 1) % size;
        OK(MPI_Get(rb[0], REG, ELEM, t, rwin_disp(w, t, region(OP_PUT, rank)), REG, ELEM, win));
        OK(MPI_Get(rb[1], REG, ELEM, t, rwin_disp(w, t, region(OP_ACC, rank)), REG, ELEM, win));
        OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        for (int i = 0; i < REG; ++i) {
            check_eq("read back of Put region after fence", i,
                     expected_at(t, region(OP_PUT, rank) + i, pat, mask, tl, 0), rb[0][i]);
            check_eq("read back of Accumulate region after fence", i,
                     expected_at(t, region(OP_ACC, rank) + i, pat, mask, tl, 0), rb[1][i]);
        }
        break;
    }
    case S_PSCW:
    case S_PSCW_TEST:
    case S_PSCW_NOCHECK: {
        MPI_Group acc = group_of(pat, 1), exp = group_of(pat, 0);
        int nacc, nexp, a = S_PSCW_NOCHECK == sync ? MPI_MODE_NOCHECK : 0;
        MPI_Group_size(acc, &nacc);
        MPI_Group_size(exp, &nexp);
        if (nexp) {
            OK(MPI_Win_post(exp, a, win));
        }
        if (a) {
            MPI_Barrier(MPI_COMM_WORLD);     /* NOCHECK: every post has completed */
        }
        if (nacc) {
            OK(MPI_Win_start(acc, a, win));
            for (t = 0; t < size; ++t) {
                if (accesses(pat, rank, t)) {
                    issue(w, &b[t], t, mask, ol, tl, rl);
                }
            }
            OK(MPI_Win_complete(win));
        }
        if (nexp) {
            if (S_PSCW_TEST == sync) {
                int flag = 0;
                while (!flag) {
                    OK(MPI_Win_test(win, &flag));
                }
            } else {
                OK(MPI_Win_wait(win));
            }
        }
        MPI_Group_free(&acc);
        MPI_Group_free(&exp);
        break;
    }
    case S_LOCK_EXCL:
    case S_LOCK_SHARED:
    case S_LOCK_EXCL_NOCHECK:
    case S_LOCK_SHARED_NOCHECK:
        for (t = 0; t < size; ++t) {
            if (!accesses(pat, rank, t)) {
                continue;
            }
            OK(MPI_Win_lock(S_LOCK_EXCL == sync || S_LOCK_EXCL_NOCHECK == sync ?
                            MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, t, nocheck, win));
            issue(w, &b[t], t, mask, ol, tl, rl);
            if (S_LOCK_EXCL != sync) {
                wait_requests(&b[t]);
            }
            OK(MPI_Win_unlock(t, win));
            if (S_LOCK_EXCL == sync) {
                wait_requests(&b[t]);       /* requests may complete after unlock */
            }
        }
        break;
    case S_LOCK_ALL:
    case S_LOCK_ALL_NOCHECK:
        OK(MPI_Win_lock_all(S_LOCK_ALL == sync ? 0 : MPI_MODE_NOCHECK, win));
        for (t = 0; t < size; ++t) {
            if (accesses(pat, rank, t)) {
                issue(w, &b[t], t, mask, ol, tl, rl);
            }
        }
        for (t = 0; t < size; ++t) {
            wait_requests(&b[t]);
        }
        OK(MPI_Win_unlock_all(win));
        break;
    case S_FLUSH:
    case S_FLUSH_LOCAL:
    case S_SYNC:
        OK(MPI_Win_lock_all(0, win));
        for (t = 0; t < size; ++t) {
            if (!accesses(pat, rank, t)) {
                continue;
            }
            issue(w, &b[t], t, mask, ol, tl, rl);
            if (S_FLUSH == sync) {
                OK(MPI_Win_flush(t, win));
                check_results(&b[t], t, mask, tl, rl, 0);
                readback(w, t, pat, mask, tl, 0);
            } else if (S_FLUSH_LOCAL == sync) {
                OK(MPI_Win_flush_local(t, win));
                check_results(&b[t], t, mask, tl, rl, 0);
                for (int op = 0; op < NOPS; ++op) {
                    for (int i = 0; i < REG; ++i) {
                        b[t].o[op][i] = SCRIBBLE;   /* locally complete: reusable */
                    }
                }
            }
            wait_requests(&b[t]);
        }
        if (S_SYNC == sync) {
            /* Remote completion, then the target reads its own memory
             * with load instructions after MPI_Win_sync. */
            OK(MPI_Win_flush_all(win));
            MPI_Barrier(MPI_COMM_WORLD);
            OK(MPI_Win_sync(win));
            check_target(w, pat, mask, tl, 0);
            MPI_Barrier(MPI_COMM_WORLD);    /* everyone has read the old Get regions */
            for (MPI_Aint i = 0; i < w->nelem; ++i) {
                int op = (int) (i / REG / size);
                if (OP_GET == op || OP_RGET == op) {
                    w->base[i] = init2_val(rank, i);
                }
            }
            OK(MPI_Win_sync(win));
            MPI_Barrier(MPI_COMM_WORLD);
            restored = 1;
            for (t = 0; t < size; ++t) {
                if (accesses(pat, rank, t)) {
                    for (int op = OP_GET; op <= OP_RGET; op += OP_RGET - OP_GET) {
                        for (int i = 0; i < REG; ++i) {
                            b[t].r[op][i] = SENTINEL;
                        }
                    }
                    issue(w, &b[t], t, mask & ((1u << OP_GET) | (1u << OP_RGET)), ol, tl, rl);
                    wait_requests(&b[t]);
                }
            }
            OK(MPI_Win_flush_all(win));
        }
        OK(MPI_Win_unlock_all(win));
        break;
    case S_FLUSH_ALL:
    case S_FLUSH_LOCAL_ALL:
        /* several locks held at once, taken in rank order */
        for (t = 0; t < size; ++t) {
            if (accesses(pat, rank, t)) {
                OK(MPI_Win_lock(S_FLUSH_ALL == sync ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, win));
            }
        }
        for (t = 0; t < size; ++t) {
            if (accesses(pat, rank, t)) {
                issue(w, &b[t], t, mask, ol, tl, rl);
            }
        }
        for (t = 0; t < size && !accesses(pat, rank, t); ++t) {
        }
        if (t == size) {
            break;              /* no epoch open: flushing would be erroneous */
        }
        if (S_FLUSH_ALL == sync) {
            OK(MPI_Win_flush_all(win));
        } else {
            OK(MPI_Win_flush_local_all(win));
        }
        for (t = 0; t < size; ++t) {
            if (!accesses(pat, rank, t)) {
                continue;
            }
            check_results(&b[t], t, mask, tl, rl, 0);
            if (S_FLUSH_ALL == sync) {
                readback(w, t, pat, mask, tl, 1);
            } else {
                for (int op = 0; op < NOPS; ++op) {
                    for (int i = 0; i < REG; ++i) {
                        b[t].o[op][i] = SCRIBBLE;
                    }
                }
            }
            wait_requests(&b[t]);
        }
        for (t = 0; t < size; ++t) {
            if (accesses(pat, rank, t)) {
                OK(MPI_Win_unlock(t, win));
            }
        }
        break;
    }

    for (t = 0; t < size; ++t) {
        if (accesses(pat, rank, t)) {
            check_results(&b[t], t, mask, tl, rl, restored);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    check_target(w, pat, mask, tl, restored);
    OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    free(b);
}

#endif
