/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1 timeout=120 mca="osc rdma2,sm"
 *
 * MPI_THREAD_MULTIPLE: four threads per rank issue RMA operations on one
 * window at the same time, inside a lock_all epoch the main thread opens
 * and closes (operations, flushes and request completion may come from
 * any thread; synchronization calls on one window from several threads at
 * once are not exercised).  On an allocated and on a created window:
 *  - tickets: every thread does MPI_Fetch_and_op(SUM, 1) + MPI_Win_flush
 *    on one counter at rank 0; the counter ends at the number of adds and
 *    the fetched values of all threads of all ranks are 0 .. total-1, each
 *    exactly once;
 *  - every thread puts its own value into its own slot at every rank,
 *    flushes, gets it back (Put/Get, then Rput/Rget waited for by the
 *    thread) and compares;
 *  - every thread accumulates 1.0 (MPI_DOUBLE, SUM) into one location at
 *    rank 0: the sum is exact.
 * Threads only count mismatches; the main thread reports them.
 */
#include "rdma2_common.h"
#include <pthread.h>
#include <string.h>

#define NTHR 4
#define NOPS 100

struct job {
    MPI_Win win;
    int t;
    long long tickets[NOPS];
    long bad_put, bad_rput, errors;
};

/* Window layout (elements of 8 bytes): [0] ticket counter, [1] double
 * accumulator, then per (origin, thread) a Put slot and an Rput slot. */
static MPI_Aint slot(int origin, int t, int which) { return 2 + (origin * NTHR + t) * 2 + which; }

static long long value_of(int t, int target, int i)
{
    return ((long long) rank << 40) | ((long long) t << 32) | ((long long) target << 20) | i;
}

#define T_OK(call) do { if (MPI_SUCCESS != (call)) j->errors++; } while (0)

static void *worker(void *arg)
{
    struct job *j = arg;
    const long long one = 1;
    const double fone = 1.0;
    MPI_Request rq;

    for (int i = 0; i < NOPS; ++i) {
        T_OK(MPI_Fetch_and_op(&one, &j->tickets[i], MPI_LONG_LONG, 0, 0, MPI_SUM, j->win));
        T_OK(MPI_Win_flush(0, j->win));
        T_OK(MPI_Accumulate(&fone, 1, MPI_DOUBLE, 0, 1, 1, MPI_DOUBLE, MPI_SUM, j->win));
    }
    for (int i = 0; i < NOPS / 10; ++i) {
        for (int tg = 0; tg < size; ++tg) {
            long long v = value_of(j->t, tg, i), back = -1;
            T_OK(MPI_Put(&v, 1, MPI_LONG_LONG, tg, slot(rank, j->t, 0), 1, MPI_LONG_LONG, j->win));
            T_OK(MPI_Win_flush(tg, j->win));
            T_OK(MPI_Get(&back, 1, MPI_LONG_LONG, tg, slot(rank, j->t, 0), 1, MPI_LONG_LONG,
                         j->win));
            T_OK(MPI_Win_flush(tg, j->win));
            j->bad_put += back != v;
            v = ~v;
            back = -1;
            T_OK(MPI_Rput(&v, 1, MPI_LONG_LONG, tg, slot(rank, j->t, 1), 1, MPI_LONG_LONG, j->win,
                          &rq));
            T_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            T_OK(MPI_Win_flush(tg, j->win));
            T_OK(MPI_Rget(&back, 1, MPI_LONG_LONG, tg, slot(rank, j->t, 1), 1, MPI_LONG_LONG,
                          j->win, &rq));
            T_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            j->bad_rput += back != v;
        }
    }
    return NULL;
}

static void check_results(MPI_Win win, long long *mem, struct job *jobs)
{
    long long mine[NTHR * NOPS], *all = NULL, total = (long long) size * NTHR * NOPS;

    for (int t = 0; t < NTHR; ++t) {
        check_eq("MPI calls of thread failed", t, 0, jobs[t].errors);
        check_eq("Put/Get slots read back wrong", t, 0, jobs[t].bad_put);
        check_eq("Rput/Rget slots read back wrong", t, 0, jobs[t].bad_rput);
        memcpy(mine + t * NOPS, jobs[t].tickets, sizeof jobs[t].tickets);
    }
    if (0 == rank) {
        all = malloc(total * sizeof(long long));
    }
    MPI_Gather(mine, NTHR * NOPS, MPI_LONG_LONG, all, NTHR * NOPS, MPI_LONG_LONG, 0,
               MPI_COMM_WORLD);
    if (0 != rank) {
        return;
    }
    char *seen = calloc(total, 1);
    for (long long k = 0; k < total; ++k) {
        if (all[k] < 0 || all[k] >= total || seen[all[k]]++) {
            check_eq("ticket out of range or fetched twice", (long) k, -1, all[k]);
        }
    }
    free(seen);
    free(all);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    OK(MPI_Win_sync(win));
    check_eq("ticket counter", 0, total, mem[0]);
    double sum;
    memcpy(&sum, &mem[1], sizeof sum);
    check_eq("double accumulator", 1, total, (long long) sum);
    check_eq("double accumulator is integral", 1, 0, sum != (double) (long long) sum);
    OK(MPI_Win_unlock(0, win));
}

static void run(int allocate)
{
    MPI_Aint n = slot(size, 0, 0);
    long long *mem = NULL;
    MPI_Win win;
    struct job jobs[NTHR];
    pthread_t th[NTHR];

    set_case("threads on a %s window", allocate ? "allocated" : "created");
    if (allocate) {
        OK(MPI_Win_allocate(n * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &mem, &win));
    } else {
        mem = malloc(n * sizeof(long long));
        OK(MPI_Win_create(mem, n * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                          MPI_COMM_WORLD, &win));
    }
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    memset(mem, 0, n * sizeof(long long));
    OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);

    OK(MPI_Win_lock_all(0, win));
    for (int t = 0; t < NTHR; ++t) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].win = win;
        jobs[t].t = t;
        pthread_create(&th[t], NULL, worker, &jobs[t]);
    }
    for (int t = 0; t < NTHR; ++t) {
        pthread_join(th[t], NULL);
    }
    OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    check_results(win, mem, jobs);
    OK(MPI_Win_free(&win));
    if (!allocate) {
        free(mem);
    }
}

int main(int argc, char **argv)
{
    int provided;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    set_case("thread level");
    check_eq("MPI_THREAD_MULTIPLE provided", 0, MPI_THREAD_MULTIPLE, provided);
    if (MPI_THREAD_MULTIPLE == provided) {
        run(1);
        run(0);
    }
    return ompix_test_finish("rdma2/rma_mt");
}
