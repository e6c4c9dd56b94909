/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=90
 *
 * Requests to MPI_PROC_NULL (issue 27), with pml/chan's engine
 * (chan_procnull_off.c: on the generic fallback): every bind form
 * (single, array, slack, nonblocking, slack nonblocking) binds them into
 * channels whose starts complete at once with MPI's status for
 * MPI_PROC_NULL (source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0) and leave
 * the buffer alone; from MPI_Send_init, Bsend, Ssend, Rsend and Recv_init;
 * mixed in one call with real pairs, whose data is checked; slack K:
 * K starts outstanding, the (K+1)-th refused; both unbind forms.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

static void check_null_status(const MPI_Status *st)
{
    int count = -1;

    CHECK(MPI_PROC_NULL == st->MPI_SOURCE);
    CHECK(MPI_ANY_TAG == st->MPI_TAG);
    MPI_Get_count(st, MPI_INT, &count);
    CHECK(0 == count);
}

/* One start of a channel to MPI_PROC_NULL: complete at once. */
static void null_round(MPI_Request *chan, int *buf)
{
    MPI_Status st;
    int flag = 0;

    *buf = 1234;
    CHECK(MPI_SUCCESS == MPI_Start(chan));
    CHECK(MPI_SUCCESS == MPI_Test(chan, &flag, &st));
    CHECK(flag);
    check_null_status(&st);
    CHECK(1234 == *buf);
}

static void make_null(int kind, int *buf, MPI_Request *req)
{
    switch (kind) {
    case 0: MPI_Send_init(buf, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, req); break;
    case 1: MPI_Bsend_init(buf, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, req); break;
    case 2: MPI_Ssend_init(buf, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, req); break;
    case 3: MPI_Rsend_init(buf, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, req); break;
    default: MPI_Recv_init(buf, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, req); break;
    }
}

static void single_forms(void)
{
    int buf = 0;
    MPI_Request req, chan;

    for (int kind = 0; kind < 5; ++kind) {
        make_null(kind, &buf, &req);
        CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
        CHECK(MPI_REQUEST_NULL != chan);
        for (int r = 0; r < 3; ++r) {
            null_round(&chan, &buf);
        }
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
        CHECK(MPI_REQUEST_NULL == chan);
        /* req_in is an ordinary request again. */
        CHECK(MPI_SUCCESS == MPI_Start(&req));
        CHECK(MPI_SUCCESS == MPI_Wait(&req, MPI_STATUS_IGNORE));
        MPI_Request_free(&req);
    }
}

/* Nonblocking: req_in completes at once; then the channel works. */
static void nonblocking_forms(void)
{
    int buf = 0, slack = 2, slacks[2] = {2, 2};
    MPI_Request req[2], chan[2];
    MPI_Status st;

    make_null(4, &buf, &req[0]);
    make_null(0, &buf, &req[1]);
    CHECK(MPI_SUCCESS == MPIX_Ibind_channel(req[0], &chan[0], MPI_INFO_NULL));
    CHECK(MPI_SUCCESS == MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    null_round(&chan[0], &buf);
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan[0]));
    CHECK(MPI_SUCCESS == MPIX_Ibind_slack_channel(req[0], &chan[0], slack, MPI_INFO_NULL));
    CHECK(MPI_SUCCESS == MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    MPI_Start(&chan[0]);
    MPI_Start(&chan[0]);
    for (int k = 0; k < 2; ++k) {
        CHECK(MPI_SUCCESS == MPI_Wait(&chan[0], &st));
        check_null_status(&st);
    }
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan[0]));
    CHECK(MPI_SUCCESS == MPIX_Ibind_channels(2, req, chan, NULL));
    CHECK(MPI_SUCCESS == MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    CHECK(MPI_SUCCESS == MPIX_Iunbind_channels(2, chan, NULL));
    CHECK(MPI_SUCCESS == MPI_Waitall(2, chan, MPI_STATUSES_IGNORE));
    CHECK(MPI_REQUEST_NULL == chan[0] && MPI_REQUEST_NULL == chan[1]);
    CHECK(MPI_SUCCESS == MPIX_Ibind_slack_channels(2, req, chan, slacks, NULL));
    CHECK(MPI_SUCCESS == MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    CHECK(MPI_SUCCESS == MPIX_Iunbind_channel(&chan[0], MPI_INFO_NULL));
    CHECK(MPI_SUCCESS == MPI_Wait(&chan[0], MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPIX_Unbind_channels(1, &chan[1]));
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
}

/* Slack 3: three starts outstanding, the fourth refused, three waits. */
static void slack_form(void)
{
    int buf = 0, cls = 0;
    MPI_Request req, chan;
    MPI_Status st[3];

    make_null(2, &buf, &req);
    CHECK(MPI_SUCCESS == MPIX_Bind_slack_channel(req, &chan, 3, MPI_INFO_NULL));
    for (int round = 0; round < 2; ++round) {
        for (int k = 0; k < 3; ++k) {
            CHECK(MPI_SUCCESS == MPI_Start(&chan));
        }
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Error_class(MPI_Start(&chan), &cls);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        CHECK(MPI_ERR_REQUEST == cls);
        for (int k = 0; k < 3; ++k) {
            CHECK(MPI_SUCCESS == MPI_Wait(&chan, &st[k]));
            check_null_status(&st[k]);
        }
    }
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    MPI_Request_free(&req);
}

/* Real pairs and MPI_PROC_NULL in one array call: the ring's ends to the
 * neighbours, two ends to MPI_PROC_NULL between them. */
static void mixed_array(void)
{
    int sbuf = 0, rbuf = -1, nbuf = 0, slacks[4] = {2, 2, 2, 2};
    MPI_Request req[4], chan[4];
    MPI_Status st[4];

    MPI_Ssend_init(&sbuf, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &req[0]);
    make_null(4, &nbuf, &req[1]);
    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &req[2]);
    make_null(0, &nbuf, &req[3]);
    for (int form = 0; form < 2; ++form) {
        if (0 == form) {
            CHECK(MPI_SUCCESS == MPIX_Bind_channels(4, req, chan, NULL));
        } else {
            CHECK(MPI_SUCCESS == MPIX_Bind_slack_channels(4, req, chan, slacks, NULL));
        }
        for (int r = 0; r < 20; ++r) {
            sbuf = rank * 100 + r;
            nbuf = -5;
            CHECK(MPI_SUCCESS == MPI_Startall(4, chan));
            CHECK(MPI_SUCCESS == MPI_Waitall(4, chan, st));
            CHECK(left * 100 + r == rbuf);
            CHECK(-5 == nbuf);
            check_null_status(&st[1]);
            check_null_status(&st[3]);
            CHECK(left == st[2].MPI_SOURCE && 9 == st[2].MPI_TAG);
        }
        CHECK(MPI_SUCCESS == MPIX_Unbind_channels(4, chan));
    }
    for (int i = 0; i < 4; ++i) {
        MPI_Request_free(&req[i]);
    }
}

int main(int argc, char **argv)
{
    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    single_forms();
    nonblocking_forms();
    slack_form();
    mixed_array();
    return ompix_test_finish("chan_procnull");
}
