/*
 * ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=240 threads
 *
 * Channels with the rest of MPI (with pml/chan's engine; chan_misc_off.c
 * runs it on the generic fallback): MPI_Startall and MPI_Waitall/Testany mixing
 * channels and ordinary persistent requests; a persistent continuation
 * (MPIX_Continueall with MPIX_CONT_PERSISTENT) on a ring of channels over
 * 1000 starts, statuses checked; a synchronous channel (Ssend_init) whose
 * send does not complete before its receive is started, data intact; two
 * threads each driving their own channels (MPI_THREAD_MULTIPLE); 10000
 * bind/unbind cycles (a message checked on the first 100 and every 1000th);
 * channels left bound at MPI_Finalize.
 *
 * Sends are bound from MPI_Ssend_init (synchronous channels): these
 * programs start sends without knowing that the receive was started, which
 * is erroneous on a ready channel (test/chan_engine/ring and
 * chan_ready_debug cover ready channels).
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <pthread.h>
#include <string.h>

/* Ring channels: out[0] sends right, out[1] receives from left. */
static void bind_ring(MPI_Comm comm, int tag, int *sbuf, int *rbuf, MPI_Request in[2],
                      MPI_Request out[2])
{
    MPI_Ssend_init(sbuf, 1, MPI_INT, right, tag, comm, &in[0]);
    MPI_Recv_init(rbuf, 1, MPI_INT, left, tag, comm, &in[1]);
    CHECK(MPI_SUCCESS == MPIX_Bind_channels(2, in, out, NULL));
}

static void unbind_ring(MPI_Request in[2], MPI_Request out[2])
{
    CHECK(MPI_SUCCESS == MPIX_Unbind_channels(2, out));
    MPI_Request_free(&in[0]);
    MPI_Request_free(&in[1]);
}

static void startall_mixed(void)
{
    int sbuf = 0, rbuf = 0, s2 = 0, r2 = 0;
    MPI_Request in[2], ch[2], all[4];
    MPI_Status st[4];

    bind_ring(MPI_COMM_WORLD, 40, &sbuf, &rbuf, in, ch);
    MPI_Ssend_init(&s2, 1, MPI_INT, left, 41, MPI_COMM_WORLD, &all[1]);
    MPI_Recv_init(&r2, 1, MPI_INT, right, 41, MPI_COMM_WORLD, &all[3]);
    all[0] = ch[0];
    all[2] = ch[1];
    for (int r = 0; r < 50; ++r) {
        sbuf = rank + r;
        s2 = -rank - r;
        MPI_Startall(4, all);
        if (0 == r % 2) {
            MPI_Waitall(4, all, st);
            CHECK(left == st[2].MPI_SOURCE && 40 == st[2].MPI_TAG);
        } else {
            int idx, flag, left_to_do = 4;
            while (left_to_do > 0) {
                MPI_Testany(4, all, &idx, &flag, MPI_STATUS_IGNORE);
                if (flag && MPI_UNDEFINED != idx) {
                    left_to_do--;
                }
            }
        }
        CHECK(left + r == rbuf && -right - r == r2);
    }
    MPI_Request_free(&all[1]);
    MPI_Request_free(&all[3]);
    unbind_ring(in, ch);
}

typedef struct {
    int ran, bad, expect;
} cont_count_t;

static void cont_cb(MPI_Status *st, void *data)
{
    cont_count_t *c = data;
    c->ran++;
    if (st[1].MPI_SOURCE != c->expect || 42 != st[1].MPI_TAG) {
        c->bad++;
    }
}

static void continuations(void)
{
    int sbuf = 0, rbuf = 0;
    MPI_Request in[2], ch[2], cr;
    MPI_Status st[2];
    cont_count_t c = {0, 0, left};

    bind_ring(MPI_COMM_WORLD, 42, &sbuf, &rbuf, in, ch);
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, ch, cont_cb, &c, MPIX_CONT_PERSISTENT, st, cr));
    for (int it = 0; it < 1000; ++it) {
        sbuf = rank * 10000 + it;
        MPI_Startall(2, ch);
        MPI_Wait(&cr, MPI_STATUS_IGNORE);
        CHECK(c.ran == it + 1);
        CHECK(left * 10000 + it == rbuf);
    }
    CHECK(0 == c.bad);
    unbind_ring(in, ch);
    MPI_Request_free(&cr);
}

/* Rank 0 starts a synchronous send; rank 1 starts its receive only after a
 * barrier that rank 0 enters after testing: the send is not complete then. */
static void synchronous(void)
{
    int buf[64] = {0}, flag = 1;
    MPI_Request req, chan;

    if (rank > 1) {
        for (int r = 0; r < 6; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
        }
        return;
    }
    if (0 == rank) {
        MPI_Ssend_init(buf, 64, MPI_INT, 1, 43, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(buf, 64, MPI_INT, 0, 43, MPI_COMM_WORLD, &req);
    }
    MPIX_Bind_channel(req, &chan, MPI_INFO_NULL);
    for (int r = 0; r < 5; ++r) {
        for (int i = 0; i < 64; ++i) {
            buf[i] = 0 == rank ? r * 64 + i : -1;
        }
        if (0 == rank) {
            MPI_Start(&chan);
            for (int k = 0; k < 100; ++k) {
                MPI_Test(&chan, &flag, MPI_STATUS_IGNORE);
                CHECK(!flag);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Wait(&chan, MPI_STATUS_IGNORE);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Start(&chan);
            MPI_Wait(&chan, MPI_STATUS_IGNORE);
            CHECK(r * 64 == buf[0] && r * 64 + 63 == buf[63]);
        }
    }
    MPIX_Unbind_channel(&chan);
    MPI_Request_free(&req);
    MPI_Barrier(MPI_COMM_WORLD);
}

typedef struct {
    MPI_Comm comm;
    int failures;
} thread_arg_t;

static void *thread_body(void *p)
{
    thread_arg_t *a = p;
    int sbuf = 0, rbuf = 0;
    MPI_Request in[2], out[2];

    MPI_Ssend_init(&sbuf, 1, MPI_INT, right, 44, a->comm, &in[0]);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 44, a->comm, &in[1]);
    MPIX_Bind_channels(2, in, out, NULL);
    for (int r = 0; r < 500; ++r) {
        sbuf = rank * 1000 + r;
        MPI_Startall(2, out);
        MPI_Waitall(2, out, MPI_STATUSES_IGNORE);
        a->failures += left * 1000 + r != rbuf;
    }
    MPIX_Unbind_channels(2, out);
    MPI_Request_free(&in[0]);
    MPI_Request_free(&in[1]);
    return NULL;
}

static void threads(void)
{
    thread_arg_t a[2];
    pthread_t t[2];
    int provided;

    MPI_Query_thread(&provided);
    if (MPI_THREAD_MULTIPLE != provided) {
        return;
    }
    for (int i = 0; i < 2; ++i) {
        MPI_Comm_dup(MPI_COMM_WORLD, &a[i].comm);
        a[i].failures = 0;
    }
    for (int i = 0; i < 2; ++i) {
        pthread_create(&t[i], NULL, thread_body, &a[i]);
    }
    for (int i = 0; i < 2; ++i) {
        pthread_join(t[i], NULL);
        CHECK(0 == a[i].failures);
        MPI_Comm_free(&a[i].comm);
    }
}

static void cycles(void)
{
    int sbuf = 0, rbuf = 0;
    MPI_Request in[2], out[2];

    MPI_Ssend_init(&sbuf, 1, MPI_INT, right, 45, MPI_COMM_WORLD, &in[0]);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 45, MPI_COMM_WORLD, &in[1]);
    for (int c = 0; c < 10000; ++c) {
        CHECK(MPI_SUCCESS == MPIX_Bind_channels(2, in, out, NULL));
        /* A message on each of the first 100 channels: pml/chan reuses an
         * unbound end's memory for the next bind (its spares), and a ring
         * not zeroed again would hand out the previous channel's message. */
        if (c < 100 || 0 == c % 1000) {
            sbuf = c + rank;
            MPI_Startall(2, out);
            MPI_Waitall(2, out, MPI_STATUSES_IGNORE);
            CHECK(c + left == rbuf);
        }
        CHECK(MPI_SUCCESS == MPIX_Unbind_channels(2, out));
    }
    MPI_Request_free(&in[0]);
    MPI_Request_free(&in[1]);
}

/* Left bound: MPI_Finalize releases it. */
static void leave_bound(void)
{
    static int sbuf, rbuf;
    MPI_Request in[2], out[2];

    bind_ring(MPI_COMM_WORLD, 46, &sbuf, &rbuf, in, out);
    MPI_Request_free(&in[0]);
    MPI_Request_free(&in[1]);
}

int main(int argc, char **argv)
{
    ompix_chan_add_to_pml_list();
    (void) ompix_test_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE);
    startall_mixed();
    continuations();
    synchronous();
    threads();
    cycles();
    leave_bound();
    return ompix_test_finish("chan_misc");
}
