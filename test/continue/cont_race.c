/*
 * ompix-test: np=1 tls=shm pml=ob1,ucx timeout=120 valgrind=no
 *
 * MPI_THREAD_MULTIPLE races on the lean paths: three threads register
 * continuations (one request with MPIX_Continue, two with
 * MPIX_Continueall, with and without IMMEDIATE, on their own continuation
 * request and on one shared by all, whose kept continuation they compete
 * for) on generalized requests that a fourth thread completes at any
 * moment: before, during or after the registration.  Every callback must
 * run exactly once, after all of its requests completed, with the
 * statuses of the query function.
 */
#include "ompix_test.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#define NWORKERS 3
#define NITER 1500
#define BATCH 32

typedef struct {
    int n;                     /* requests of this registration */
    atomic_int completed;      /* completed by the completer so far */
    atomic_int ran;
    int early;                 /* callback saw completed < n */
    MPI_Status st[2];
} reg_t;

typedef struct {
    int tid;
    atomic_int ran, bad;
    reg_t regs[BATCH];
} worker_t;

typedef struct {
    _Atomic(reg_t *) reg;
    MPI_Request g;
} slot_t;

static MPI_Request shared_cr;
static slot_t slots[NWORKERS][2];
static atomic_int workers_left = NWORKERS;

static void reg_cb(MPI_Status *st, void *data)
{
    reg_t *r = data;

    if (atomic_load(&r->completed) != r->n) {
        r->early = 1;
    }
    for (int i = 0; i < r->n; ++i) {
        if (42 != st[i].MPI_SOURCE || 43 != st[i].MPI_TAG) {
            r->early = 1;
        }
    }
    atomic_fetch_add(&r->ran, 1);
}

/* Publishes g for the completer: from now on it may complete it. */
static void publish(int tid, int k, reg_t *r, MPI_Request g)
{
    slots[tid][k].g = g;
    atomic_store(&slots[tid][k].reg, r);
}

static void *completer(void *arg)
{
    unsigned spin = 1;

    (void)arg;
    while (atomic_load(&workers_left) > 0) {
        sched_yield();          /* 2 cores shared by 5 threads */
        for (int t = 0; t < NWORKERS; ++t) {
            for (int k = 0; k < 2; ++k) {
                reg_t *r = atomic_load(&slots[t][k].reg);
                if (NULL == r) {
                    continue;
                }
                MPI_Request g = slots[t][k].g;
                atomic_store(&slots[t][k].reg, NULL);
                /* a varying delay moves the completion around the
                 * registration */
                spin = spin * 1103515245u + 12345u;
                for (volatile unsigned d = 0; d < (spin >> 24) % 64; ++d) {
                }
                atomic_fetch_add(&r->completed, 1);
                MPI_Grequest_complete(g);
            }
        }
    }
    return NULL;
}

static void *worker(void *arg)
{
    worker_t *w = arg;
    MPI_Request cr;
    int issued = 0;

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    for (int i = 0; i < NITER; ++i) {
        reg_t *r = &w->regs[i % BATCH];
        MPI_Request g[2], target = (i % 3) ? shared_cr : cr;
        int flags = (i & 2) ? MPIX_CONT_IMMEDIATE : 0, rc;

        r->n = 1 + (i & 1);
        atomic_store(&r->completed, 0);
        atomic_store(&r->ran, 0);
        r->early = 0;
        for (int k = 0; k < r->n; ++k) {
            g[k] = grequest();
            /* wait until the completer took the previous one of this slot */
            while (NULL != atomic_load(&slots[w->tid][k].reg)) {
                sched_yield();
            }
            publish(w->tid, k, r, g[k]);
        }
        if (1 == r->n) {
            rc = MPIX_Continue(&g[0], reg_cb, r, flags, r->st, target);
        } else {
            rc = MPIX_Continueall(2, g, reg_cb, r, flags, r->st, target);
        }
        CHECK(MPI_SUCCESS == rc);
        issued++;
        if (BATCH - 1 == i % BATCH || NITER - 1 == i) {
            /* every registration of this batch ran exactly once */
            MPI_Wait(&cr, MPI_STATUS_IGNORE);
            for (int j = 0; j <= i % BATCH; ++j) {
                while (0 == atomic_load(&w->regs[j].ran)) {
                    /* progress: runs the shared request's continuations */
                    int flag;
                    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &flag,
                               MPI_STATUS_IGNORE);
                }
            }
            for (int j = 0; j <= i % BATCH; ++j) {
                if (1 != atomic_load(&w->regs[j].ran) || w->regs[j].early) {
                    atomic_fetch_add(&w->bad, 1);
                }
                atomic_fetch_add(&w->ran, atomic_load(&w->regs[j].ran));
            }
        }
    }
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
    CHECK(issued == NITER);
    atomic_fetch_sub(&workers_left, 1);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[NWORKERS], comp;
    static worker_t w[NWORKERS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(MPI_THREAD_MULTIPLE == provided);
    if (MPI_THREAD_MULTIPLE != provided) {
        return ompix_test_finish("cont_race");
    }
    MPIX_Continue_init(MPI_INFO_NULL, &shared_cr);
    pthread_create(&comp, NULL, completer, NULL);
    for (int t = 0; t < NWORKERS; ++t) {
        w[t].tid = t;
        pthread_create(&th[t], NULL, worker, &w[t]);
    }
    for (int t = 0; t < NWORKERS; ++t) {
        pthread_join(th[t], NULL);
    }
    pthread_join(comp, NULL);
    CHECK(MPI_SUCCESS == MPI_Wait(&shared_cr, MPI_STATUS_IGNORE));
    for (int t = 0; t < NWORKERS; ++t) {
        CHECK(NITER == atomic_load(&w[t].ran));
        CHECK(0 == atomic_load(&w[t].bad));
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&shared_cr));
    return ompix_test_finish("cont_race");
}
