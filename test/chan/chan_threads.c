/*
 * ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=300 threads valgrind=no
 *
 * MPI_THREAD_MULTIPLE stress (issue 28.3), with pml/chan's engine
 * (chan_threads_off.c: on the generic fallback): 4 threads per rank, each
 * with its own communicator and its own pair of channels around the ring
 * (a synchronous send right, a receive from left), CHAN_THREADS_ROUNDS
 * rounds of MPI_Startall + MPI_Waitall (two starts each: 100 000 starts
 * per thread here, 10 000 on the fallback and over TCP, where each message
 * is a system call at both ends and 16 threads share this machine's two
 * cores with the other tests); every message is checked (it
 * carries its sender, thread and round), and so is its status.  The
 * fallback once needed 235 s for 10 000 starts and then stopped making
 * progress: every thread must finish.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <pthread.h>
#include <string.h>

#ifndef CHAN_THREADS_ROUNDS
#define CHAN_THREADS_ROUNDS (ompix_chan_threads_tcp() ? 5000 : 50000)
#endif
#define CHAN_THREADS_N 4

/* test/run's tcp rows: UCX over TCP only. */
static inline int ompix_chan_threads_tcp(void)
{
    const char *tls = getenv("UCX_TLS");

    return NULL != tls && NULL != strstr(tls, "tcp");
}

typedef struct {
    MPI_Comm comm;
    int id;
    int failures;
    long starts;
} thread_arg_t;

static int value(int sender, int id, int round)
{
    return (sender * CHAN_THREADS_N + id) * 1000003 + round;
}

static void *thread_body(void *p)
{
    thread_arg_t *a = p;
    int sbuf = 0, rbuf = -1;
    MPI_Request in[2], out[2];
    MPI_Status st[2];

    MPI_Ssend_init(&sbuf, 1, MPI_INT, right, 7 + a->id, a->comm, &in[0]);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 7 + a->id, a->comm, &in[1]);
    if (MPI_SUCCESS != MPIX_Bind_channels(2, in, out, NULL)) {
        a->failures++;
        return NULL;
    }
    for (int r = 0; r < CHAN_THREADS_ROUNDS; ++r) {
        sbuf = value(rank, a->id, r);
        MPI_Startall(2, out);
        MPI_Waitall(2, out, st);
        a->failures += value(left, a->id, r) != rbuf;
        a->failures += st[1].MPI_SOURCE != left || st[1].MPI_TAG != 7 + a->id;
        a->starts += 2;
    }
    a->failures += MPI_SUCCESS != MPIX_Unbind_channels(2, out);
    MPI_Request_free(&in[0]);
    MPI_Request_free(&in[1]);
    return NULL;
}

int main(int argc, char **argv)
{
    thread_arg_t a[CHAN_THREADS_N];
    pthread_t t[CHAN_THREADS_N];
    int provided;

    ompix_chan_add_to_pml_list();
    provided = ompix_test_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE);
    CHECK(MPI_THREAD_MULTIPLE == provided);
    for (int i = 0; i < CHAN_THREADS_N && MPI_THREAD_MULTIPLE == provided; ++i) {
        MPI_Comm_dup(MPI_COMM_WORLD, &a[i].comm);
        a[i].id = i;
        a[i].failures = 0;
        a[i].starts = 0;
        pthread_create(&t[i], NULL, thread_body, &a[i]);
    }
    for (int i = 0; i < CHAN_THREADS_N && MPI_THREAD_MULTIPLE == provided; ++i) {
        pthread_join(t[i], NULL);
        CHECK(0 == a[i].failures);
        CHECK(2L * CHAN_THREADS_ROUNDS == a[i].starts);
        MPI_Comm_free(&a[i].comm);
    }
    return ompix_test_finish("chan_threads");
}
