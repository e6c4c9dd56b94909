/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp,net pml=ob1,ucx timeout=120
 *
 * Persistent gather, scatter, reduce, reduce_scatter_block and
 * reduce_scatter: every root, counts 0, 1, 37 and 1 MiB worth, contiguous
 * and strided receive layouts, MPI_IN_PLACE, SUM, MAX and a
 * non-commutative user operation; 10 starts each, checked every time.
 */
#include "persist_common.h"
#include <stdbool.h>

#define STARTS 10
static const int counts[] = {0, 1, 37, 1 << 18};

static int val(int r, int it, int i) { return r * 100000 + it * 1000 + i % 997; }

/* gather (scatter = false) or scatter; the root's side may be strided. */
static void rooted(bool scatter, int n, int root, int stride, bool in_place)
{
    int blk = n == (1 << 18) ? n / size : n;
    int *all = malloc(sizeof(int) * ((size_t) blk * size * 2 + 1));
    int *mine = malloc(sizeof(int) * ((size_t) blk + 1));
    MPI_Datatype at = 2 == stride ? strided(blk) : MPI_INT;
    int ac = 2 == stride ? (blk ? 1 : 0) : blk;
    MPI_Request req;
    bool is_root = rank == root;

    if (scatter) {
        CHECK(MPI_SUCCESS == MPIX_Scatter_init(all, ac, at,
                                               is_root && in_place ? MPI_IN_PLACE : mine, blk, MPI_INT,
                                               root, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    } else {
        CHECK(MPI_SUCCESS == MPIX_Gather_init(is_root && in_place ? MPI_IN_PLACE : mine, blk, MPI_INT,
                                              all, ac, at, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    }
    for (int it = 0; it < STARTS; ++it) {
        for (int p = 0; p < size; ++p) {
            for (int i = 0; i < blk * stride; ++i) {
                bool gap = i % stride;
                int v = gap ? -9 : (scatter || (in_place && p == rank)) ? val(p, it, i / stride) : -1;
                all[p * blk * stride + i] = v;
            }
        }
        for (int i = 0; i < blk; ++i) mine[i] = scatter ? -1 : val(rank, it, i);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        int bad = 0;
        if (scatter && !(is_root && in_place)) {
            for (int i = 0; i < blk; ++i) bad += mine[i] != val(rank, it, i);
        }
        if (is_root) {
            for (int p = 0; p < size; ++p) {
                for (int i = 0; i < blk * stride; ++i) {
                    int want = (i % stride) ? -9 : val(p, it, i / stride);
                    bad += all[p * blk * stride + i] != want;
                }
            }
        }
        if (bad) printf("rank %d: %s n=%d root=%d stride=%d inplace=%d it=%d: %d wrong\n", rank,
                        scatter ? "scatter" : "gather", blk, root, stride, in_place, it, bad);
        CHECK(0 == bad);
    }
    MPI_Request_free(&req);
    if (MPI_INT != at) MPI_Type_free(&at);
    free(all);
    free(mine);
}

static unsigned in_m(int r, int it, int i) { return (unsigned) (r + it + i) % 5 + 1; }

/* expected element i of the reduction over all ranks */
static void expect(int kind, int it, int i, unsigned *m, unsigned *c)
{
    *m = 1 == kind ? 1 : 0;
    *c = 0;
    for (int q = 0; q < size; ++q) {
        unsigned qm = in_m(q, it, i), qc = (unsigned) val(q, it, i);
        if (0 == kind) { *m += qm; *c += qc; }                              /* SUM */
        else if (1 == kind) { *c = qm * *c + qc; *m = qm * *m; }            /* compose */
        else { *m = qm > *m ? qm : *m; *c = qc > *c ? qc : *c; }            /* MAX */
    }
}

/* kind: 0 SUM, 1 non-commutative, 2 MAX; which: 0 reduce, 1 reduce_scatter_block,
 * 2 reduce_scatter (rank r gets r+1 elements... scaled by n) */
static void reductions(int which, int kind, int n, int root, bool in_place)
{
    MPI_Datatype pair;
    MPI_Op op = 0 == kind ? MPI_SUM : MPI_MAX;
    int *rcounts = malloc(sizeof(int) * size), total = 0, my_off = 0;
    for (int q = 0; q < size; ++q) {
        rcounts[q] = 0 == which ? n : 1 == which ? n : (n ? n + q : 0);
        if (q < rank) my_off += rcounts[q];
        total += 0 == which ? 0 : rcounts[q];
    }
    int elems = 0 == which ? n : total;          /* pairs of unsigned in the input */
    unsigned *s = malloc(sizeof(unsigned) * 2 * ((size_t) elems + 1));
    unsigned *r = malloc(sizeof(unsigned) * 2 * ((size_t) elems + 1));
    MPI_Request req;

    MPI_Type_contiguous(2, MPI_UNSIGNED, &pair);
    MPI_Type_commit(&pair);
    if (1 == kind) MPI_Op_create(compose, 0, &op);
    MPI_Datatype dt = 1 == kind ? pair : MPI_UNSIGNED;
    int mult = 1 == kind ? 1 : 2;                /* elements per pair in dt units */
    int *rc2 = malloc(sizeof(int) * size);
    for (int q = 0; q < size; ++q) rc2[q] = rcounts[q] * mult;
    bool inp = in_place && (0 != which || rank == root);
    void *sarg = inp ? MPI_IN_PLACE : s;
    if (0 == which) {
        CHECK(MPI_SUCCESS == MPIX_Reduce_init(sarg, r, n * mult, dt, op, root, MPI_COMM_WORLD,
                                              MPI_INFO_NULL, &req));
    } else if (1 == which) {
        CHECK(MPI_SUCCESS == MPIX_Reduce_scatter_block_init(sarg, r, n * mult, dt, op,
                                                            MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    } else {
        CHECK(MPI_SUCCESS == MPIX_Reduce_scatter_init(sarg, r, rc2, dt, op, MPI_COMM_WORLD,
                                                      MPI_INFO_NULL, &req));
    }
    for (int it = 0; it < STARTS; ++it) {
        unsigned *in = inp ? r : s;
        for (int i = 0; i < elems; ++i) {
            in[2 * i] = in_m(rank, it, i);
            in[2 * i + 1] = (unsigned) val(rank, it, i);
        }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        int bad = 0;
        if (0 != which || rank == root) {
            int first = 0 == which ? 0 : my_off, cnt = 0 == which ? n : rcounts[rank];
            for (int i = 0; i < cnt; ++i) {
                unsigned m, c;
                expect(kind, it, first + i, &m, &c);
                bad += r[2 * i] != m || r[2 * i + 1] != c;
            }
        }
        if (bad) printf("rank %d: reduction %d kind %d n=%d root=%d inplace=%d it=%d: %d wrong\n",
                        rank, which, kind, n, root, in_place, it, bad);
        CHECK(0 == bad);
    }
    MPI_Request_free(&req);
    if (1 == kind) MPI_Op_free(&op);
    MPI_Type_free(&pair);
    free(s);
    free(r);
    free(rcounts);
    free(rc2);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); ++c) {
        int n = counts[c];
        bool big = n == (1 << 18);
        for (int root = 0; root < size; ++root) {
            if (big && root > 0 && root < size - 1) continue;
            for (int sc = 0; sc < 2; ++sc) {
                rooted(sc, n, root, 1, false);
                rooted(sc, n, root, 2, false);
                rooted(sc, n, root, 1, true);
            }
            for (int kind = 0; kind < 3; ++kind) {
                if (big && kind == 2) continue;
                reductions(0, kind, big ? n / 2 : n, root, false);
                reductions(0, kind, big ? n / 2 : n, root, true);
            }
        }
        for (int which = 1; which <= 2 && !big; ++which) {
            for (int kind = 0; kind < 3; ++kind) {
                reductions(which, kind, n, 0, false);
                reductions(which, kind, n, 0, true);
            }
        }
    }
    return ompix_test_finish("persist_rooted");
}
