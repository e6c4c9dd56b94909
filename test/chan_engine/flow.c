/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=30
 *
 * Rank 0 sends to rank 1 over:
 *  - a slack-4 ready channel with address_base_increment 5 elements on
 *    both ends (the buffers are circular: start n uses element offset
 *    (n % 4) * 5), streamed: up to 4 starts outstanding, Wait completes
 *    the oldest; the 5th outstanding start is MPI_ERR_REQUEST; data
 *    checked on every message;
 *  - a synchronous channel (bound from MPI_Ssend_init) with a receiver
 *    that starts late: the send does not complete before its receive was
 *    started (the receiver starts only after an ordinary message the
 *    sender sends after testing), and nothing is overwritten;
 *  - a ready channel of a non-contiguous vector type (packed with the
 *    convertor into the slot and unpacked at the receiver, gaps untouched).
 */
#include "chan_engine.h"

#define N 2000
#define K 4
#define INC 5

static void slack_stream(void)
{
    int buf[K * INC + 4];
    MPI_Request p, c;
    int cls;

    memset(buf, 0, sizeof(buf));
    if (0 == rank) {
        MPI_Send_init(buf, 4, MPI_INT, 1, 11, MPI_COMM_WORLD, &p);
    } else {
        MPI_Recv_init(buf, 4, MPI_INT, 0, 11, MPI_COMM_WORLD, &p);
    }
    CHECK(MPI_SUCCESS == chan_engine_bind(p, 1 - rank, 0, K, INC, 4 * sizeof(int), &c));
    if (MPI_REQUEST_NULL == c) {
        return;
    }
    if (1 == rank) {
        for (int n = 0; n < K; ++n) {
            MPI_Start(&c);
        }
        cls = err_class(MPI_Start(&c));
        CHECK(MPI_ERR_REQUEST == cls);
    }
    MPI_Request idle;
    MPI_Irecv(NULL, 0, MPI_BYTE, 1 - rank, 999, MPI_COMM_WORLD, &idle);
    MPI_Barrier(MPI_COMM_WORLD);        /* the first K receives are started */
    int bad = 0;
    for (int n = 0; n < N; ++n) {
        int *at = buf + (n % K) * INC;
        MPI_Status st;
        if (0 == rank) {
            if (n >= K) {
                chan_api->hold(c);
                MPI_Wait(&c, MPI_STATUS_IGNORE);   /* send n - K done */
                chan_api->settle(c);
                /* Receive n was started once the peer consumed n - K: the
                 * ordinary reply says so (a ready channel has no credits). */
                MPI_Recv(NULL, 0, MPI_BYTE, 1, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            for (int k = 0; k < 4; ++k) {
                at[k] = n * 10 + k;
            }
            MPI_Start(&c);
        } else {
            /* What the extension's Wait/Test wrappers do around Wait on a
             * slack channel: hold it (shown armed where a channel with
             * room for another start is parked, Open MPI 5.0), then
             * present the next outstanding start (Open MPI's Wait left the
             * request inactive). */
            chan_api->hold(c);
            MPI_Wait(&c, &st);          /* the oldest: message n */
            chan_api->settle(c);
            for (int k = 0; k < 4; ++k) {
                bad += at[k] != n * 10 + k;
            }
            int cnt;
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            bad += cnt != 16 || st.MPI_SOURCE != 0 || st.MPI_TAG != 11;
            if (n + K < N) {
                MPI_Start(&c);          /* receive n + K */
                MPI_Send(NULL, 0, MPI_BYTE, 0, 12, MPI_COMM_WORLD);
            }
            if (0 == (n + 1) % 512) {
                /* Inactive again only once drained: not now. */
                CHECK(MPI_ERR_REQUEST == chan_api->unbind(c));
            }
        }
    }
    CHECK(0 == bad);
    if (0 == rank) {
        for (int k = 0; k < K; ++k) {
            chan_api->hold(c);
            MPI_Wait(&c, MPI_STATUS_IGNORE);           /* sends N - K .. N - 1 */
            chan_api->settle(c);
        }
    }
    /* Every start was waited for: nothing is outstanding. */
    CHECK(MPI_SUCCESS == chan_api->unbind(c));
    MPI_Send(NULL, 0, MPI_BYTE, 1 - rank, 999, MPI_COMM_WORLD);
    MPI_Wait(&idle, MPI_STATUS_IGNORE);
    MPI_Request_free(&c);
    MPI_Request_free(&p);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void sync_slow_receiver(void)
{
    int v = -1;
    MPI_Request p, c;
    int flag;

    if (0 == rank) {
        MPI_Ssend_init(&v, 1, MPI_INT, 1, 21, MPI_COMM_WORLD, &p);
    } else {
        MPI_Recv_init(&v, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, &p);
    }
    CHECK(MPI_SUCCESS == chan_engine_bind(p, 1 - rank, 1, 1, 0, sizeof(int), &c));
    if (MPI_REQUEST_NULL == c) {
        return;
    }
    int bad = 0;
    for (int n = 0; n < 200; ++n) {
        if (0 == rank) {
            v = n;
            MPI_Start(&c);
            for (int t = 0; t < 20; ++t) {
                MPI_Test(&c, &flag, MPI_STATUS_IGNORE);
                bad += flag;            /* the receive is not started yet */
            }
            MPI_Send(NULL, 0, MPI_BYTE, 1, 22, MPI_COMM_WORLD);
            MPI_Wait(&c, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Start(&c);
            MPI_Wait(&c, MPI_STATUS_IGNORE);
            bad += v != n;
        }
    }
    CHECK(0 == bad);
    CHECK(MPI_SUCCESS == chan_engine_unbind(&c));
    MPI_Request_free(&p);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void vector(void)
{
    int buf[3 * 64];
    MPI_Datatype vec;
    MPI_Request p, c;

    MPI_Type_vector(64, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 3 * 64; ++i) {
        buf[i] = -1;
    }
    if (0 == rank) {
        MPI_Send_init(buf, 1, vec, 1, 31, MPI_COMM_WORLD, &p);
    } else {
        MPI_Recv_init(buf + 1, 1, vec, 0, 31, MPI_COMM_WORLD, &p);
    }
    MPI_Type_free(&vec);
    CHECK(MPI_SUCCESS == chan_engine_bind(p, 1 - rank, 0, 1, 0, 64 * sizeof(int), &c));
    if (MPI_REQUEST_NULL == c) {
        return;
    }
    int bad = 0;
    for (int n = 0; n < 300; ++n) {
        if (0 == rank) {
            MPI_Recv(NULL, 0, MPI_BYTE, 1, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < 64; ++i) {
                buf[3 * i] = n + i;
            }
            MPI_Start(&c);
            MPI_Wait(&c, MPI_STATUS_IGNORE);
        } else {
            MPI_Start(&c);
            MPI_Send(NULL, 0, MPI_BYTE, 0, 32, MPI_COMM_WORLD);
            MPI_Wait(&c, MPI_STATUS_IGNORE);
            for (int i = 0; i < 64; ++i) {
                bad += buf[3 * i + 1] != n + i || buf[3 * i] != -1 || buf[3 * i + 2] != -1;
            }
        }
    }
    CHECK(0 == bad);
    CHECK(MPI_SUCCESS == chan_engine_unbind(&c));
    MPI_Request_free(&p);
}

int main(int argc, char **argv)
{
    chan_engine_init(&argc, &argv);
    CHECK(NULL != chan_api && NULL != chan_api->prepare);
    if (NULL != chan_api && NULL != chan_api->prepare) {
        slack_stream();
        sync_slow_receiver();
        vector();
    }
    return ompix_test_finish("chan_engine/flow");
}
