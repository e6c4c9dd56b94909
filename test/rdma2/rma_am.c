/*
 * ompix-test: np=2,3,4 tls=shm,tcp,net pml=ob1 timeout=180 paths="acc:am" mca="osc rdma2,sm osc_rdma2_acc_path am osc_rdma2_cma 0" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * The active-message accumulate path (osc_rdma2_acc_path am, so that it also
 * serves same-node peers over shared memory; CMA off, so lock-path data
 * goes through UCX and a lock holder needs the target's progress):
 *
 *  - deferral: on one word of the last rank's created window, every rank
 *    adds at once: contiguous Accumulates (active messages), a vector
 *    datatype (the lock path, holding the target's accumulate lock across
 *    UCX round trips that the target must serve), the target itself
 *    (lock path on itself, a CPU lock) and Fetch_and_op, Get_accumulate
 *    and Compare_and_swap tickets; messages that find the lock held wait
 *    in the target's queue, never waited for inside the handler or the
 *    drain (that would deadlock with the holder).  The sums and the ticket permutation must be exact;
 *  - ordering from one origin: REPLACE of 1..N to one word without flush,
 *    then the lock path's REPLACE and a Fetch_and_op NO_OP must see the
 *    last value; SUMs followed by a Get_accumulate NO_OP see every one;
 *  - request-based: Raccumulate (active messages), Rget_accumulate (state
 *    machines over the lock) and blocking lock-path Accumulates interleaved
 *    from one origin; each Rget_accumulate's REPLACE fetches the value
 *    issued just before it;
 *  - many outstanding: 3000 Accumulates per origin, then flush,
 *    flush_all, unlock_all, fence and PSCW complete each make them visible;
 *  - a target busy outside MPI: it spins on loads of its own window until
 *    the origins' accumulates have all arrived, with no MPI call: only the
 *    progress thread (started by this lock-mode window) can apply them.
 *    A target that needed MPI calls hangs here (the runner's timeout).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ompix_test.h"

#define ROUNDS 300
#define ORDER_N 500
#define MANY 3000
#define REQ_N 600

static int rank, size, last;

static int64_t *create(MPI_Win *win, size_t n)
{
    int64_t *mem;
    MPI_Alloc_mem((MPI_Aint) (n * sizeof(int64_t)), MPI_INFO_NULL, &mem);
    memset(mem, 0, n * sizeof(int64_t));
    MPI_Win_create(mem, (MPI_Aint) (n * sizeof(int64_t)), sizeof(int64_t), MPI_INFO_NULL,
                   MPI_COMM_WORLD, win);
    return mem;
}

static int64_t load(const int64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Words 0 and 2 of the last rank get +1 from every path at once; word 4
 * holds Fetch_and_op tickets, word 6 a Compare_and_swap counter. */
static void test_deferral(void)
{
    MPI_Win win;
    int64_t *mem = create(&win, 8), one = 1, two[2] = {1, 1}, old, got[2];
    int64_t tickets = 0, mine_ok = 1, cas_wins = 0;
    MPI_Datatype vec;

    MPI_Type_vector(2, 1, 2, MPI_INT64_T, &vec);        /* words 0 and 2: lock path */
    MPI_Type_commit(&vec);
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < ROUNDS; ++i) {
        MPI_Accumulate(&one, 1, MPI_INT64_T, last, 0, 1, MPI_INT64_T, MPI_SUM, win);
        MPI_Accumulate(two, 2, MPI_INT64_T, last, 0, 1, vec, MPI_SUM, win);
        MPI_Get_accumulate(&one, 1, MPI_INT64_T, got, 1, MPI_INT64_T, last, 2, 1, MPI_INT64_T,
                           MPI_SUM, win);
        MPI_Fetch_and_op(&one, &old, MPI_INT64_T, last, 4, MPI_SUM, win);
        MPI_Win_flush(last, win);
        mine_ok &= old >= tickets;  /* our own tickets increase */
        tickets = old + 1;
        for (;;) {                  /* one successful CAS increment per round */
            int64_t cur, next;
            MPI_Fetch_and_op(NULL, &cur, MPI_INT64_T, last, 6, MPI_NO_OP, win);
            MPI_Win_flush(last, win);
            next = cur + 1;
            MPI_Compare_and_swap(&next, &cur, &old, MPI_INT64_T, last, 6, win);
            MPI_Win_flush(last, win);
            if (old == cur) break;
        }
        ++cas_wins;
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(mine_ok);
    if (rank == last) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
        CHECK(mem[0] == (int64_t) size * ROUNDS * 2);
        CHECK(mem[2] == (int64_t) size * ROUNDS * 2);
        CHECK(mem[4] == (int64_t) size * ROUNDS);
        CHECK(mem[6] == (int64_t) size * ROUNDS);
        MPI_Win_unlock(rank, win);
    }
    CHECK(cas_wins == ROUNDS);
    MPI_Type_free(&vec);
    MPI_Win_free(&win);
    MPI_Free_mem(mem);
}

/* Origin r owns word r of the last rank. */
static void test_order(void)
{
    MPI_Win win;
    int64_t *mem = create(&win, (size_t) size), v, got = -1, one = 1;
    MPI_Datatype vec;

    MPI_Type_vector(1, 1, 2, MPI_INT64_T, &vec);        /* one word, not contiguous type */
    MPI_Type_commit(&vec);
    MPI_Win_lock(MPI_LOCK_SHARED, last, 0, win);
    for (v = 1; v <= ORDER_N; ++v) {
        MPI_Accumulate(&v, 1, MPI_INT64_T, last, rank, 1, MPI_INT64_T, MPI_REPLACE, win);
    }
    MPI_Fetch_and_op(NULL, &got, MPI_INT64_T, last, rank, MPI_NO_OP, win);
    MPI_Win_flush(last, win);
    CHECK(got == ORDER_N);
    for (v = 1; v <= ORDER_N; ++v) {      /* alternate the active-message and lock paths */
        MPI_Accumulate(&v, 1, MPI_INT64_T, last, rank, 1, 0 == v % 2 ? vec : MPI_INT64_T,
                       MPI_REPLACE, win);
    }
    for (int i = 0; i < ORDER_N; ++i) {
        MPI_Accumulate(&one, 1, MPI_INT64_T, last, rank, 1, MPI_INT64_T, MPI_SUM, win);
    }
    MPI_Get_accumulate(NULL, 0, MPI_INT64_T, &got, 1, MPI_INT64_T, last, rank, 1, MPI_INT64_T,
                       MPI_NO_OP, win);
    MPI_Win_flush(last, win);
    CHECK(got == 2 * ORDER_N);
    MPI_Win_unlock(last, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == last) {
        for (int r = 0; r < size; ++r) CHECK(load(&mem[r]) == 2 * ORDER_N);
    }
    MPI_Type_free(&vec);
    MPI_Win_free(&win);
    MPI_Free_mem(mem);
}

/* Request-based accumulates mixed with blocking ones, from one origin to
 * its own word of the last rank: Raccumulate goes as an active message,
 * Rget_accumulate as a state machine over the lock, blocking Accumulate of
 * a vector type by the lock path.  Each Rget_accumulate's REPLACE of v
 * must fetch v - 1, whichever path carried v - 1 and whether its request
 * was waited for yet. */
static void test_requests(void)
{
    MPI_Win win;
    int64_t *mem = create(&win, (size_t) size), vals[REQ_N], res[REQ_N], got = -1;
    MPI_Request reqs[REQ_N];
    MPI_Datatype vec;
    int nreq = 0;

    MPI_Type_vector(1, 1, 2, MPI_INT64_T, &vec);
    MPI_Type_commit(&vec);
    MPI_Win_lock(MPI_LOCK_SHARED, last, 0, win);
    for (int i = 0; i < REQ_N; ++i) {
        vals[i] = i + 1;
        res[i] = -1;
        if (0 == i % 3) {
            MPI_Rget_accumulate(&vals[i], 1, MPI_INT64_T, &res[i], 1, MPI_INT64_T, last, rank, 1,
                                MPI_INT64_T, MPI_REPLACE, win, &reqs[nreq++]);
        } else if (0 == i % 7) {
            MPI_Accumulate(&vals[i], 1, MPI_INT64_T, last, rank, 1, vec, MPI_REPLACE, win);
        } else {
            MPI_Raccumulate(&vals[i], 1, MPI_INT64_T, last, rank, 1, MPI_INT64_T, MPI_REPLACE,
                            win, &reqs[nreq++]);
        }
    }
    MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
    MPI_Fetch_and_op(NULL, &got, MPI_INT64_T, last, rank, MPI_NO_OP, win);
    MPI_Win_flush(last, win);
    CHECK(got == REQ_N);
    for (int i = 0; i < REQ_N; i += 3) CHECK(res[i] == i);
    MPI_Win_unlock(last, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == last) {
        for (int r = 0; r < size; ++r) CHECK(load(&mem[r]) == REQ_N);
    }
    MPI_Type_free(&vec);
    MPI_Win_free(&win);
    MPI_Free_mem(mem);
}

/* Every rank adds MANY times to word 0 of every other rank, then one
 * completion call must make all of it visible. */
static void many_then(MPI_Win win, int64_t *mem, int kind, int64_t *expect)
{
    int64_t one = 1;
    MPI_Group world, others;
    int excl[1] = {rank};

    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_excl(world, 1, excl, &others);
    if (3 == kind) MPI_Win_fence(0, win);
    if (4 == kind) {
        MPI_Win_post(others, 0, win);
        MPI_Win_start(others, 0, win);
    }
    if (kind <= 2) MPI_Win_lock_all(0, win);
    for (int t = 0; t < size; ++t) {
        if (t == rank) continue;
        for (int i = 0; i < MANY; ++i) {
            MPI_Accumulate(&one, 1, MPI_INT64_T, t, 0, 1, MPI_INT64_T, MPI_SUM, win);
        }
        if (0 == kind) MPI_Win_flush(t, win);
    }
    if (1 == kind) MPI_Win_flush_all(win);
    if (kind <= 2) MPI_Win_unlock_all(win);
    if (3 == kind) MPI_Win_fence(0, win);
    if (4 == kind) {
        MPI_Win_complete(win);
        MPI_Win_wait(win);
    }
    if (kind <= 2) MPI_Barrier(MPI_COMM_WORLD);
    *expect += (int64_t) (size - 1) * MANY;
    CHECK(load(&mem[0]) == *expect);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&others);
    MPI_Group_free(&world);
}

static void test_many(void)
{
    MPI_Win win;
    int64_t *mem = create(&win, 1), expect = 0;

    for (int kind = 0; kind <= 4; ++kind) {
        many_then(win, mem, kind, &expect);
    }
    MPI_Win_free(&win);
    MPI_Free_mem(mem);
}

/* Rank 0 spins outside MPI until the others' accumulates have landed. */
static void test_busy_target(void)
{
    MPI_Win win;
    int64_t *mem = create(&win, 2), one = 1, old;
    const int64_t expect = (int64_t) (size - 1) * ROUNDS;
    struct timespec start, t;
    int seen = 1;

    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        clock_gettime(CLOCK_MONOTONIC, &start);
        while (load(&mem[0]) < expect || load(&mem[1]) < expect) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if (t.tv_sec - start.tv_sec > 100) {    /* not a timing check: no hang */
                seen = 0;
                break;
            }
        }
        CHECK(seen);
    } else {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        for (int i = 0; i < ROUNDS; ++i) {
            MPI_Accumulate(&one, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, MPI_SUM, win);
            MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, 1, MPI_SUM, win);
            MPI_Win_flush(0, win);
        }
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(mem[0] == expect && mem[1] == expect);
    }
    MPI_Win_free(&win);
    MPI_Free_mem(mem);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    last = size - 1;
    test_deferral();
    test_order();
    test_requests();
    test_many();
    test_busy_target();
    return ompix_test_finish("rdma2/rma_am");
}
