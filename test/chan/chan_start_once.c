/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60 mca="mpi_param_check 0"
 *
 * An erroneous start is reported exactly once: the counting handler sees
 * one call, with the class, for MPI_Start (which returns the class) and
 * for an MPI_Startall of that one request (whose return is not checked:
 * Open MPI's MPI_Startall drops what the request's start returns in both
 * series, and 5.0's returns the class only when it refuses the request
 * itself).  The starts: a channel's start beyond its slack, a bundled
 * member's, an active bundle's and an active persistent generalized
 * request's.  Here without parameter checks, where Open MPI 5.0's MPI_Start
 * calls the start of a request it would otherwise refuse, and reports what
 * it returns (it reported twice); chan_start_once_check.c with them,
 * chan_start_once_off.c on the fallback.  Errors tied to no communicator
 * go to MPI_COMM_WORLD's handler (5.0: mpi_compat_mpi3's default), so the
 * counting handler is set on MPI_COMM_WORLD and MPI_COMM_SELF.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

/* The start (MPI_Start, then MPI_Startall of it alone) must fail with
 * cls, each reported once. */
static void start_fails(MPI_Request *req, int cls)
{
    int before;

    CHECK_ERR(MPI_Start(req), cls);
    before = err_handler_calls;
    (void) MPI_Startall(1, req);
    CHECK(err_handler_calls == before + 1 && err_handler_class == cls);
}

/* A channel of slack 1 to the neighbour: one start outstanding, then its
 * second start is erroneous; the data still goes through. */
static void once_slack(MPI_Request chan[2], int *in, int *out)
{
    *out = 100 + rank;
    *in = -1;
    CHECK(MPI_SUCCESS == MPI_Startall(2, chan));
    start_fails(&chan[0], MPI_ERR_REQUEST);
    start_fails(&chan[1], MPI_ERR_REQUEST);
    CHECK(MPI_SUCCESS == MPI_Waitall(2, chan, MPI_STATUSES_IGNORE));
    CHECK(100 + left == *in);
}

/* A bundle of the two channels: their starts erroneous while bundled
 * (idle or running), the bundle's while it is active. */
static void once_bundle(MPI_Request chan[2], int *in, int *out)
{
    MPI_Request b;
    int sizes[1] = {2};

    CHECK(MPI_SUCCESS == MPIX_Bundle_init(1, sizes, chan, MPI_INFO_NULL, &b));
    start_fails(&chan[0], MPI_ERR_REQUEST);
    for (int it = 0; it < 3; ++it) {
        *out = 200 + rank + it;
        *in = -1;
        CHECK(MPI_SUCCESS == MPI_Start(&b));
        start_fails(&b, MPI_ERR_REQUEST);
        start_fails(&chan[1], MPI_ERR_REQUEST);
        CHECK(MPI_SUCCESS == MPI_Wait(&b, MPI_STATUS_IGNORE));
        CHECK(200 + left + it == *in);
        start_fails(&chan[0], MPI_ERR_REQUEST);
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
}

static int greq_done;

static int greq_start(void *extra)
{
    (void) extra;
    greq_done = 0;
    return MPI_SUCCESS;
}

static int greq_poll(void *extra, int *completed)
{
    (void) extra;
    *completed = greq_done;
    return MPI_SUCCESS;
}

/* A persistent generalized request: its start erroneous while active. */
static void once_greq(void)
{
    MPI_Request g;

    CHECK(MPI_SUCCESS == MPIX_Grequest_persistent_init(greq_start, greq_poll, NULL, NULL, &g));
    CHECK(MPI_SUCCESS == MPI_Start(&g));
    start_fails(&g, MPI_ERR_REQUEST);
    greq_done = 1;
    CHECK(MPI_SUCCESS == MPI_Wait(&g, MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPI_Request_free(&g));
}

int main(int argc, char **argv)
{
    MPI_Request p2p[2], chan[2];
    MPI_Errhandler eh;
    int in = -1, out = 0;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);
    MPI_Recv_init(&in, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &p2p[0]);
    MPI_Send_init(&out, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &p2p[1]);
    CHECK(MPI_SUCCESS == MPIX_Bind_channels(2, p2p, chan, NULL));
    MPI_Request_free(&p2p[0]);
    MPI_Request_free(&p2p[1]);
    once_slack(chan, &in, &out);
    once_bundle(chan, &in, &out);
    once_slack(chan, &in, &out);           /* given back intact */
    once_greq();
    CHECK(MPI_SUCCESS == MPIX_Unbind_channels(2, chan));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("chan_start_once");
}
