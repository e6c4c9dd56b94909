/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120
 *
 * The shared-memory plans of barrier, bcast and allreduce (communicators
 * within one node, small messages): ranks that run ahead or lag behind by
 * many starts, a broadcast root that completes long before the others
 * copy out, sizes on both sides of coll_persist_shm_max_bytes, ranks
 * whose layouts differ (the plan must fall back to point-to-point on all
 * of them), sub-communicators, Startall mixing shared-memory and
 * point-to-point plans, and many init/free cycles.
 */
#include "persist_common.h"
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#define STARTS 300

/* A rank-dependent pause on some starts, so every rank sometimes arrives
 * last and sometimes first. */
static void jitter(int r, int it)
{
    if ((it * 7 + r * 3) % 11 == 0) {
        usleep((useconds_t) (50 + 40 * ((it + r) % 4)));
    }
}

/* n = 1 meets on the meeting line (2-3 ranks), n = 3 uses slots. */
static void allreduce_skewed(MPI_Comm comm, int n)
{
    int me, np;
    long in[3], out[3];
    MPI_Request req;

    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    CHECK(MPI_SUCCESS == MPIX_Allreduce_init(in, out, n, MPI_LONG, MPI_SUM, comm,
                                             MPI_INFO_NULL, &req));
    for (int it = 0; it < STARTS; ++it) {
        for (int k = 0; k < n; ++k) {
            in[k] = (long) (me + 1) * (it + 1) + k;
            out[k] = -1;
        }
        jitter(me, it);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int k = 0; k < n; ++k) {
            long want = (long) np * (np + 1) / 2 * (it + 1) + (long) k * np;
            if (out[k] != want) {
                CHECK(out[k] == want);
                printf("rank %d: start %d element %d: got %ld, want %ld\n", me, it, k, out[k], want);
                it = STARTS;
                break;
            }
        }
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&req));
}

/* The root's starts complete at once; the others may lag far behind, and
 * the root changes its buffer before they have copied the old contents. */
static void bcast_root_ahead(MPI_Comm comm, int root)
{
    int me, bad = 0;
    double buf[5];
    MPI_Request req;

    MPI_Comm_rank(comm, &me);
    CHECK(MPI_SUCCESS == MPIX_Bcast_init(buf, 5, MPI_DOUBLE, root, comm, MPI_INFO_NULL, &req));
    if (me != root) {
        usleep(20000);                    /* let the root run ahead */
    }
    for (int it = 0; it < STARTS; ++it) {
        for (int k = 0; k < 5; ++k) {
            buf[k] = me == root ? it * 10.0 + k : -1.0;
        }
        if (me != root) {
            jitter(me, it);
        }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int k = 0; k < 5; ++k) {
            bad += buf[k] != it * 10.0 + k;
        }
    }
    CHECK(0 == bad);
    CHECK(MPI_SUCCESS == MPI_Request_free(&req));
}

static void barrier_skewed(MPI_Comm comm)
{
    int me, np, *seen, bad = 0;
    MPI_Win win;
    MPI_Request req;

    /* Every rank counts its passes in a window; after a barrier no rank
     * may see another still at an earlier pass. */
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &seen, &win);
    *seen = 0;
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    MPI_Barrier(comm);
    CHECK(MPI_SUCCESS == MPIX_Barrier_init(comm, MPI_INFO_NULL, &req));
    for (int it = 1; it <= STARTS / 3; ++it) {
        jitter(me, it);
        __atomic_store_n(seen, it, __ATOMIC_SEQ_CST);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int r = 0; r < np; ++r) {
            MPI_Aint sz;
            int du, *other;
            MPI_Win_shared_query(win, r, &sz, &du, &other);
            bad += __atomic_load_n(other, __ATOMIC_SEQ_CST) < it;
        }
    }
    CHECK(0 == bad);
    CHECK(MPI_SUCCESS == MPI_Request_free(&req));
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
}

/* Counts around coll_persist_shm_max_bytes (4096 by default): both sides
 * of the limit give the same answers. */
static void sizes_around_limit(void)
{
    const int counts[] = {1023, 1024, 1025, 2048};
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); ++c) {
        int n = counts[c], bad = 0;
        int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
        MPI_Request req;
        MPIX_Allreduce_init(in, out, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
        for (int it = 0; it < 5; ++it) {
            for (int i = 0; i < n; ++i) {
                in[i] = (i + it + rank) % size == 0 ? 1000 * it + i : -i;
            }
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            for (int i = 0; i < n; ++i) {
                bad += out[i] != 1000 * it + i;
            }
        }
        CHECK(0 == bad);
        MPI_Request_free(&req);
        free(in);
        free(out);
    }
}

/* compose (see persist_common.h) on pairs that may be spaced out: the
 * step between elements is the datatype's extent. */
static void compose_spaced(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(*dt, &lb, &ext);
    for (int i = 0; i < *len; ++i) {
        int one = 1;
        compose((char *) in + i * ext, (char *) inout + i * ext, &one, dt);
    }
}

/* Odd ranks describe the data with a strided layout, even ranks with a
 * contiguous one: the same type signature, so legal, but no rank may take
 * the shared-memory plan alone. */
static void mixed_layouts(void)
{
    enum { N = 6 };
    int buf[2 * N], bad = 0;
    unsigned pin[2 * 2 * N], pout[2 * 2 * N];
    MPI_Datatype sdt = strided(N), pair, spair;
    MPI_Op noncomm;
    MPI_Request req;
    bool odd = rank % 2;

    CHECK(MPI_SUCCESS == MPIX_Bcast_init(buf, odd ? 1 : N, odd ? sdt : MPI_INT, size - 1,
                                         MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (int it = 0; it < 5; ++it) {
        for (int i = 0; i < 2 * N; ++i) {
            buf[i] = rank == size - 1 ? it * 100 + i : -7;
        }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; ++i) {
            int at = odd ? 2 * i : i;
            int src = (size - 1) % 2 ? 2 * i : i;  /* where the root keeps element i */
            bad += buf[at] != it * 100 + src;
        }
    }
    CHECK(0 == bad);
    MPI_Request_free(&req);
    MPI_Type_free(&sdt);

    /* allreduce with a user operation: pairs, contiguous or every other */
    MPI_Op_create(compose_spaced, 0, &noncomm);
    MPI_Type_contiguous(2, MPI_UNSIGNED, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_create_resized(pair, 0, (MPI_Aint) (2 * 2 * sizeof(unsigned)), &spair);
    MPI_Type_commit(&spair);
    CHECK(MPI_SUCCESS == MPIX_Allreduce_init(pin, pout, N, odd ? spair : pair, noncomm,
                                             MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (int it = 0; it < 5; ++it) {
        for (int i = 0; i < N; ++i) {
            int at = odd ? 2 * i : i;
            pin[2 * at] = (unsigned) (rank + 2);
            pin[2 * at + 1] = (unsigned) (rank + it + i);
        }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; ++i) {
            /* compose in rank order: x -> m_r x + c_r applied for r = 0.. */
            unsigned m = 1, c = 0;
            for (int r = 0; r < size; ++r) {
                unsigned mr = (unsigned) (r + 2), cr = (unsigned) (r + it + i);
                c = mr * c + cr;
                m = mr * m;
            }
            int at = odd ? 2 * i : i;
            bad += pout[2 * at] != m || pout[2 * at + 1] != c;
        }
    }
    CHECK(0 == bad);
    MPI_Request_free(&req);
    MPI_Type_free(&spair);
    MPI_Type_free(&pair);
    MPI_Op_free(&noncomm);
}

/* Shared-memory and point-to-point plans started together, in an order
 * that differs between ranks. */
static void startall_mixed(void)
{
    enum { BIG = 1 << 16 };
    int small_in = rank + 1, small_out = 0, b = 0;
    int *big_in = malloc(BIG * sizeof(int)), *big_out = malloc(BIG * sizeof(int));
    MPI_Request r[4], order[4];
    int bad = 0;

    MPIX_Allreduce_init(&small_in, &small_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                        MPI_INFO_NULL, &r[0]);
    MPIX_Allreduce_init(big_in, big_out, BIG, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                        &r[1]);
    MPIX_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]);
    MPIX_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]);
    for (int it = 0; it < 20; ++it) {
        for (int i = 0; i < BIG; ++i) {
            big_in[i] = i + rank + it;
        }
        b = 0 == rank ? 42 + it : 0;
        for (int k = 0; k < 4; ++k) {
            order[k] = r[(k + rank + it) % 4];
        }
        MPI_Startall(4, order);
        MPI_Waitall(4, order, MPI_STATUSES_IGNORE);
        for (int i = 0; i < BIG; ++i) {
            bad += big_out[i] != size * (i + it) + size * (size - 1) / 2;
        }
        bad += small_out != size * (size + 1) / 2 || b != 42 + it;
    }
    CHECK(0 == bad);
    for (int k = 0; k < 4; ++k) {
        MPI_Request_free(&r[k]);
    }
    free(big_in);
    free(big_out);
}

/* Each init maps a segment and each free unmaps it. */
static void init_free_cycles(void)
{
    int in = rank, out = -1;
    for (int i = 0; i < 500; ++i) {
        MPI_Request req;
        CHECK(MPI_SUCCESS == MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD,
                                                 MPI_INFO_NULL, &req));
        if (0 == i % 100) {
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            CHECK(0 == out);
        }
        CHECK(MPI_SUCCESS == MPI_Request_free(&req));
    }
}

int main(int argc, char **argv)
{
#ifdef PERSIST_SHM_DEPTH
    setenv("OMPI_MCA_coll_persist_shm_bcast_depth", PERSIST_SHM_DEPTH, 1);
#endif
    MPI_Comm half, dup;

    ompix_test_init(&argc, &argv);
    allreduce_skewed(MPI_COMM_WORLD, 1);
    allreduce_skewed(MPI_COMM_WORLD, 3);
    for (int root = 0; root < size; ++root) {
        bcast_root_ahead(MPI_COMM_WORLD, root);
    }
    barrier_skewed(MPI_COMM_WORLD);

    /* sub-communicators: ranks renumbered, reversed, and a one-rank half */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    allreduce_skewed(half, 1);
    bcast_root_ahead(half, 0);
    barrier_skewed(half);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    allreduce_skewed(dup, 3);
    bcast_root_ahead(dup, size - 1);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);

    sizes_around_limit();
    mixed_layouts();
    startall_mixed();
    init_free_cycles();
    return ompix_test_finish("persist_shm");
}
