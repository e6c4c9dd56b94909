/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * Every error of the channel API through a counting error handler on
 * MPI_COMM_WORLD, the channel intact afterwards (with pml/chan's engine;
 * chan_errors_off.c runs it on the generic fallback): MPI_REQUEST_NULL, a non-persistent
 * request, a channel, a request listed twice, slack 0, a bad
 * address_base_increment; truncation, slack mismatch and type mismatch
 * reported on both ends, blocking and nonblocking (req_in usable after);
 * MPI_Request_free and MPI_Cancel on a channel; unbind of a non-channel and
 * with a start outstanding; the (K+1)-th start.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

static MPI_Request make(int send, void *buf, int count, MPI_Datatype type)
{
    MPI_Request req;

    if (send) {
        MPI_Send_init(buf, count, type, 1 - rank, 30, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(buf, count, type, 1 - rank, 30, MPI_COMM_WORLD, &req);
    }
    return req;
}

static void local_errors(void)
{
    int buf[4] = {0}, slack0 = 0;
    MPI_Request req, out, two[2], outs[2], irecv;
    MPI_Info info;

    CHECK_ERR(MPIX_Bind_channel(MPI_REQUEST_NULL, &out, MPI_INFO_NULL), MPI_ERR_REQUEST);
    MPI_Irecv(buf, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &irecv);
    CHECK_ERR(MPIX_Bind_channel(irecv, &out, MPI_INFO_NULL), MPI_ERR_REQUEST);
    MPI_Cancel(&irecv);
    MPI_Wait(&irecv, MPI_STATUS_IGNORE);
    req = make(0 == rank, buf, 4, MPI_INT);
    two[0] = two[1] = req;
    CHECK_ERR(MPIX_Bind_channels(2, two, outs, NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Bind_slack_channels(1, &req, outs, &slack0, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Ibind_slack_channels(1, &req, outs, NULL, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Ibind_slack_channel(req, &out, 0, MPI_INFO_NULL), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Ibind_channels(-1, &req, outs, NULL), MPI_ERR_COUNT);
    MPI_Info_create(&info);
    MPI_Info_set(info, "address_base_increment", "three");
    CHECK_ERR(MPIX_Bind_slack_channel(req, &out, 2, info), MPI_ERR_INFO_VALUE);
    MPI_Info_free(&info);
    CHECK_ERR(MPIX_Unbind_channel(&req), MPI_ERR_REQUEST);
    MPI_Request_free(&req);
}

/* A pair whose bind fails on both ends with cls. */
static void pair_error(MPI_Request req, int slack, int cls, int nonblocking)
{
    MPI_Request out = (MPI_Request) 1;

    if (!nonblocking) {
        CHECK_ERR(MPIX_Bind_slack_channel(req, &out, slack, MPI_INFO_NULL), cls);
    } else {
        CHECK(MPI_SUCCESS == MPIX_Ibind_slack_channel(req, &out, slack, MPI_INFO_NULL));
        CHECK_ERR(MPI_Wait(&req, MPI_STATUS_IGNORE), cls);
        CHECK(MPI_REQUEST_NULL != req);
    }
    CHECK(MPI_REQUEST_NULL == out);
    MPI_Request_free(&req);
}

static void protocol_errors(int nonblocking)
{
    int ibuf[8] = {0};
    double dbuf[4] = {0};

    /* Truncation: 8 ints into 4. */
    pair_error(make(0 == rank, ibuf, 0 == rank ? 8 : 4, MPI_INT), 1, MPI_ERR_TRUNCATE,
               nonblocking);
    /* Slack 2 against 4. */
    pair_error(make(0 == rank, ibuf, 4, MPI_INT), 0 == rank ? 2 : 4, MPI_ERR_ARG, nonblocking);
    /* 4 ints against 2 doubles: same size, other signature. */
    pair_error(0 == rank ? make(1, ibuf, 4, MPI_INT) : make(0, dbuf, 2, MPI_DOUBLE), 1,
               MPI_ERR_TYPE, nonblocking);
}

static void channel_errors(void)
{
    int buf = 0;
    MPI_Request req = make(0 == rank, &buf, 1, MPI_INT), chan, again;

    CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
    CHECK_ERR(MPIX_Bind_channel(chan, &again, MPI_INFO_NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Request_free(&chan), MPI_ERR_REQUEST);
    CHECK(MPI_REQUEST_NULL != chan);
    CHECK_ERR(MPI_Cancel(&chan), MPI_ERR_REQUEST);
    if (1 == rank) {
        MPI_Start(&chan);
        CHECK_ERR(MPIX_Unbind_channel(&chan), MPI_ERR_REQUEST);
        CHECK_ERR(MPI_Start(&chan), MPI_ERR_REQUEST);   /* second start, slack 1 */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        buf = 77;
        MPI_Start(&chan);
    }
    MPI_Wait(&chan, MPI_STATUS_IGNORE);
    CHECK(77 == buf);
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    MPI_Request_free(&req);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    local_errors();
    protocol_errors(0);
    protocol_errors(1);
    channel_errors();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("chan_errors");
}
