/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=90 mca="pml_chan_enable 0"
 *
 * MPI_T performance variables mpi_chan_fallback_channels and
 * mpi_chan_fallback_starts, with pml/chan's engine off (every channel on
 * the generic fallback): absent before the first fallback channel, then
 * read-only continuous counters of unsigned long long bound to no object;
 * a handle counts exactly the work done while it exists: a channel to
 * MPI_PROC_NULL started 100 times (+0 channels: bound before the handle,
 * +100 starts), with two ranks a send/receive channel pair started 100
 * times with the data checked (+1, +100), a start refused (more than the
 * slack outstanding: +0), one more MPI_PROC_NULL channel (+1).
 */
#include "ompix_test.h"
#include "ompix_mpit.h"
#include "ompix_chan_pml.h"


#define ROUNDS 100

static MPI_T_pvar_session session;

static MPI_T_pvar_handle handle_of(const char *name)
{
    MPI_T_pvar_handle h = ompix_mpit_pvar_counter(session, name);

    CHECK(MPI_T_PVAR_HANDLE_NULL != h);
    return h;
}

static MPI_Request null_channel(void)
{
    MPI_Request chan = ompix_chan_null_channel();

    CHECK(MPI_REQUEST_NULL != chan);
    return chan;
}

static void start_wait(MPI_Request *chan, int n)
{
    for (int i = 0; i < n; ++i) {
        CHECK(MPI_SUCCESS == MPI_Start(chan));
        CHECK(MPI_SUCCESS == MPI_Wait(chan, MPI_STATUS_IGNORE));
    }
}

/* Ranks 0 and 1: 100 messages on a bound pair, data checked. */
static void pair(int rank)
{
    MPI_Request req, chan;
    int buf = -1, bad = 0;

    if (0 == rank) {
        MPI_Send_init(&buf, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(&buf, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
    for (int r = 0; r < ROUNDS; ++r) {
        buf = 0 == rank ? r : -1;
        CHECK(MPI_SUCCESS == MPI_Start(&chan));
        CHECK(MPI_SUCCESS == MPI_Wait(&chan, MPI_STATUS_IGNORE));
        bad += 1 == rank && buf != r;
    }
    CHECK(0 == bad);
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    CHECK(MPI_SUCCESS == MPI_Request_free(&req));
}

static void expect(MPI_T_pvar_handle ch, MPI_T_pvar_handle st, unsigned long long c,
                   unsigned long long s)
{
    CHECK(ompix_mpit_pvar_expect(session, ch, "mpi_chan_fallback_channels", c));
    CHECK(ompix_mpit_pvar_expect(session, st, "mpi_chan_fallback_starts", s));
}

int main(int argc, char **argv)
{
    MPI_T_pvar_handle ch, st;
    MPI_Request nc, nc2;
    int provided, index = -1;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);    /* sets rank and size */
    CHECK(MPI_SUCCESS == MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK(MPI_SUCCESS != MPI_T_pvar_get_index("mpi_chan_fallback_starts",
                                              MPI_T_PVAR_CLASS_COUNTER, &index));
    nc = null_channel();
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_create(&session));
    ch = handle_of("mpi_chan_fallback_channels");
    st = handle_of("mpi_chan_fallback_starts");
    expect(ch, st, 0, 0);

    start_wait(&nc, ROUNDS);
    expect(ch, st, 0, ROUNDS);
    /* A second start with one outstanding (slack 1): refused, not counted. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_SUCCESS == MPI_Start(&nc));
    CHECK(MPI_SUCCESS != MPI_Start(&nc));
    CHECK(MPI_SUCCESS == MPI_Wait(&nc, MPI_STATUS_IGNORE));
    expect(ch, st, 0, ROUNDS + 1);
    if (size >= 2 && rank < 2) {
        pair(rank);
        expect(ch, st, 1, 2 * ROUNDS + 1);
    }
    nc2 = null_channel();
    start_wait(&nc2, 1);
    if (size >= 2 && rank < 2) {
        expect(ch, st, 2, 2 * ROUNDS + 2);
    } else {
        expect(ch, st, 1, ROUNDS + 2);
    }

    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&nc2));
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&nc));
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &st));
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &ch));
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_free(&session));
    CHECK(MPI_SUCCESS == MPI_T_finalize());
    return ompix_test_finish("chan_fallback_mpit");
}
