/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120
 *
 * Persistent neighborhood collectives (all five: alltoall, allgather and
 * their v and w forms) on the topologies persist_vw.c does not cover: a
 * non-periodic 1-D cartesian line (the ends' missing neighbours are
 * MPI_PROC_NULL: their receive blocks stay untouched), a periodic ring
 * (at 2 ranks both neighbours are the same rank, so each block must land
 * in the slot of its direction), a 2-D grid periodic in one dimension
 * only, and a graph made with MPI_Graph_create (a star plus a ring, so
 * degrees differ per rank and, at 2 ranks, a neighbour appears twice).
 * 10 starts each with new contents, checked every time, under both
 * ompix_persist_effort low and tune (no choice for these: the same plan).
 */
#include "persist_common.h"
#include <stdbool.h>
#include <string.h>

#define STARTS 10
#define N 3
#define MAXDEG 16
enum { A2A, AG, A2AV, AGV, A2AW, NKINDS };
static const char *const kind_names[NKINDS] = {"alltoall", "allgather", "alltoallv",
                                               "allgatherv", "alltoallw"};

typedef struct {
    MPI_Comm comm;
    int indeg, outdeg;
    int in[MAXDEG];               /* in-neighbour j */
    int blk[MAXDEG];              /* for alltoall: which of its out-blocks it sends us */
    const char *name;
} topo_t;

static int val(int from, int blk, int it, int i) { return from * 100000 + blk * 1000 + it * 10 + i; }

static MPI_Request init_kind(int k, topo_t *t, int *s, int *r, MPI_Info info)
{
    int sc[MAXDEG], rc[MAXDEG], sd[MAXDEG], rd[MAXDEG];
    MPI_Aint sdw[MAXDEG], rdw[MAXDEG];
    MPI_Datatype st[MAXDEG], rt[MAXDEG];
    MPI_Request req = MPI_REQUEST_NULL;

    for (int j = 0; j < MAXDEG; ++j) {
        sc[j] = rc[j] = N;
        sd[j] = rd[j] = j * N;
        sdw[j] = rdw[j] = (MPI_Aint) (j * N * sizeof(int));
        st[j] = rt[j] = MPI_INT;
    }
    switch (k) {
    case A2A: MPIX_Neighbor_alltoall_init(s, N, MPI_INT, r, N, MPI_INT, t->comm, info, &req); break;
    case AG: MPIX_Neighbor_allgather_init(s, N, MPI_INT, r, N, MPI_INT, t->comm, info, &req); break;
    case A2AV:
        MPIX_Neighbor_alltoallv_init(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, t->comm, info, &req);
        break;
    case AGV:
        MPIX_Neighbor_allgatherv_init(s, N, MPI_INT, r, rc, rd, MPI_INT, t->comm, info, &req);
        break;
    default:
        MPIX_Neighbor_alltoallw_init(s, sc, sdw, st, r, rc, rdw, rt, t->comm, info, &req);
    }
    return req;
}

static void run(topo_t *t, const char *effort)
{
    int me, s[MAXDEG * N], r[MAXDEG * N];
    MPI_Info info;

    MPI_Comm_rank(t->comm, &me);
    MPI_Info_create(&info);
    MPI_Info_set(info, "ompix_persist_effort", effort);
    for (int k = 0; k < NKINDS; ++k) {
        bool gather = AG == k || AGV == k;
        MPI_Request req = init_kind(k, t, s, r, info);
        for (int it = 0; it < STARTS; ++it) {
            int bad = 0;
            for (int j = 0; j < MAXDEG; ++j)
                for (int i = 0; i < N; ++i) s[j * N + i] = val(me, gather ? 99 : j, it, i);
            for (int i = 0; i < MAXDEG * N; ++i) r[i] = -5;
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            for (int j = 0; j < t->indeg; ++j)
                for (int i = 0; i < N; ++i) {
                    int want = MPI_PROC_NULL == t->in[j] ? -5
                               : val(t->in[j], gather ? 99 : t->blk[j], it, i);
                    bad += r[j * N + i] != want;
                }
            for (int i = t->indeg * N; i < MAXDEG * N; ++i) bad += -5 != r[i];
            if (bad) printf("rank %d: %s %s (%s) it %d: %d wrong\n", me, t->name, kind_names[k],
                            effort, it, bad);
            CHECK(0 == bad);
        }
        MPI_Request_free(&req);
    }
    MPI_Info_free(&info);
}

/* Cartesian: per dimension the negative then the positive neighbour; the
 * negative-side neighbour sent us its positive-side block (2d + 1). */
static void cart(int ndims, const int *dims, const int *periods, const char *name)
{
    topo_t t = {.name = name};
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &t.comm);
    t.indeg = t.outdeg = 2 * ndims;
    for (int d = 0; d < ndims; ++d) {
        MPI_Cart_shift(t.comm, d, 1, &t.in[2 * d], &t.in[2 * d + 1]);
        t.blk[2 * d] = 2 * d + 1;
        t.blk[2 * d + 1] = 2 * d;
    }
    run(&t, "low");
    run(&t, "tune");
    MPI_Comm_free(&t.comm);
}

/* Graph: a ring plus a star around rank 0 (MPI_Graph_create's edges are
 * symmetric here, so in- and out-neighbours are the same list). */
static void graph(void)
{
    int index[8], edges[64], ne = 0;
    topo_t t = {.name = "graph"};

    for (int q = 0; q < size; ++q) {
        edges[ne++] = (q + 1) % size;
        edges[ne++] = (q - 1 + size) % size;
        if (0 == q) for (int p = 2; p < size - 1; ++p) edges[ne++] = p;
        if (0 != q && q >= 2 && q < size - 1) edges[ne++] = 0;
        index[q] = ne;
    }
    MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &t.comm);
    MPI_Graph_neighbors_count(t.comm, rank, &t.indeg);
    t.outdeg = t.indeg;
    MPI_Graph_neighbors(t.comm, rank, MAXDEG, t.in);
    /* the block neighbour q sends us: the position of our rank among q's
     * neighbours, counting repeats in order (q lists us once per edge) */
    for (int j = 0; j < t.indeg; ++j) {
        int q = t.in[j], qn[MAXDEG], qdeg, seen = 0;
        for (int i = 0; i < j; ++i) seen += t.in[i] == q;
        MPI_Graph_neighbors_count(t.comm, q, &qdeg);
        MPI_Graph_neighbors(t.comm, q, MAXDEG, qn);
        for (int i = 0; i < qdeg; ++i)
            if (qn[i] == rank && 0 == seen--) { t.blk[j] = i; break; }
    }
    run(&t, "low");
    run(&t, "tune");
    MPI_Comm_free(&t.comm);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    int line[1] = {size}, open1[1] = {0}, ring[1] = {1};
    cart(1, line, open1, "line");
    cart(1, line, ring, "ring");
    int dims[2] = {0, 0}, half[2] = {1, 0};
    MPI_Dims_create(size, 2, dims);
    cart(2, dims, half, "grid");
    graph();
    return ompix_test_finish("persist_neighbor");
}
