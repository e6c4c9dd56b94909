/*
 * ompix-test: np=2,3,4 tls=shm,tcp,net pml=ob1,ucx timeout=60 paths="chan:tag"
 *
 * Multi-bind and nonblocking bind (with pml/chan's engine;
 * chan_multi_off.c runs it on the generic fallback): a ring bound with MPIX_Bind_channels, neighbours
 * listing send and receive in opposite orders; the same ring with
 * MPIX_Ibind_channels completed by a Test loop on req_in; slack 1/4/64
 * channels with positive and negative address_base_increment, data checked
 * on every start, K starts outstanding then drained; a vector-datatype
 * channel received as contiguous ints; MPIX_Iunbind_channels completed by
 * Test.
 *
 * Sends are bound from MPI_Ssend_init (synchronous channels): these
 * programs start sends without knowing that the receive was started, which
 * is erroneous on a ready channel (test/chan_engine/ring and
 * chan_ready_debug cover ready channels).
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <stdlib.h>
#include <string.h>

static void ring_round(MPI_Request *chans, int *sbuf, int *rbuf, int r)
{
    *sbuf = rank * 1000 + r;
    *rbuf = -1;
    MPI_Startall(2, chans);
    MPI_Waitall(2, chans, MPI_STATUSES_IGNORE);
    CHECK(left * 1000 + r == *rbuf);
}

static void ring(int nonblocking)
{
    int sbuf = 0, rbuf = 0;
    MPI_Request in[2], out[2], ordered_in[2], ordered_out[2];
    int s = rank % 2, rv = 1 - s;  /* even: send first; odd: receive first */

    MPI_Ssend_init(&sbuf, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &in[0]);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &in[1]);
    ordered_in[s] = in[0];
    ordered_in[rv] = in[1];
    if (!nonblocking) {
        CHECK(MPI_SUCCESS == MPIX_Bind_channels(2, ordered_in, ordered_out, NULL));
    } else {
        int done = 0, spins = 0;
        CHECK(MPI_SUCCESS == MPIX_Ibind_channels(2, ordered_in, ordered_out, NULL));
        while (!done) {
            MPI_Testall(2, ordered_in, &done, MPI_STATUSES_IGNORE);
            spins++;
        }
        CHECK(spins >= 1);
    }
    out[0] = ordered_out[s];
    out[1] = ordered_out[rv];
    CHECK(MPI_REQUEST_NULL != out[0] && MPI_REQUEST_NULL != out[1]);
    for (int r = 0; r < 20; ++r) {
        ring_round(out, &sbuf, &rbuf, r);
    }
    if (nonblocking) {
        int done = 0;
        CHECK(MPI_SUCCESS == MPIX_Iunbind_channels(2, out, NULL));
        while (!done) {
            MPI_Testall(2, out, &done, MPI_STATUSES_IGNORE);
        }
    } else {
        CHECK(MPI_SUCCESS == MPIX_Unbind_channels(2, out));
    }
    CHECK(MPI_REQUEST_NULL == out[0] && MPI_REQUEST_NULL == out[1]);
    /* The original requests still work. */
    sbuf = rank;
    MPI_Startall(2, in);
    MPI_Waitall(2, in, MPI_STATUSES_IGNORE);
    CHECK(left == rbuf);
    MPI_Request_free(&in[0]);
    MPI_Request_free(&in[1]);
}

/* One channel pair (rank 0 -> 1) of slack k, increment inc; rounds starts,
 * keeping k outstanding. */
static void slack_case(int k, long inc)
{
    const int rounds = 3 * k + 5, n = 4;
    long span = (k - 1) * (inc < 0 ? -inc : inc);
    int *mem = calloc((span + 1) * n + n, sizeof(int)), *base;
    MPI_Request req, chan;
    MPI_Info info;
    char val[32];

    if (rank > 1) {
        free(mem);
        return;
    }
    /* With a negative increment the buffer starts at the top. */
    base = inc < 0 ? mem + span * n : mem;
    MPI_Info_create(&info);
    snprintf(val, sizeof(val), "%ld", inc * n);
    MPI_Info_set(info, "address_base_increment", val);
    if (0 == rank) {
        MPI_Ssend_init(base, n, MPI_INT, 1, 21, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(base, n, MPI_INT, 0, 21, MPI_COMM_WORLD, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_slack_channel(req, &chan, k, info));
    for (int s = 0; s < rounds + k; ++s) {
        if (s >= k) {   /* complete start s-k, oldest first */
            int idx = (s - k) % k, count = -1;
            int *slot = base + (long) idx * (1 == k ? 0 : inc) * n;
            MPI_Status st;
            MPI_Wait(&chan, &st);
            if (1 == rank) {
                MPI_Get_count(&st, MPI_INT, &count);
                CHECK(n == count && 0 == st.MPI_SOURCE && 21 == st.MPI_TAG);
                CHECK(slot[0] == s - k && slot[n - 1] == -(s - k));
            }
        }
        if (s < rounds) {
            int idx = s % k;
            int *slot = base + (long) idx * (1 == k ? 0 : inc) * n;
            if (0 == rank) {
                slot[0] = s;
                slot[n - 1] = -s;
            }
            MPI_Start(&chan);
        }
    }
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    MPI_Request_free(&req);
    MPI_Info_free(&info);
    free(mem);
}

/* A vector of 4 blocks of 2 ints (stride 3) sent, 8 contiguous ints
 * received. */
static void vector_channel(void)
{
    int sbuf[12], rbuf[8];
    MPI_Datatype vec;
    MPI_Request req, chan;

    if (rank > 1) {
        return;
    }
    MPI_Type_vector(4, 2, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (0 == rank) {
        MPI_Ssend_init(sbuf, 1, vec, 1, 4, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(rbuf, 8, MPI_INT, 0, 4, MPI_COMM_WORLD, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
    for (int r = 0; r < 10; ++r) {
        for (int i = 0; i < 12; ++i) {
            sbuf[i] = r * 100 + i;
        }
        memset(rbuf, 0xff, sizeof(rbuf));
        MPI_Start(&chan);
        MPI_Wait(&chan, MPI_STATUS_IGNORE);
        if (1 == rank) {
            int bad = 0;
            for (int b = 0; b < 4; ++b) {
                bad += rbuf[2 * b] != r * 100 + 3 * b || rbuf[2 * b + 1] != r * 100 + 3 * b + 1;
            }
            CHECK(0 == bad);
        }
    }
    MPIX_Unbind_channel(&chan);
    MPI_Request_free(&req);
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    ring(0);
    ring(1);
    slack_case(1, 0);
    slack_case(4, 1);
    slack_case(4, -1);
    slack_case(64, 1);
    slack_case(64, -2);
    /* slack not a power of two: slot index by modulo, not mask */
    slack_case(3, 1);
    slack_case(5, -1);
    slack_case(7, 2);
    vector_channel();
    return ompix_test_finish("chan_multi");
}
