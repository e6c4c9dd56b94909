/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=180
 *
 * Standard-mode channels (bound from MPI_Send_init and MPI_Bsend_init):
 * MPI's standard and buffered modes let a send start before its receive
 * is started, so a neighbour may write its message i + 1 while this rank
 * has not yet taken message i, or before it started receive i + 1.  Such a
 * channel must deliver every message, in order, whole, and never hang; its
 * send may complete once the data is buffered or delivered.  Each rank has
 * a channel to its right ring neighbour and one from its left (at 2 ranks
 * the one peer both ways).  Every message is checked every iteration:
 *   - MPIX_Ibind_slack_channel(..., 1, ...) (then MPI_Waitall of both
 *     binds: blocking binds around a ring would wait in a circle),
 *     MPI_Startall of {receive, send}
 *     then MPI_Waitall, odd ranks computing between the start and the wait
 *     on some iterations (their neighbour's next message arrives before
 *     they took this one);
 *   - MPIX_Bind_channels, the send started before the receive in two
 *     separate MPI_Start calls;
 *   - the same from MPI_Bsend_init (no buffer attached: a channel never
 *     uses it);
 *   - slack 4 and 3 with address_base_increment one message
 *     (MPIX_Bind_slack_channels, MPIX_Ibind_slack_channel): K sends
 *     started before any receive, then K receives, then the waits.
 * Messages of 1, 2 and 5 elements (the fast start's sizes and the general
 * start); STD_HALO_COUNT, when defined by a file including this one, adds
 * a size (chan_std_halo_large.c).  A message overwritten before it was
 * taken hangs the case (its word never shows) or fails the checks.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define STD_ITERS 60

typedef enum { STD_SEND, STD_BSEND } std_mode_t;
typedef enum { STD_BIND_SLACK_ONE, STD_BIND_CHANNELS, STD_BIND_SLACKS } std_form_t;

typedef struct {
    int count, slack;
    int *sbuf, *rbuf;       /* slack messages of count ints each */
    MPI_Request req[2];     /* receive from left, send to right */
    MPI_Request chan[2];
    int nsent, nchecked;    /* messages started, checked (position: mod slack) */
} std_t;

static int std_value(int sender, int iter, int elem)
{
    return 1000000 * (sender + 1) + 100 * iter + elem;
}

/* Both requests (tag `tag`), bound in one of three forms. */
static void std_bind(std_t *s, std_mode_t mode, int tag, std_form_t form)
{
    MPI_Info info = MPI_INFO_NULL;
    size_t len = (size_t) s->count * s->slack * sizeof(int);

    s->sbuf = malloc(len);
    s->rbuf = malloc(len);
    CHECK(NULL != s->sbuf && NULL != s->rbuf);
    s->nsent = s->nchecked = 0;
    MPI_Recv_init(s->rbuf, s->count, MPI_INT, left, tag, MPI_COMM_WORLD, &s->req[0]);
    if (STD_SEND == mode) {
        MPI_Send_init(s->sbuf, s->count, MPI_INT, right, tag, MPI_COMM_WORLD, &s->req[1]);
    } else {
        MPI_Bsend_init(s->sbuf, s->count, MPI_INT, right, tag, MPI_COMM_WORLD, &s->req[1]);
    }
    if (s->slack > 1) {
        char incr[16];
        MPI_Info_create(&info);
        snprintf(incr, sizeof(incr), "%d", s->count);
        MPI_Info_set(info, MPIX_CHAN_INFO_ADDRESS_BASE_INCREMENT, incr);
    }
    if (STD_BIND_CHANNELS == form) {
        CHECK(MPI_SUCCESS == MPIX_Bind_channels(2, s->req, s->chan, NULL));
    } else if (STD_BIND_SLACKS == form) {
        int slacks[2] = {s->slack, s->slack};
        MPI_Info infos[2] = {info, info};
        CHECK(MPI_SUCCESS == MPIX_Bind_slack_channels(2, s->req, s->chan, slacks, infos));
    } else {
        /* One channel at a time; a blocking bind of each around a ring
         * would wait in a circle, so the nonblocking form, then both. */
        for (int k = 0; k < 2; ++k) {
            CHECK(MPI_SUCCESS ==
                  MPIX_Ibind_slack_channel(s->req[k], &s->chan[k], s->slack, info));
        }
        CHECK(MPI_SUCCESS == MPI_Waitall(2, s->req, MPI_STATUSES_IGNORE));
    }
    if (MPI_INFO_NULL != info) {
        MPI_Info_free(&info);
    }
    CHECK(MPI_REQUEST_NULL != s->chan[0] && MPI_REQUEST_NULL != s->chan[1]);
}

static void std_unbind(std_t *s)
{
    CHECK(MPI_SUCCESS == MPIX_Unbind_channels(2, s->chan));
    MPI_Request_free(&s->req[0]);
    MPI_Request_free(&s->req[1]);
    free(s->sbuf);
    free(s->rbuf);
}

/* The next send's message (iteration it) in place; its receive position
 * poisoned. */
static void std_fill(std_t *s, int it)
{
    int k = s->nsent++ % s->slack;

    for (int e = 0; e < s->count; ++e) {
        s->sbuf[k * s->count + e] = std_value(rank, it, e);
        s->rbuf[k * s->count + e] = -1;
    }
}

static void std_check(std_t *s, int it)
{
    int k = s->nchecked++ % s->slack, bad = 0;

    for (int e = 0; e < s->count; ++e) {
        if (s->rbuf[k * s->count + e] != std_value(left, it, e)) {
            if (0 == bad++) {
                printf("rank %d: count %d iteration %d element %d: got %d, expected %d\n", rank,
                       s->count, it, e, s->rbuf[k * s->count + e], std_value(left, it, e));
            }
        }
    }
    CHECK(0 == bad);
}

/* Odd ranks compute between start and wait on some iterations: the left
 * neighbour's next message may then arrive before this one was taken. */
static void std_compute(int it)
{
    if (1 == rank % 2 && 0 == it % 7) {
        usleep(300);
    }
}

/* Startall of {receive, send}, then Waitall. */
static void std_recv_first(std_t *s)
{
    for (int it = 0; it < STD_ITERS; ++it) {
        std_fill(s, it);
        CHECK(MPI_SUCCESS == MPI_Startall(2, s->chan));
        std_compute(it);
        CHECK(MPI_SUCCESS == MPI_Waitall(2, s->chan, MPI_STATUSES_IGNORE));
        std_check(s, it);
    }
}

/* The send started first, the receive in a second MPI_Start. */
static void std_send_first(std_t *s)
{
    for (int it = 0; it < STD_ITERS; ++it) {
        std_fill(s, it);
        CHECK(MPI_SUCCESS == MPI_Start(&s->chan[1]));
        std_compute(it);
        CHECK(MPI_SUCCESS == MPI_Start(&s->chan[0]));
        CHECK(MPI_SUCCESS == MPI_Waitall(2, s->chan, MPI_STATUSES_IGNORE));
        std_check(s, it);
    }
}

/* Slack K: K sends started, then K receives, then K waits of both. */
static void std_pipelined(std_t *s)
{
    for (int it = 0; it < STD_ITERS; it += s->slack) {
        for (int j = 0; j < s->slack; ++j) {
            std_fill(s, it + j);
            CHECK(MPI_SUCCESS == MPI_Start(&s->chan[1]));
        }
        std_compute(it);
        for (int j = 0; j < s->slack; ++j) {
            CHECK(MPI_SUCCESS == MPI_Start(&s->chan[0]));
        }
        for (int j = 0; j < s->slack; ++j) {
            CHECK(MPI_SUCCESS == MPI_Waitall(2, s->chan, MPI_STATUSES_IGNORE));
            std_check(s, it + j);
        }
    }
}

static void std_run(int count, int tag)
{
    std_t s = {.count = count, .slack = 1};

    std_bind(&s, STD_SEND, tag, STD_BIND_SLACK_ONE);
    std_recv_first(&s);
    std_send_first(&s);
    std_unbind(&s);

    std_bind(&s, STD_SEND, tag + 1, STD_BIND_CHANNELS);
    std_send_first(&s);
    std_recv_first(&s);
    std_unbind(&s);

    std_bind(&s, STD_BSEND, tag + 2, STD_BIND_CHANNELS);
    std_send_first(&s);
    std_unbind(&s);

    s.slack = 4;                /* a power of two: the shortcuts' stream starts */
    std_bind(&s, STD_SEND, tag + 3, STD_BIND_SLACKS);
    std_pipelined(&s);
    std_recv_first(&s);
    std_unbind(&s);

    s.slack = 3;                /* the general start's */
    std_bind(&s, STD_SEND, tag + 4, STD_BIND_SLACK_ONE);
    std_pipelined(&s);
    std_unbind(&s);
}

int main(int argc, char **argv)
{
    static const int counts[] = {1, 2, 5};

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    for (int i = 0; i < 3; ++i) {
        std_run(counts[i], 10 * (i + 1));
    }
#ifdef STD_HALO_COUNT
    std_run(STD_HALO_COUNT, 100);
#endif
    return ompix_test_finish("chan_std_halo");
}
