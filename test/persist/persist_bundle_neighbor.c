/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=60 mca="coll_persist_bundle neighbor coll_persist_shm_max_bytes 0" ompi50=no ompi50_why="the bundle engine (ompi/mpiext/chan) is not built against 5.0 (README, version matrix)"
 *
 * coll_persist_bundle=neighbor: the neighborhood collectives run as
 * bundles of channels (pml/chan's start counters move), the other
 * collectives keep their own requests (the counters stay still).  A ring
 * as a distributed graph (left and right, in and out), neighbor_alltoall
 * and neighbor_allgather at 8 B and 64 KiB per neighbour, and an
 * allreduce and a barrier on the world, each started 20 times with its
 * data checked every time.
 */
#include "persist_chan_counts.h"

#define STARTS 20

static int val(int from, int to, int it, int i) { return from * 1000000 + to * 10000 + it * 100 + i % 97; }

/* neighbor_alltoall (gather = 0) or neighbor_allgather (1) of n ints. */
static void ring(MPI_Comm g, int n, int gather)
{
    int *s = calloc((size_t) (2 * n), sizeof(int)), *r = calloc((size_t) (2 * n), sizeof(int));
    int nb[2] = {left, right};
    MPI_Request req;
    unsigned long long before = persist_chan_starts();

    if (gather) MPIX_Neighbor_allgather_init(s, n, MPI_INT, r, n, MPI_INT, g, MPI_INFO_NULL, &req);
    else MPIX_Neighbor_alltoall_init(s, n, MPI_INT, r, n, MPI_INT, g, MPI_INFO_NULL, &req);
    for (int it = 0; it < STARTS; ++it) {
        int bad = 0;
        /* block 0 goes to the left, block 1 to the right; allgather sends block 0 */
        for (int i = 0; i < 2 * n; ++i) { s[i] = val(rank, gather ? 0 : i / n, it, i % n); r[i] = -1; }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        /* from the left neighbour its block for the right (1), from the right its block 0;
         * on 2 ranks both edges join the same pair and match in order: block q */
        for (int q = 0; q < 2; ++q)
            for (int i = 0; i < n; ++i)
                bad += r[q * n + i] != val(nb[q], gather ? 0 : 2 == size ? q : 1 - q, it, i);
        if (bad) printf("rank %d: ring %s n=%d start %d: %d wrong\n", rank, gather ? "allgather" : "alltoall", n, it, bad);
        CHECK(0 == bad);
    }
    MPI_Request_free(&req);
    CHECK(persist_chan_starts() > before);
    free(s); free(r);
}

static void world_plans(void)
{
    int in[2] = {rank, 1}, out[2];
    MPI_Request ar, ba;
    unsigned long long before = persist_chan_starts();

    MPIX_Allreduce_init(in, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &ar);
    MPIX_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &ba);
    for (int it = 0; it < STARTS; ++it) {
        MPI_Start(&ar);
        MPI_Wait(&ar, MPI_STATUS_IGNORE);
        CHECK(size * (size - 1) / 2 == out[0] && size == out[1]);
        MPI_Start(&ba);
        MPI_Wait(&ba, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&ar);
    MPI_Request_free(&ba);
    CHECK(persist_chan_starts() == before);
}

int main(int argc, char **argv)
{
    MPI_Comm g;

    persist_bundle_test_init(&argc, &argv);
    int nb[2] = {left, right};
    int w[2] = {1, 1};
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, nb, w, 2, nb, w,
                                   MPI_INFO_NULL, 0, &g);
    world_plans();
    for (int n = 2; n <= 16384; n *= 8192) {
        ring(g, n, 0);
        ring(g, n, 1);
    }
    MPI_Comm_free(&g);
    persist_chan_counts_close();
    MPI_T_finalize();
    return ompix_test_finish("persist_bundle_neighbor");
}
