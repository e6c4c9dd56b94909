/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1,ucx timeout=240 mca="coll_persist_bundle on coll_persist_shm_max_bytes 0" ompi50=no ompi50_why="the bundle engine (ompi/mpiext/chan) is not built against 5.0 (README, version matrix)"
 *
 * coll/persist's plans as bundles of bound channels (coll_persist_bundle
 * on; shared-memory plans off so every collective has a point-to-point
 * plan): barrier, bcast (root 0 and the last rank), allreduce (SUM in
 * place and not, a non-commutative user operation), allgather, alltoall
 * at 8 B and 64 KiB per rank, and neighbor alltoall/allgather on a 2-D
 * periodic cartesian grid and a graph, 20 starts each with new contents
 * checked every time, then freed (channels unbound) and planned again.
 * With pml/chan's engine on (pml/chan added to the PML list as a user
 * would), the channels carry the data: pml/chan's start counters move
 * at 2 ranks and more; persist_bundle_chan_off.c runs the same with the
 * engine off, where every plan falls back to its persistent requests
 * and the counters stay still.  With ompix_persist_effort=low no plan
 * uses channels.  (In the plugin build the program must load libompix,
 * where the bundle engine lives: README.md, "Persistent collectives".)
 */
#include "persist_chan_counts.h"
#include <stdbool.h>
#include <string.h>

#ifndef PERSIST_BUNDLE_ENGINE
#define PERSIST_BUNDLE_ENGINE 1
#endif
#define STARTS 20
static int val(int from, int to, int it, int i) { return from * 1000000 + to * 10000 + it * 100 + i % 97; }

/* Runs req STARTS times: fill(it) before each start, check(it) after. */
typedef struct { int *s, *r, n, kind, root; MPI_Comm comm; int indeg; int *in, *blk; } job_t;
enum { BARRIER, BCAST, ALLREDUCE, ALLREDUCE_INPLACE, ALLGATHER, ALLTOALL, NEIGHBOR_A2A, NKINDS };

static void fill(job_t *j, int it)
{
    int me, blocks = size > 4 ? size : 4;           /* 4: a 2-D grid's neighbours */
    MPI_Comm_rank(j->comm, &me);
    for (int i = 0; i < j->n * blocks; ++i) {
        j->s[i] = val(me, ALLTOALL == j->kind || NEIGHBOR_A2A == j->kind ? i / j->n : 0, it, i % j->n);
        j->r[i] = BCAST == j->kind && me == j->root ? val(me, 0, it, i) : ALLREDUCE_INPLACE == j->kind ? me + i + it : -1;
    }
}

static int check(job_t *j, int it)
{
    int bad = 0, n = j->n;
    for (int i = 0; i < n; ++i) {
        if (BCAST == j->kind) bad += j->r[i] != val(j->root, 0, it, i);
        if (ALLREDUCE_INPLACE == j->kind) bad += j->r[i] != size * (i + it) + size * (size - 1) / 2;
        if (ALLREDUCE == j->kind) {
            int want = 0;
            for (int q = 0; q < size; ++q) want += val(q, 0, it, i);
            bad += j->r[i] != want;
        }
    }
    for (int i = 0; (ALLGATHER == j->kind || ALLTOALL == j->kind) && i < n * size; ++i)
        bad += j->r[i] != val(i / n, ALLTOALL == j->kind ? rank : 0, it, i % n);
    for (int q = 0; NEIGHBOR_A2A == j->kind && q < j->indeg; ++q)
        for (int i = 0; i < n; ++i) bad += j->r[q * n + i] != val(j->in[q], j->blk[q], it, i);
    return bad;
}

static MPI_Request init_job(job_t *j, MPI_Info info)
{
    MPI_Request req;
    switch (j->kind) {
    case BARRIER: MPIX_Barrier_init(j->comm, info, &req); break;
    case BCAST: MPIX_Bcast_init(j->r, j->n, MPI_INT, j->root, j->comm, info, &req); break;
    case ALLREDUCE: MPIX_Allreduce_init(j->s, j->r, j->n, MPI_INT, MPI_SUM, j->comm, info, &req); break;
    case ALLREDUCE_INPLACE:
        MPIX_Allreduce_init(MPI_IN_PLACE, j->r, j->n, MPI_INT, MPI_SUM, j->comm, info, &req);
        break;
    case ALLGATHER: MPIX_Allgather_init(j->s, j->n, MPI_INT, j->r, j->n, MPI_INT, j->comm, info, &req); break;
    case ALLTOALL: MPIX_Alltoall_init(j->s, j->n, MPI_INT, j->r, j->n, MPI_INT, j->comm, info, &req); break;
    default:
        MPIX_Neighbor_alltoall_init(j->s, j->n, MPI_INT, j->r, j->n, MPI_INT, j->comm, info, &req);
    }
    return req;
}

static void run(job_t *j, MPI_Info info, const char *what)
{
    for (int plan = 0; plan < 2; ++plan) {           /* planned, freed, planned again */
        MPI_Request req = init_job(j, info);
        for (int it = 0; it < STARTS; ++it) {
            fill(j, it);
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            int bad = check(j, it);
            if (bad) printf("rank %d: %s kind %d n=%d it %d: %d wrong\n", rank, what, j->kind, j->n, it, bad);
            CHECK(0 == bad);
        }
        MPI_Request_free(&req);
    }
}

/* Non-commutative: affine maps composed in rank order, by recursive
 * doubling as a bundle (actions between rounds). */
static void noncommutative(MPI_Info info)
{
    MPI_Op op; MPI_Datatype pair; MPI_Request req;
    unsigned in[2], out[2];
    MPI_Type_contiguous(2, MPI_UNSIGNED, &pair); MPI_Type_commit(&pair);
    MPI_Op_create(compose, 0, &op);
    MPIX_Allreduce_init(in, out, 1, pair, op, MPI_COMM_WORLD, info, &req);
    for (int it = 0; it < STARTS; ++it) {
        unsigned m = 1, c = 0;
        in[0] = 2u + (unsigned) rank; in[1] = (unsigned) (rank + it);
        for (int q = 0; q < size; ++q) {           /* left, then right: x -> mq*(m x + c) + cq */
            unsigned mq = 2u + (unsigned) q, cq = (unsigned) (q + it);
            c = mq * c + cq; m = mq * m;
        }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(out[0] == m && out[1] == c);
    }
    MPI_Request_free(&req);
    MPI_Op_free(&op); MPI_Type_free(&pair);
}

static void all_kinds(MPI_Info info, const char *what)
{
    int n_max = 16384, blocks = size > 4 ? size : 4;
    int *s = malloc(sizeof(int) * (size_t) n_max * blocks), *r = malloc(sizeof(int) * (size_t) n_max * blocks);
    for (int n = 2; n <= n_max; n *= 8192) {
        for (int k = BARRIER; k < NEIGHBOR_A2A; ++k) {
            job_t j = {s, r, n, k, 0, MPI_COMM_WORLD, 0, NULL, NULL};
            run(&j, info, what);
            if (BCAST == k) { j.root = size - 1; run(&j, info, what); }
        }
    }
    noncommutative(info);

    int dims[2] = {0, 0}, periods[2] = {1, 1}, nb[4], blk[4] = {1, 0, 3, 2};
    MPI_Comm cart;
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);
    job_t j = {s, r, 2, NEIGHBOR_A2A, 0, cart, 4, nb, blk};
    run(&j, info, what);
    MPI_Comm_free(&cart);
    free(s); free(r);
}

int main(int argc, char **argv)
{
    MPI_Info low;

    persist_bundle_test_init(&argc, &argv);

    unsigned long long before = persist_chan_starts();
    all_kinds(MPI_INFO_NULL, "bundle");
    unsigned long long used = persist_chan_starts() - before;
    if (size > 1 && PERSIST_BUNDLE_ENGINE) CHECK(used > 0);
    if (!PERSIST_BUNDLE_ENGINE) CHECK(0 == used);

    MPI_Info_create(&low);
    MPI_Info_set(low, "ompix_persist_effort", "low");
    before = persist_chan_starts();
    all_kinds(low, "low");
    CHECK(persist_chan_starts() == before);
    MPI_Info_free(&low);

    persist_chan_counts_close();
    MPI_T_finalize();
    return ompix_test_finish("persist_bundle");
}
