/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp,net pml=ob1,ucx timeout=120
 *
 * Persistent allgather, alltoall, scan and exscan: counts 0, 1, 37 and
 * 1 MiB worth per rank; contiguous and strided layouts (also mixed:
 * contiguous send, strided receive); MPI_IN_PLACE; SUM (recursive
 * doubling) and a non-commutative user operation (the rank chain) for the
 * scans; 10 starts each with new contents, checked every time.  Small
 * blocks go through Bruck's algorithms, large ones through the ring and
 * the pairwise exchange; persist_exchange_alg*.c force one of them.
 */
#include "persist_common.h"
#include <stdbool.h>

#define STARTS 10
static const int counts[] = {0, 1, 37, 1 << 18};

static int val(int r, int it, int i) { return r * 100000 + it * 1000 + i % 997; }

static void gather_like(bool alltoall, int n, int sstride, int rstride, bool in_place)
{
    int blk = alltoall && n == (1 << 18) ? n / size : n;
    int *s = malloc(sizeof(int) * (size_t) (blk ? blk : 1) * size * 2);
    int *r = malloc(sizeof(int) * (size_t) (blk ? blk : 1) * size * 2);
    MPI_Datatype st = 2 == sstride ? strided(blk) : MPI_INT, rt = 2 == rstride ? strided(blk) : MPI_INT;
    int sc = 2 == sstride ? 1 : blk, rc = 2 == rstride ? 1 : blk;
    MPI_Request req;
    if (0 == blk) { sc = rc = 0; }

    if (alltoall) {
        CHECK(MPI_SUCCESS == MPIX_Alltoall_init(in_place ? MPI_IN_PLACE : s, sc, st, r, rc, rt,
                                                MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    } else {
        CHECK(MPI_SUCCESS == MPIX_Allgather_init(in_place ? MPI_IN_PLACE : s, sc, st, r, rc, rt,
                                                 MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    }
    for (int it = 0; it < STARTS; ++it) {
        for (int p = 0; p < size; ++p) {
            for (int i = 0; i < blk * 2; ++i) {
                int e = i / rstride;
                bool gap = i % rstride;
                /* receive buffer: guard in gaps; with MPI_IN_PLACE it holds
                 * the data to send (alltoall) or this rank's block */
                int v = -9;
                if (!gap && in_place && (alltoall || p == rank)) {
                    v = alltoall ? val(rank, it, p * blk + e) : val(rank, it, e);
                }
                if (i < blk * rstride) r[p * blk * rstride + i] = v;
                int se = i / sstride;
                if (i < blk * sstride) s[p * blk * sstride + i] = (i % sstride) ? -9
                    : alltoall ? val(rank, it, p * blk + se) : val(rank, it, se);
            }
        }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        int bad = 0;
        for (int p = 0; p < size; ++p) {
            for (int i = 0; i < blk * rstride; ++i) {
                int want = (i % rstride) ? -9 : alltoall ? val(p, it, rank * blk + i / rstride)
                                                         : val(p, it, i / rstride);
                bad += r[p * blk * rstride + i] != want;
            }
        }
        if (bad) printf("rank %d: %s n=%d strides %d/%d inplace=%d it=%d: %d wrong\n", rank,
                        alltoall ? "alltoall" : "allgather", blk, sstride, rstride, in_place, it, bad);
        CHECK(0 == bad);
    }
    MPI_Request_free(&req);
    if (MPI_INT != st) MPI_Type_free(&st);
    if (MPI_INT != rt) MPI_Type_free(&rt);
    free(s);
    free(r);
}

static void scans(int n, bool exclusive, bool noncomm, bool in_place)
{
    MPI_Datatype pair;
    MPI_Op op = MPI_SUM;
    unsigned *s = malloc(sizeof(unsigned) * 2 * (size_t) (n ? n : 1));
    unsigned *r = malloc(sizeof(unsigned) * 2 * (size_t) (n ? n : 1));
    MPI_Request req;

    MPI_Type_contiguous(2, MPI_UNSIGNED, &pair);
    MPI_Type_commit(&pair);
    if (noncomm) MPI_Op_create(compose, 0, &op);
    MPI_Datatype dt = noncomm ? pair : MPI_UNSIGNED;
    int cnt = noncomm ? n : 2 * n;
    if (exclusive) {
        CHECK(MPI_SUCCESS == MPIX_Exscan_init(in_place ? MPI_IN_PLACE : s, r, cnt, dt, op,
                                              MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    } else {
        CHECK(MPI_SUCCESS == MPIX_Scan_init(in_place ? MPI_IN_PLACE : s, r, cnt, dt, op,
                                            MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    }
    for (int it = 0; it < STARTS; ++it) {
        unsigned *in = in_place ? r : s;
        for (int i = 0; i < n; ++i) {
            in[2 * i] = (unsigned) (rank + it + i) % 5 + 1;
            in[2 * i + 1] = (unsigned) val(rank, it, i);
        }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        int bad = 0, last = exclusive ? rank - 1 : rank;
        for (int i = 0; i < n && last >= 0; ++i) {
            unsigned m = noncomm ? 1 : 0, c = 0;
            for (int q = 0; q <= last; ++q) {
                unsigned qm = (unsigned) (q + it + i) % 5 + 1, qc = (unsigned) val(q, it, i);
                if (noncomm) { c = qm * c + qc; m = qm * m; }
                else { m += qm; c += qc; }
            }
            bad += r[2 * i] != m || r[2 * i + 1] != c;
        }
        if (bad) printf("rank %d: %s n=%d noncomm=%d inplace=%d it=%d: %d wrong\n", rank,
                        exclusive ? "exscan" : "scan", n, noncomm, in_place, it, bad);
        CHECK(0 == bad);
    }
    MPI_Request_free(&req);
    if (noncomm) MPI_Op_free(&op);
    MPI_Type_free(&pair);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
#ifdef PERSIST_FORCE_ALGORITHM
    /* every size through one algorithm (see persist_exchange_alg*.c) */
    setenv("OMPI_MCA_coll_persist_allgather_algorithm", PERSIST_FORCE_ALGORITHM, 1);
    setenv("OMPI_MCA_coll_persist_alltoall_algorithm", PERSIST_FORCE_ALGORITHM, 1);
#endif
    ompix_test_init(&argc, &argv);
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); ++c) {
        int n = counts[c];
        for (int a = 0; a < 2; ++a) {
            gather_like(a, n, 1, 1, false);
            gather_like(a, n, 1, 2, false);
            gather_like(a, n, 2, 2, false);
            gather_like(a, n, 1, 1, true);
            gather_like(a, n, 2, 2, true);
        }
        if (n < (1 << 18)) {
            for (int x = 0; x < 2; ++x) {
                scans(n, x, false, false);
                scans(n, x, false, true);
                scans(n, x, true, false);
                scans(n, x, true, true);
            }
        }
    }
    return ompix_test_finish("persist_exchange");
}
