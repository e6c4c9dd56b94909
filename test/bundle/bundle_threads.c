/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=180 threads
 *
 * MPI_THREAD_MULTIPLE with a bundle per thread: each of 3 threads runs its
 * own two-round ring bundle (receive from the left and send to the right
 * on its own communicator, then a generalized member that checks what came
 * and computes the next value) 500 times, data checked every iteration;
 * the bundles advance from whichever thread progresses.
 */
#include "ompix_test.h"

#include <pthread.h>

#define THREADS 3
#define ITERS 500

typedef struct {
    MPI_Comm comm;
    int id, sbuf, rbuf, it, bad;
} worker_t;

static int check_start(void *extra)
{
    worker_t *w = extra;

    w->bad += w->rbuf != left * 1000 + w->id * 100 + w->it % 100;
    return MPI_SUCCESS;
}

static int done_poll(void *extra, int *completed)
{
    (void) extra;
    *completed = 1;
    return MPI_SUCCESS;
}

static void *work(void *arg)
{
    worker_t *w = arg;
    MPI_Request m[3], b;
    int sizes[2] = {2, 1};

    MPI_Recv_init(&w->rbuf, 1, MPI_INT, left, 1, w->comm, &m[0]);
    MPI_Send_init(&w->sbuf, 1, MPI_INT, right, 1, w->comm, &m[1]);
    MPIX_Grequest_persistent_init(check_start, done_poll, NULL, w, &m[2]);
    if (MPI_SUCCESS != MPIX_Bundle_init(2, sizes, m, MPI_INFO_NULL, &b)) {
        w->bad++;
        return NULL;
    }
    for (w->it = 0; w->it < ITERS; ++w->it) {
        w->sbuf = rank * 1000 + w->id * 100 + w->it % 100;
        w->rbuf = -1;
        w->bad += MPI_SUCCESS != MPI_Start(&b);
        w->bad += MPI_SUCCESS != MPI_Wait(&b, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&b);
    for (int i = 0; i < 3; ++i) {
        MPI_Request_free(&m[i]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    static worker_t w[THREADS];
    pthread_t t[THREADS];

    if (MPI_THREAD_MULTIPLE != ompix_test_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE)) {
        return ompix_test_finish("bundle_threads");   /* nothing to test */
    }
    for (int i = 0; i < THREADS; ++i) {
        w[i].id = i;
        MPI_Comm_dup(MPI_COMM_WORLD, &w[i].comm);
    }
    for (int i = 0; i < THREADS; ++i) {
        pthread_create(&t[i], NULL, work, &w[i]);
    }
    for (int i = 0; i < THREADS; ++i) {
        pthread_join(t[i], NULL);
        CHECK(0 == w[i].bad);
        MPI_Comm_free(&w[i].comm);
    }
    return ompix_test_finish("bundle_threads");
}
