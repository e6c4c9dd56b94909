/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * The engine's start_round (pml_chan_api.h, version 5), driven as the
 * channel extension's bundle engine would drive it: each rank has a
 * synchronous (Ssend_init) and a standard-mode (Send_init) channel to the
 * other and the two receive channels back, and every iteration starts
 * them as one round, receives first, with a callback counting
 * completions; the callback returns 0, so Open MPI completes each
 * channel as usual and MPI_Waitall consumes it (idle again for the next
 * round: the batch's own general start).  Checked every iteration: the
 * data (8 bytes and 40 bytes, different per iteration and direction) and
 * that the callback ran exactly once per channel; after the rounds, a
 * plain MPI_Start does not run it again (Open MPI clears a callback once
 * it ran).  Errors: a request not a channel in the array is
 * MPI_ERR_REQUEST with nothing set or started; a channel with its start
 * outstanding is MPI_ERR_REQUEST (through the communicator's handler,
 * MPI_ERRORS_RETURN here) and keeps its earlier start, which completes
 * once, running the callback the round set; a round of none starts
 * nothing.
 */
#include "chan_engine.h"

#define ITERS 300
#define BIG 5

static int completions;
static int cb_marker;                   /* the layer's cb_data: any pointer */

static int count_cb(MPI_Request chan)
{
    (void) chan;
    ++completions;
    return 0;                           /* Open MPI completes the request */
}

typedef struct {
    double small_out, small_in;
    double big_out[BIG], big_in[BIG];
    MPI_Request p[4], c[4];             /* receives first: sync, std; then sends */
} round_t;

static int bind_all(round_t *r)
{
    int peer = 1 - rank;

    MPI_Recv_init(&r->small_in, 1, MPI_DOUBLE, peer, 21, MPI_COMM_WORLD, &r->p[0]);
    MPI_Recv_init(r->big_in, BIG, MPI_DOUBLE, peer, 22, MPI_COMM_WORLD, &r->p[1]);
    MPI_Ssend_init(&r->small_out, 1, MPI_DOUBLE, peer, 21, MPI_COMM_WORLD, &r->p[2]);
    MPI_Send_init(r->big_out, BIG, MPI_DOUBLE, peer, 22, MPI_COMM_WORLD, &r->p[3]);
    /* Both ranks bind in the same order: the receive of rank 0 meets the
     * send of rank 1, so rank 1 binds its sends first. */
    static const int order[2][4] = {{0, 1, 2, 3}, {2, 3, 0, 1}};
    for (int i = 0; i < 4; ++i) {
        int k = order[rank][i];
        int sync = (0 == k || 2 == k);
        size_t bytes = (0 == k || 2 == k) ? sizeof(double) : BIG * sizeof(double);
        if (MPI_SUCCESS != chan_engine_bind(r->p[k], peer, sync, 1, 0, bytes, &r->c[k]) ||
            MPI_REQUEST_NULL == r->c[k]) {
            return 0;
        }
    }
    return 1;
}

static double value(int iter, int from, int k)
{
    return iter * 100.0 + from * 10.0 + k;
}

static void rounds(round_t *r)
{
    int bad = 0;

    for (int it = 0; it < ITERS; ++it) {
        r->small_out = value(it, rank, 9);
        for (int k = 0; k < BIG; ++k) {
            r->big_out[k] = value(it, rank, k);
        }
        completions = 0;
        CHECK(MPI_SUCCESS == chan_api->start_round(4, r->c, count_cb, &cb_marker));
        MPI_Waitall(4, r->c, MPI_STATUSES_IGNORE);
        bad += 4 != completions;
        bad += r->small_in != value(it, 1 - rank, 9);
        for (int k = 0; k < BIG; ++k) {
            bad += r->big_in[k] != value(it, 1 - rank, k);
        }
    }
    CHECK(0 == bad);
    /* The callback ran and was cleared: a plain start does not run it. */
    completions = 0;
    MPI_Startall(4, r->c);
    MPI_Waitall(4, r->c, MPI_STATUSES_IGNORE);
    CHECK(0 == completions);
}

/* A request not a channel: refused, nothing set or started. */
static void not_a_channel(round_t *r)
{
    MPI_Request mixed[2];
    MPI_Request ordinary;
    double x = 0;

    MPI_Send_init(&x, 1, MPI_DOUBLE, 1 - rank, 77, MPI_COMM_WORLD, &ordinary);
    mixed[0] = r->c[0];
    mixed[1] = ordinary;
    completions = 0;
    CHECK(MPI_ERR_REQUEST == err_class(chan_api->start_round(2, mixed, count_cb, NULL)));
    /* r->c[0] was not started nor given the callback: a round of the
     * four channels completes with exactly four callbacks. */
    CHECK(MPI_SUCCESS == chan_api->start_round(4, r->c, count_cb, &cb_marker));
    MPI_Waitall(4, r->c, MPI_STATUSES_IGNORE);
    CHECK(4 == completions);
    CHECK(MPI_SUCCESS == chan_api->start_round(0, r->c, count_cb, NULL));
    MPI_Request_free(&ordinary);
}

/* A synchronous send started already (its receive not yet): a round of it
 * is refused and the earlier start completes once, with the callback. */
static void outstanding(round_t *r)
{
    completions = 0;
    if (0 == rank) {
        r->small_out = 4242;
        MPI_Start(&r->c[2]);
        CHECK(MPI_ERR_REQUEST == err_class(chan_api->start_round(1, &r->c[2], count_cb, NULL)));
        MPI_Barrier(MPI_COMM_WORLD);    /* then rank 1 starts the receive */
        MPI_Wait(&r->c[2], MPI_STATUS_IGNORE);
        CHECK(1 == completions);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Start(&r->c[0]);
        MPI_Wait(&r->c[0], MPI_STATUS_IGNORE);
        CHECK(4242 == r->small_in);
        CHECK(0 == completions);
    }
}

int main(int argc, char **argv)
{
    round_t r;

    chan_engine_init(&argc, &argv);
    memset(&r, 0, sizeof(r));
    CHECK(NULL != chan_api && NULL != chan_api->start_round);
    if (NULL != chan_api && NULL != chan_api->start_round && bind_all(&r)) {
        rounds(&r);
        not_a_channel(&r);
        outstanding(&r);
        for (int k = 0; k < 4; ++k) {
            CHECK(MPI_SUCCESS == chan_engine_unbind(&r.c[k]));
            MPI_Request_free(&r.p[k]);
        }
    } else {
        CHECK(0);
    }
    return ompix_test_finish("chan_engine/start_round");
}
