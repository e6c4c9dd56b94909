/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=240 valgrind=no
 *
 * MPI_THREAD_MULTIPLE stress: 4 threads each register and complete 10 000
 * continuations (own and shared continuation requests, with and without
 * IMMEDIATE), while their peers' messages complete them from other
 * threads; some callbacks call MPI and register a follow-up continuation.
 * Every continuation must run exactly once.
 */
#include "ompix_test.h"
#include <pthread.h>
#include <stdatomic.h>

#define NTHREADS 4
#define NITER 10000

static MPI_Request shared_cr;
static atomic_int total_ran;

typedef struct {
    int tid;
    atomic_int ran;          /* callbacks of this thread's continuations */
    atomic_int followups;    /* follow-up continuations run */
    int sbuf, rbuf[64];
} worker_t;

static void followup_cb(MPI_Status *st, void *data)
{
    worker_t *w = data;
    (void)st;
    atomic_fetch_add(&w->followups, 1);
    atomic_fetch_add(&total_ran, 1);
}

static void count_cb(MPI_Status *st, void *data)
{
    worker_t *w = data;
    (void)st;
    if (0 == atomic_fetch_add(&w->ran, 1) % 100) {
        /* Call MPI from the callback and chain one more continuation. */
        MPI_Request r;
        MPI_Ibarrier(MPI_COMM_SELF, &r);
        MPIX_Continue(&r, followup_cb, w, MPIX_CONT_IMMEDIATE, MPI_STATUS_IGNORE, shared_cr);
    }
    atomic_fetch_add(&total_ran, 1);
}

static void *worker(void *arg)
{
    worker_t *w = arg;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request cr;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    for (int i = 0; i < NITER; ++i) {
        MPI_Request r[2];
        MPI_Irecv(&w->rbuf[i % 64], 1, MPI_INT, left, w->tid, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&w->sbuf, 1, MPI_INT, right, w->tid, MPI_COMM_WORLD, &r[1]);
        MPIX_Continueall(2, r, count_cb, w, (i & 1) ? MPIX_CONT_IMMEDIATE : 0,
                         MPI_STATUSES_IGNORE, (i % 3) ? cr : shared_cr);
        if (63 == i % 64) {
            /* Bound the outstanding receives so rbuf slots are free again. */
            MPI_Wait(&cr, MPI_STATUS_IGNORE);
            while (atomic_load(&w->ran) < i + 1) {
                int flag;
                MPI_Test(&shared_cr, &flag, MPI_STATUS_IGNORE);
            }
        }
    }
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    while (atomic_load(&w->ran) < NITER) {
        int flag;
        MPI_Test(&shared_cr, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&cr);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[NTHREADS];
    static worker_t w[NTHREADS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(MPI_THREAD_MULTIPLE == provided);
    if (MPI_THREAD_MULTIPLE != provided) {
        return ompix_test_finish("cont_threads");
    }
    MPIX_Continue_init(MPI_INFO_NULL, &shared_cr);
    for (int t = 0; t < NTHREADS; ++t) {
        w[t].tid = t;
        w[t].sbuf = rank;
        pthread_create(&th[t], NULL, worker, &w[t]);
    }
    for (int t = 0; t < NTHREADS; ++t) {
        pthread_join(th[t], NULL);
    }
    CHECK(MPI_SUCCESS == MPI_Wait(&shared_cr, MPI_STATUS_IGNORE));
    int expect_followups = (NITER + 99) / 100;
    for (int t = 0; t < NTHREADS; ++t) {
        CHECK(NITER == atomic_load(&w[t].ran));
        CHECK(expect_followups == atomic_load(&w[t].followups));
        CHECK((rank + size - 1) % size == w[t].rbuf[0]);
    }
    CHECK(NTHREADS * (NITER + expect_followups) == atomic_load(&total_ran));
    CHECK(MPI_SUCCESS == MPI_Request_free(&shared_cr));
    return ompix_test_finish("cont_threads");
}
