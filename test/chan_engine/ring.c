/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * Ready channels (bound from MPI_Send_init / MPI_Recv_init) both ways
 * between two ranks, ping-pong 3000 times with the data checked every
 * time: on shared memory the mapped ring, over TCP the put ring.  The
 * receive's status names the peer, the send's tag and the byte count; the
 * requests are persistent and inactive between rounds (Wait/Test on an
 * inactive channel return at once).  While bound, MPI_Request_free and
 * MPI_Cancel refuse (MPI_ERR_REQUEST) and the channel keeps working; unbind
 * with a start outstanding refuses too.  Then unbind and free, and bind
 * again (sizes 0, 8 and 4000 bytes).
 */
#include "chan_engine.h"

#define ROUNDS 3000

static void pingpong(int n)
{
    int peer = 1 - rank;
    int *out = calloc(n + 1, sizeof(int)), *in = calloc(n + 1, sizeof(int));
    MPI_Request sreq, rreq, s, r;
    MPI_Status st;
    int flag;

    MPI_Send_init(out, n, MPI_INT, peer, 5 + rank, MPI_COMM_WORLD, &sreq);
    MPI_Recv_init(in, n, MPI_INT, peer, 5 + peer, MPI_COMM_WORLD, &rreq);
    /* Sender end first on rank 0, receiver end first on rank 1: the same
     * pair order on both. */
    if (0 == rank) {
        CHECK(MPI_SUCCESS == chan_engine_bind(sreq, peer, 0, 1, 0, n * sizeof(int), &s));
        CHECK(MPI_SUCCESS == chan_engine_bind(rreq, peer, 0, 1, 0, n * sizeof(int), &r));
    } else {
        CHECK(MPI_SUCCESS == chan_engine_bind(rreq, peer, 0, 1, 0, n * sizeof(int), &r));
        CHECK(MPI_SUCCESS == chan_engine_bind(sreq, peer, 0, 1, 0, n * sizeof(int), &s));
    }
    CHECK(MPI_REQUEST_NULL != s && MPI_REQUEST_NULL != r);
    if (MPI_REQUEST_NULL == s || MPI_REQUEST_NULL == r) {
        return;
    }
    /* Inactive: Wait and Test return at once. */
    MPI_Wait(&r, &st);
    MPI_Test(&s, &flag, MPI_STATUS_IGNORE);
    CHECK(flag);
    CHECK(MPI_ERR_REQUEST == err_class(MPI_Request_free(&s)) && MPI_REQUEST_NULL != s);
    CHECK(MPI_ERR_REQUEST == err_class(MPI_Cancel(&r)));

    /* Each receive is started before the peer can send into it: rank 1
     * starts its next receive before it replies, rank 0 before it sends. */
    MPI_Start(&r);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < ROUNDS; ++i) {
        int last = ROUNDS - 1 == i;
        if (0 == rank) {
            for (int k = 0; k < n; ++k) {
                out[k] = i * 7 + k;
            }
            MPI_Start(&s);
            MPI_Wait(&s, MPI_STATUS_IGNORE);
            MPI_Wait(&r, &st);
            if (!last) {
                MPI_Start(&r);
            }
        } else {
            if (i == 17) {
                /* Outstanding: unbind refuses, the channel stays. */
                CHECK(MPI_ERR_REQUEST == chan_api->unbind(r));
            }
            if (i & 1) {
                MPI_Wait(&r, &st);
            } else {
                flag = 0;
                while (!flag) {
                    MPI_Test(&r, &flag, &st);
                }
            }
            for (int k = 0; k < n; ++k) {
                out[k] = in[k] + 1;
            }
            if (!last) {
                MPI_Start(&r);
            }
            MPI_Start(&s);
            MPI_Wait(&s, MPI_STATUS_IGNORE);
        }
        int cnt;
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        if (st.MPI_SOURCE != peer || st.MPI_TAG != 5 + peer || cnt != n * (int) sizeof(int)) {
            CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 5 + peer &&
                  cnt == n * (int) sizeof(int));
            break;
        }
        int bad = 0;
        for (int k = 0; k < n; ++k) {
            bad += in[k] != (0 == rank ? i * 7 + k + 1 : i * 7 + k);
        }
        if (bad) {
            CHECK(0 == bad);
            break;
        }
    }
    CHECK(MPI_SUCCESS == chan_engine_unbind(&s));
    CHECK(MPI_SUCCESS == chan_engine_unbind(&r));
    CHECK(MPI_REQUEST_NULL == s && MPI_REQUEST_NULL == r);
    MPI_Request_free(&sreq);
    MPI_Request_free(&rreq);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    chan_engine_init(&argc, &argv);
    CHECK(NULL != chan_api && NULL != chan_api->prepare);
    if (NULL != chan_api && NULL != chan_api->prepare) {
        pingpong(2);
        pingpong(0);
        pingpong(1000);
        pingpong(2);
    }
    return ompix_test_finish("chan_engine/ring");
}
