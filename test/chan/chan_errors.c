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
 * with a start outstanding; the (K+1)-th start.  Issue 28's rows: NULL
 * arrays with a count > 0, negative counts and slacks, NULL handles, an
 * active request, for every bind and unbind form; every output handle
 * MPI_REQUEST_NULL after a failed bind (a local failure, and a pair that
 * fails beside one that binds); MPI_Start, MPI_Request_free and MPI_Cancel
 * on req_in while MPIX_Ibind_channel is pending (refused, and the bind
 * then completes and carries data); a slack of 2^24 (CHAN_ERRORS_HUGE)
 * binds and works.
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

/* NULL arrays and handles, negative counts and slacks, an active request:
 * each form with its class, and the outputs MPI_REQUEST_NULL. */
static void argument_errors(void)
{
    int buf[4] = {0}, neg = -3, slacks[2] = {1, 1};
    MPI_Request req = make(0 == rank, buf, 4, MPI_INT), active, outs[2], out;
    MPI_Request two[2];

    CHECK_ERR(MPIX_Bind_channels(2, NULL, outs, NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Bind_channels(1, &req, NULL, NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Ibind_channels(2, NULL, outs, NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Bind_slack_channels(2, NULL, outs, slacks, NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Ibind_slack_channels(1, &req, NULL, slacks, NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Bind_channels(-1, &req, outs, NULL), MPI_ERR_COUNT);
    CHECK_ERR(MPIX_Bind_slack_channels(-2, &req, outs, slacks, NULL), MPI_ERR_COUNT);
    CHECK_ERR(MPIX_Ibind_slack_channels(-1, &req, outs, slacks, NULL), MPI_ERR_COUNT);
    CHECK_ERR(MPIX_Bind_channel(req, NULL, MPI_INFO_NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Ibind_channel(req, NULL, MPI_INFO_NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Bind_slack_channel(req, &out, neg, MPI_INFO_NULL), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Bind_slack_channels(1, &req, outs, &neg, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Unbind_channel(NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Iunbind_channel(NULL, MPI_INFO_NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Unbind_channels(2, NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Iunbind_channels(2, NULL, NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Unbind_channels(-1, outs), MPI_ERR_COUNT);
    CHECK_ERR(MPIX_Iunbind_channels(-1, outs, NULL), MPI_ERR_COUNT);
    two[0] = MPI_REQUEST_NULL;
    CHECK_ERR(MPIX_Unbind_channels(1, two), MPI_ERR_REQUEST);
    /* Every output MPI_REQUEST_NULL after a failed bind. */
    two[0] = req;
    two[1] = MPI_REQUEST_NULL;
    outs[0] = outs[1] = (MPI_Request) 1;
    CHECK_ERR(MPIX_Bind_channels(2, two, outs, NULL), MPI_ERR_REQUEST);
    CHECK(MPI_REQUEST_NULL == outs[0] && MPI_REQUEST_NULL == outs[1]);
    outs[0] = outs[1] = (MPI_Request) 1;
    CHECK_ERR(MPIX_Ibind_slack_channels(2, two, outs, NULL, NULL), MPI_ERR_ARG);
    CHECK(MPI_REQUEST_NULL == outs[0] && MPI_REQUEST_NULL == outs[1]);
    /* An active ordinary request (a receive nobody sends to). */
    MPI_Recv_init(buf, 1, MPI_INT, rank, 777, MPI_COMM_WORLD, &active);
    MPI_Start(&active);
    CHECK_ERR(MPIX_Bind_channel(active, &out, MPI_INFO_NULL), MPI_ERR_REQUEST);
    CHECK(MPI_REQUEST_NULL == out);
    MPI_Cancel(&active);
    MPI_Wait(&active, MPI_STATUS_IGNORE);
    MPI_Request_free(&active);
    MPI_Request_free(&req);
}

/* One call binding a good pair and a truncating one: the error on both
 * ends, and neither output is a channel. */
static void partial_failure(void)
{
    int ibuf[8] = {0}, good = 0;
    MPI_Request in[2], outs[2];

    in[0] = make(0 == rank, &good, 1, MPI_INT);
    in[1] = make(0 == rank, ibuf, 0 == rank ? 8 : 4, MPI_INT);
    CHECK_ERR(MPIX_Bind_channels(2, in, outs, NULL), MPI_ERR_TRUNCATE);
    CHECK(MPI_REQUEST_NULL == outs[0] && MPI_REQUEST_NULL == outs[1]);
    /* The good pair binds again afterwards. */
    CHECK(MPI_SUCCESS == MPIX_Bind_channel(in[0], &outs[0], MPI_INFO_NULL));
    good = 0 == rank ? 41 : 0;
    MPI_Start(&outs[0]);
    MPI_Wait(&outs[0], MPI_STATUS_IGNORE);
    CHECK(41 == good);
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&outs[0]));
    MPI_Request_free(&in[0]);
    MPI_Request_free(&in[1]);
}

/* req_in while MPIX_Ibind_channel is pending: MPI_Start, MPI_Request_free
 * and MPI_Cancel refused; the bind then completes (the receive end waits
 * for the send end's barrier, so its bind is surely pending). */
static void pending_req_in(void)
{
    int buf = 0;
    MPI_Request req = make(0 == rank, &buf, 1, MPI_INT), chan = MPI_REQUEST_NULL;

    if (1 == rank) {
        CHECK(MPI_SUCCESS == MPIX_Ibind_channel(req, &chan, MPI_INFO_NULL));
        CHECK_ERR(MPI_Start(&req), MPI_ERR_REQUEST);
        CHECK_ERR(MPI_Request_free(&req), MPI_ERR_REQUEST);
        CHECK(MPI_REQUEST_NULL != req);
        CHECK_ERR(MPI_Cancel(&req), MPI_ERR_REQUEST);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
    } else {
        CHECK(MPI_SUCCESS == MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    buf = 0 == rank ? 55 : 0;
    MPI_Start(&chan);
    MPI_Wait(&chan, MPI_STATUS_IGNORE);
    CHECK(55 == buf);
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    /* req_in is an ordinary request again. */
    buf = 0 == rank ? 56 : 0;
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(56 == buf);
    MPI_Request_free(&req);
}

#ifndef CHAN_ERRORS_HUGE
#define CHAN_ERRORS_HUGE (1 << 16)
#endif

/* A huge slack binds (or would fail with MPI_ERR_NO_MEM), never hangs. */
static void huge_slack(void)
{
    int buf = 0, rc;
    MPI_Request req = make(0 == rank, &buf, 1, MPI_INT), chan;

    rc = MPIX_Bind_slack_channel(req, &chan, CHAN_ERRORS_HUGE, MPI_INFO_NULL);
    CHECK(MPI_SUCCESS == rc || MPI_ERR_NO_MEM == err_class(rc));
    if (MPI_SUCCESS == rc) {
        for (int k = 0; k < 3; ++k) {
            buf = 0 == rank ? 100 + k : 0;
            MPI_Start(&chan);
            MPI_Wait(&chan, MPI_STATUS_IGNORE);
            CHECK(100 + k == buf);
        }
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    }
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
    argument_errors();
    partial_failure();
    pending_req_in();
    huge_slack();
    protocol_errors(0);
    protocol_errors(1);
    channel_errors();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("chan_errors");
}
