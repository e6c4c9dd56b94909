/*
 * ompix-test: np=2,4 tls=shm,tcp,net pml=ob1,ucx timeout=60 paths="chan:tag"
 *
 * Bound channels, basic rules (with pml/chan's engine; chan_basic_off.c
 * runs it on the generic fallback): blocking bind of Ssend_init /
 * Recv_init pairs in both orders, data and status checked on every start,
 * wildcard receive binds (MPI_ANY_SOURCE, MPI_ANY_TAG) reporting the bound
 * send's source and tag, req_in still usable afterwards, an
 * MPI_ANY_SOURCE/MPI_ANY_TAG receive on the same communicator never seeing
 * channel traffic, an intercommunicator channel, unbind.
 *
 * Sends are bound from MPI_Ssend_init (synchronous channels): these
 * programs start sends without knowing that the receive was started, which
 * is erroneous on a ready channel (test/chan_engine/ring and
 * chan_ready_debug cover ready channels).
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <string.h>

#define N 8
#define ROUNDS 50

/* Pairs (2k, 2k+1): even ranks send, odd ranks receive, with the given
 * source/tag on the receive side; the bind order differs by parity. */
static void pair_rounds(int rsrc, int rtag)
{
    int buf[N] = {0}, peer = rank ^ 1;
    MPI_Request req, chan;
    MPI_Status st;

    if (peer >= size) {
        return;
    }
    if (0 == rank % 2) {
        MPI_Ssend_init(buf, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(buf, N, MPI_INT, MPI_ANY_SOURCE == rsrc ? rsrc : peer, rtag,
                      MPI_COMM_WORLD, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
    CHECK(MPI_REQUEST_NULL != chan && chan != req);
    for (int r = 0; r < ROUNDS; ++r) {
        if (0 == rank % 2) {
            for (int i = 0; i < N; ++i) {
                buf[i] = r * 100 + i;
            }
        } else {
            memset(buf, 0xff, sizeof(buf));
        }
        MPI_Start(&chan);
        MPI_Wait(&chan, &st);
        if (1 == rank % 2) {
            int count = -1, bad = 0;
            MPI_Get_count(&st, MPI_INT, &count);
            CHECK(peer == st.MPI_SOURCE && 7 == st.MPI_TAG && N == count);
            for (int i = 0; i < N; ++i) {
                bad += buf[i] != r * 100 + i;
            }
            CHECK(0 == bad);
        }
    }
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    CHECK(MPI_REQUEST_NULL == chan);
    /* req_in is still an ordinary persistent request. */
    if (0 == rank % 2) {
        buf[0] = 4242;
    }
    MPI_Start(&req);
    MPI_Wait(&req, &st);
    if (1 == rank % 2) {
        CHECK(4242 == buf[0] && peer == st.MPI_SOURCE && 7 == st.MPI_TAG);
    }
    MPI_Request_free(&req);
}

/* Channel traffic on tag 5 of MPI_COMM_WORLD while a wildcard receive is
 * posted: the wildcard gets only the ordinary message sent afterwards. */
static void separate_space(void)
{
    int cbuf = 0, wbuf = -1, peer = rank ^ 1, flag = 0;
    MPI_Request req, chan, wild;
    MPI_Status st;

    if (peer >= size) {
        return;
    }
    MPI_Irecv(&wbuf, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &wild);
    if (0 == rank % 2) {
        MPI_Ssend_init(&cbuf, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(&cbuf, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &req);
    }
    MPIX_Bind_channel(req, &chan, MPI_INFO_NULL);
    for (int r = 0; r < 20; ++r) {
        cbuf = 0 == rank % 2 ? 1000 + r : -1;
        MPI_Start(&chan);
        MPI_Wait(&chan, MPI_STATUS_IGNORE);
        if (1 == rank % 2) {
            CHECK(1000 + r == cbuf);
        }
    }
    MPI_Test(&wild, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Test(&wild, &flag, &st);
    CHECK(!flag);
    MPI_Barrier(MPI_COMM_WORLD);
    /* Now the ordinary message that the wildcard must get. */
    MPI_Send(&rank, 1, MPI_INT, peer, 9, MPI_COMM_WORLD);
    MPI_Wait(&wild, &st);
    CHECK(peer == wbuf && 9 == st.MPI_TAG && peer == st.MPI_SOURCE);
    MPIX_Unbind_channel(&chan);
    MPI_Request_free(&req);
}

/* Ranks 0,1 of each half bound across an intercommunicator. */
static void intercomm(void)
{
    MPI_Comm half, inter;
    int color = rank % 2, hrank, buf[3] = {0, 0, 0};
    MPI_Request req, chan;
    MPI_Status st;

    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Comm_rank(half, &hrank);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 99, &inter);
    if (0 == color) {
        MPI_Ssend_init(buf, 3, MPI_INT, hrank, 11, inter, &req);
    } else {
        MPI_Recv_init(buf, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &req);
    }
    if (2 * (size / 2) == size || rank < size - 1) {
        CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
        for (int r = 0; r < 10; ++r) {
            if (0 == color) {
                buf[0] = r;
                buf[2] = hrank;
            }
            MPI_Start(&chan);
            MPI_Wait(&chan, &st);
            if (1 == color) {
                CHECK(r == buf[0] && hrank == buf[2] && hrank == st.MPI_SOURCE
                      && 11 == st.MPI_TAG);
            }
        }
        MPIX_Unbind_channel(&chan);
    }
    MPI_Request_free(&req);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    pair_rounds(0, 7);
    pair_rounds(MPI_ANY_SOURCE, 7);
    pair_rounds(0, MPI_ANY_TAG);
    pair_rounds(MPI_ANY_SOURCE, MPI_ANY_TAG);
    separate_space();
    intercomm();
    return ompix_test_finish("chan_basic");
}
