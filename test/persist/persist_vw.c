/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120
 *
 * Persistent gatherv, scatterv, allgatherv, alltoallv, alltoallw (with
 * MPI_IN_PLACE where allowed) and the neighborhood collectives on a 2-D
 * periodic cartesian grid and on a distributed graph; 10 starts each with
 * new contents, checked every time.
 */
#include "ompix_test.h"
#include <stdbool.h>
#include <string.h>

#define STARTS 10

static int val(int from, int to, int it, int i) { return from * 1000000 + to * 10000 + it * 100 + i; }
/* rank q's block holds q + 1 + 3 * scale elements */
static int cnt(int q, int scale) { return q + 1 + 3 * scale; }

static void vcollectives(int scale)
{
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size), total = 0;
    for (int q = 0; q < size; ++q) {
        counts[q] = cnt(q, scale);
        displs[q] = total + 1;                  /* a one-element gap before each block */
        total += counts[q] + 1;
    }
    int *all = malloc(sizeof(int) * (size_t) total), *mine = malloc(sizeof(int) * (size_t) counts[rank]);
    MPI_Request req;

    for (int root = 0; root < size; ++root) {
        for (int kind = 0; kind < 3; ++kind) {
            for (int in_place = 0; in_place < 2; ++in_place) {
                bool ip = in_place && (2 == kind || rank == root);
                if (0 == kind) MPIX_Gatherv_init(ip ? MPI_IN_PLACE : mine, counts[rank], MPI_INT, all, counts,
                                                 displs, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
                if (1 == kind) MPIX_Scatterv_init(all, counts, displs, MPI_INT, ip ? MPI_IN_PLACE : mine,
                                                  counts[rank], MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
                if (2 == kind) MPIX_Allgatherv_init(ip ? MPI_IN_PLACE : mine, counts[rank], MPI_INT, all,
                                                    counts, displs, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
                for (int it = 0; it < STARTS; ++it) {
                    for (int q = 0; q < size; ++q) {
                        for (int i = -1; i < counts[q]; ++i) {
                            int slot = displs[q] + i;
                            if (slot < 0) continue;
                            bool have = i >= 0 && (1 == kind ? rank == root : ip && q == rank);
                            all[slot] = have ? val(q, q, it, i) : -5;
                        }
                    }
                    for (int i = 0; i < counts[rank]; ++i) mine[i] = 1 == kind ? -5 : val(rank, rank, it, i);
                    MPI_Start(&req);
                    MPI_Wait(&req, MPI_STATUS_IGNORE);
                    int bad = 0;
                    if (1 == kind && !ip) {
                        for (int i = 0; i < counts[rank]; ++i) bad += mine[i] != val(rank, rank, it, i);
                    }
                    if (2 == kind || (0 == kind && rank == root)) {
                        for (int q = 0; q < size; ++q) {
                            for (int i = 0; i < counts[q]; ++i) bad += all[displs[q] + i] != val(q, q, it, i);
                            if (displs[q] > 0) bad += all[displs[q] - 1] != -5;   /* gap untouched */
                        }
                    }
                    if (bad) printf("rank %d: v-kind %d root %d inplace %d it %d: %d wrong\n", rank, kind, root, ip, it, bad);
                    CHECK(0 == bad);
                }
                MPI_Request_free(&req);
            }
            if (2 == kind && root > 0) break;
        }
    }
    free(all);
    free(mine);
    free(counts);
    free(displs);
}

/* alltoallv (w = false) or alltoallw with bytes displacements: rank r
 * sends cnt(r + q) elements to q. */
static void alltoall_vw(bool w, bool in_place, int scale)
{
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
    int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * size);
    int st = 0, rt = 0;
    for (int q = 0; q < size; ++q) {
        types[q] = MPI_INT;
        sc[q] = cnt(rank + q, scale);
        rc[q] = cnt(q + rank, scale);
        sd[q] = st; st += sc[q] + 1;
        rd[q] = rt; rt += rc[q] + 1;
    }
    if (in_place) {                     /* in place: send layout = receive layout */
        memcpy(sc, rc, sizeof(int) * size);
        memcpy(sd, rd, sizeof(int) * size);
    }
    int *sbuf = malloc(sizeof(int) * (size_t) st), *rbuf = malloc(sizeof(int) * (size_t) rt);
    int *sdb = malloc(sizeof(int) * size), *rdb = malloc(sizeof(int) * size);
    for (int q = 0; q < size; ++q) { sdb[q] = sd[q] * (int) sizeof(int); rdb[q] = rd[q] * (int) sizeof(int); }
    MPI_Request req;
    void *sarg = in_place ? MPI_IN_PLACE : sbuf;
    if (w) MPIX_Alltoallw_init(sarg, sc, sdb, types, rbuf, rc, rdb, types, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    else MPIX_Alltoallv_init(sarg, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int it = 0; it < STARTS; ++it) {
        int *src = in_place ? rbuf : sbuf;
        for (int i = 0; i < (in_place ? rt : st); ++i) src[i] = -5;
        for (int q = 0; q < size; ++q)
            for (int i = 0; i < (in_place ? rc[q] : sc[q]); ++i) src[(in_place ? rd : sd)[q] + i] = val(rank, q, it, i);
        if (!in_place) for (int i = 0; i < rt; ++i) rbuf[i] = -5;
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        int bad = 0;
        for (int q = 0; q < size; ++q) {
            for (int i = 0; i < rc[q]; ++i) bad += rbuf[rd[q] + i] != val(q, rank, it, i);
            bad += rbuf[rd[q] + rc[q]] != -5;
        }
        if (bad) printf("rank %d: alltoall%c inplace %d it %d: %d wrong\n", rank, w ? 'w' : 'v', in_place, it, bad);
        CHECK(0 == bad);
    }
    MPI_Request_free(&req);
    free(sc); free(sd); free(rc); free(rd); free(sdb); free(rdb); free(types); free(sbuf); free(rbuf);
}

/* Neighborhood collectives: in-slot j must hold in-neighbor j's data; for
 * alltoall, the block the sender addressed to us, its block blk[j]. */
static void neighbors(MPI_Comm comm, const int *in, int indeg, int outdeg, const int *blk,
                      const char *what)
{
    int me, n = 3;
    MPI_Comm_rank(comm, &me);
    int *s = malloc(sizeof(int) * (size_t) (n * outdeg + 1));
    int *r = malloc(sizeof(int) * (size_t) (n * indeg + 1));
    int *rcounts = malloc(sizeof(int) * (indeg + 1)), *rdispls = malloc(sizeof(int) * (indeg + 1));
    MPI_Request reqs[3];
    for (int j = 0; j < indeg; ++j) { rcounts[j] = n; rdispls[j] = j * n; }

    MPIX_Neighbor_alltoall_init(s, n, MPI_INT, r, n, MPI_INT, comm, MPI_INFO_NULL, &reqs[0]);
    MPIX_Neighbor_allgather_init(s, n, MPI_INT, r, n, MPI_INT, comm, MPI_INFO_NULL, &reqs[1]);
    MPIX_Neighbor_allgatherv_init(s, n, MPI_INT, r, rcounts, rdispls, MPI_INT, comm, MPI_INFO_NULL,
                                  &reqs[2]);
    for (int k = 0; k < 3; ++k) {
        for (int it = 0; it < STARTS; ++it) {
            for (int j = 0; j < (0 == k ? outdeg : 1); ++j)
                for (int i = 0; i < n; ++i) s[j * n + i] = val(me, 0 == k ? j : 99, it, i);
            for (int i = 0; i < n * indeg; ++i) r[i] = -5;
            MPI_Start(&reqs[k]);
            MPI_Wait(&reqs[k], MPI_STATUS_IGNORE);
            int bad = 0;
            for (int j = 0; j < indeg; ++j) {
                for (int i = 0; i < n; ++i) {
                    int want = MPI_PROC_NULL == in[j] ? -5 : val(in[j], 0 == k ? blk[j] : 99, it, i);
                    bad += r[j * n + i] != want;
                }
            }
            if (bad) printf("rank %d: %s neighbor kind %d it %d: %d wrong\n", me, what, k, it, bad);
            CHECK(0 == bad);
        }
        MPI_Request_free(&reqs[k]);
    }
    free(s); free(r); free(rcounts); free(rdispls);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    for (int scale = 0; scale < 2; ++scale) {
        vcollectives(scale);
        for (int w = 0; w < 2; ++w) {
            alltoall_vw(w, false, scale);
            alltoall_vw(w, true, scale);
        }
    }

    /* 2-D periodic grid */
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Comm cart;
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    int nb[4];
    MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);
    /* the negative-side neighbor sent us its positive-side block */
    int cart_blk[4] = {1, 0, 3, 2};
    neighbors(cart, nb, 4, 4, cart_blk, "cart");
    MPI_Comm_free(&cart);

    /* distributed graph: rank r -> r+1 and r+2 (mod p) */
    int outs[2] = {(rank + 1) % size, (rank + 2) % size};
    int ins[2] = {(rank - 1 + size) % size, (rank - 2 + 2 * size) % size};
    MPI_Comm dg;
    int weights[2] = {1, 1};           /* (MPI_UNWEIGHTED trips gcc's -Wstringop-overread) */
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, ins, weights, 2, outs, weights,
                                   MPI_INFO_NULL, 0, &dg);
    int dg_blk[2] = {0, 1};
    neighbors(dg, ins, 2, 2, dg_blk, "dist_graph");
    MPI_Comm_free(&dg);
    return ompix_test_finish("persist_vw");
}
