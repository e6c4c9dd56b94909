/*
 * ompix-test: np=2,3,4 tls=shm,tcp,net pml=ob1 timeout=120 paths="win:ucx" valgrind=no mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Truly passive target: rank 0 computes outside MPI (first a busy loop,
 * then a sleep, 3 s each, no MPI call at all) while every other rank, on an
 * MPI_Win_allocate window at rank 0, takes an exclusive lock, a shared
 * lock and lock_all in turn and does Put, Get, Accumulate, Get_accumulate,
 * Fetch_and_op, Compare_and_swap, Rput and Rget with flushes in each.
 * Every result is checked, and rank 0 checks its memory afterwards.
 *
 * The one timing assertion: all of an origin's epochs, started 0.2 s after
 * rank 0 entered its 3 s computation, must be finished within 1.5 s.  An
 * implementation that needs the target to call into MPI cannot finish
 * before the computation ends (2.8 s later), so the bound separates
 * "passive" from "not passive" by almost a factor of 2 even on 2
 * oversubscribed cores, where one epoch takes well under 10 ms.
 *
 * In the runner's tcp mode (UCX_TLS=tcp,self, btl self,tcp) this still
 * demands passive progress: rdma2 must not depend on UCX's shared-memory
 * transports (or on the target calling MPI) for same-node windows.  Stock
 * osc sm passes in both modes; osc pt2pt and osc ucx take ~2.8 s.
 * Not run under valgrind (valgrind=no): the time bound means nothing there.
 */
#include "rdma2_common.h"
#include <time.h>

#define COMPUTE 3.0
#define BOUND 1.5
#define SLOTS 8    /* elements per origin */

static elem_t init_val(int round, MPI_Aint idx) { return (elem_t) round * 1000000 + idx + 1; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile double sink;

static void compute_outside_mpi(int sleep_instead)
{
    double end = now() + COMPUTE, x = 1.0;
    if (sleep_instead) {
        struct timespec ts = {3, 0};
        while (nanosleep(&ts, &ts)) {
        }
        return;
    }
    while (now() < end) {
        for (int i = 0; i < 1000; ++i) {
            x = x * 1.0000001 + 1e-9;
        }
    }
    sink = x;
}

/* One round: origins poke rank 0 while it computes.  Element layout:
 * origin r owns [r*SLOTS, (r+1)*SLOTS): 0 put, 1 get source, 2 accumulate,
 * 3 get_accumulate, 4 fetch_and_op, 5 compare_and_swap, 6 rput, 7 spare. */
static void round_(MPI_Win win, elem_t *base, int sleep_instead, int round)
{
    set_case("target %s outside MPI, round %d", sleep_instead ? "sleeping" : "computing", round);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    for (int i = 0; i < size * SLOTS; ++i) {
        base[i] = init_val(round, i);
    }
    OK(MPI_Win_unlock(0, win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        compute_outside_mpi(sleep_instead);
    } else {
        struct timespec ts = {0, 200000000};
        elem_t v, g[3] = {0, 0, 0}, one = 1, cmp, res[3], r2 = 0;
        MPI_Aint s = (MPI_Aint) rank * SLOTS;
        MPI_Request rq[2];
        double t0, el;
        nanosleep(&ts, NULL);
        t0 = now();
        /* exclusive lock: put, get, accumulate */
        v = -rank;
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        OK(MPI_Put(&v, 1, ELEM, 0, s + 0, 1, ELEM, win));
        OK(MPI_Get(&g[0], 1, ELEM, 0, s + 1, 1, ELEM, win));
        OK(MPI_Accumulate(&one, 1, ELEM, 0, s + 2, 1, ELEM, MPI_SUM, win));
        OK(MPI_Win_unlock(0, win));
        /* shared lock: get_accumulate, fetch_and_op, flush, compare_and_swap */
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        OK(MPI_Get_accumulate(&one, 1, ELEM, &res[0], 1, ELEM, 0, s + 3, 1, ELEM, MPI_SUM, win));
        OK(MPI_Fetch_and_op(&one, &res[1], ELEM, 0, s + 4, MPI_SUM, win));
        OK(MPI_Win_flush(0, win));
        cmp = init_val(round, s + 5);
        OK(MPI_Compare_and_swap(&v, &cmp, &res[2], ELEM, 0, s + 5, win));
        OK(MPI_Win_unlock(0, win));
        /* lock_all: rput, rget, flush_all */
        OK(MPI_Win_lock_all(0, win));
        OK(MPI_Rput(&v, 1, ELEM, 0, s + 6, 1, ELEM, win, &rq[0]));
        OK(MPI_Rget(&r2, 1, ELEM, 0, s + 1, 1, ELEM, win, &rq[1]));
        OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        OK(MPI_Win_flush_all(win));
        OK(MPI_Get(&g[1], 1, ELEM, 0, s + 0, 1, ELEM, win));
        OK(MPI_Get(&g[2], 1, ELEM, 0, s + 6, 1, ELEM, win));
        OK(MPI_Win_flush(0, win));
        OK(MPI_Win_unlock_all(win));
        el = now() - t0;
        if (el >= BOUND) {
            fail("epochs at a target outside MPI took %.2f s (bound %.1f s)", el, BOUND);
        }
        check_eq("Get", s + 1, init_val(round, s + 1), g[0]);
        check_eq("Get_accumulate result", s + 3, init_val(round, s + 3), res[0]);
        check_eq("Fetch_and_op result", s + 4, init_val(round, s + 4), res[1]);
        check_eq("Compare_and_swap result", s + 5, init_val(round, s + 5), res[2]);
        check_eq("Rget", s + 1, init_val(round, s + 1), r2);
        check_eq("Get after Put", s + 0, -rank, g[1]);
        check_eq("Get after Rput", s + 6, -rank, g[2]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        for (int r = 1; r < size; ++r) {
            MPI_Aint s = (MPI_Aint) r * SLOTS;
            elem_t e[SLOTS];
            for (int i = 0; i < SLOTS; ++i) {
                e[i] = init_val(round, s + i);
            }
            e[0] = -r;
            e[2] += 1;
            e[3] += 1;
            e[4] += 1;
            e[5] = -r;
            e[6] = -r;
            for (int i = 0; i < SLOTS; ++i) {
                check_eq("target element", s + i, e[i], base[s + i]);
            }
        }
        OK(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Win win;
    elem_t *base;
    ompix_test_init(&argc, &argv);
    set_case("window creation");
    OK(MPI_Win_allocate((MPI_Aint) size * SLOTS * sizeof(elem_t), sizeof(elem_t), MPI_INFO_NULL,
                        MPI_COMM_WORLD, &base, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    round_(win, base, 0, 1);
    round_(win, base, 1, 2);
    OK(MPI_Win_free(&win));
    return ompix_test_finish("rdma2/rma_passive");
}
