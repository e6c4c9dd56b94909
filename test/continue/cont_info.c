/*
 * ompix-test: np=1 tls=shm pml=ob1,ucx timeout=60
 *
 * Info keys of MPIX_Continue_init: poll_only, max_poll, enqueue_complete,
 * thread, async_signal_safe; and that without poll_only continuations also
 * run from progress in unrelated MPI calls.
 */
#include "ompix_test.h"

static int ran;

static void cb(MPI_Status *st, void *data)
{
    (void)st;
    (void)data;
    ran++;
}


static MPI_Request cont_init(const char *k1, const char *v1, const char *k2, const char *v2)
{
    MPI_Info info;
    MPI_Request cr = MPI_REQUEST_NULL;
    MPI_Info_create(&info);
    if (k1) MPI_Info_set(info, k1, v1);
    if (k2) MPI_Info_set(info, k2, v2);
    CHECK(MPI_SUCCESS == MPIX_Continue_init(info, &cr));
    MPI_Info_free(&info);
    return cr;
}

/* Registers a continuation on an incomplete generalized request and
 * returns the request, to be completed by the caller. */
static MPI_Request attach_pending(MPI_Request cr, int flags)
{
    MPI_Request g, handle;
    g = grequest();
    handle = g;
    CHECK(MPI_SUCCESS == MPIX_Continue(&handle, cb, NULL, flags, MPI_STATUS_IGNORE, cr));
    return g;
}

static void attach_complete(MPI_Request cr, int flags)
{
    MPI_Grequest_complete(attach_pending(cr, flags));
}

/* Drives progress through calls that have nothing to do with cr. */
static void unrelated_progress(void)
{
    int flag;
    for (int i = 0; i < 1000 && 0 == ran; ++i) {
        MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
    }
}

/* A ready continuation on a request created with poll_only=`value` (or no
 * info) runs from unrelated progress exactly `expect` times.  Returns the
 * request, its continuation run or still queued. */
static MPI_Request progress_runs(const char *value, int expect)
{
    MPI_Request cr = cont_init(value ? "mpi_continue_poll_only" : NULL, value, NULL, NULL);
    ran = 0;
    attach_complete(cr, 0);
    unrelated_progress();
    CHECK(expect == ran);
    return cr;
}

int main(int argc, char **argv)
{
    MPI_Request cr;
    int flag;

    ompix_test_init(&argc, &argv);

    /* default: any MPI call's progress runs ready continuations */
    cr = progress_runs(NULL, 1);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    MPI_Request_free(&cr);

    /* poll_only: only Test/Wait on cr run them, never inline */
    cr = progress_runs("true", 0);
    MPI_Request g;
    g = completed_grequest();
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, cb, NULL, MPIX_CONT_IMMEDIATE, MPI_STATUS_IGNORE, cr));
    CHECK(0 == ran);
    MPI_Test(&cr, &flag, MPI_STATUS_IGNORE);
    CHECK(2 == ran && flag);
    MPI_Request_free(&cr);

    /* max_poll=1 (with poll_only so nothing else runs them) */
    cr = cont_init("mpi_continue_poll_only", "true", "mpi_continue_max_poll", "1");
    ran = 0;
    for (int i = 0; i < 3; ++i) attach_complete(cr, 0);
    MPI_Test(&cr, &flag, MPI_STATUS_IGNORE);
    CHECK(1 == ran && !flag);
    MPI_Test(&cr, &flag, MPI_STATUS_IGNORE);
    CHECK(2 == ran && !flag);
    MPI_Test(&cr, &flag, MPI_STATUS_IGNORE);
    CHECK(3 == ran && flag);
    MPI_Request_free(&cr);

    /* max_poll zero or negative: unlimited */
    const char *unlimited[] = {"0", "-1"};
    for (int k = 0; k < 2; ++k) {
        cr = cont_init("mpi_continue_poll_only", "true", "mpi_continue_max_poll", unlimited[k]);
        ran = 0;
        for (int i = 0; i < 5; ++i) attach_complete(cr, 0);
        MPI_Test(&cr, &flag, MPI_STATUS_IGNORE);
        CHECK(5 == ran && flag);
        MPI_Request_free(&cr);
    }

    /* enqueue_complete: IMMEDIATE never runs the callback inside the call */
    cr = cont_init("mpi_continue_enqueue_complete", "true", NULL, NULL);
    ran = 0;
    g = completed_grequest();
    MPIX_Continue(&g, cb, NULL, MPIX_CONT_IMMEDIATE, MPI_STATUS_IGNORE, cr);
    CHECK(0 == ran);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(1 == ran);
    MPI_Request_free(&cr);

    /* thread: both values accepted and continuations run */
    const char *threads[] = {"application", "any"};
    for (int k = 0; k < 2; ++k) {
        cr = cont_init("mpi_continue_thread", threads[k], NULL, NULL);
        ran = 0;
        attach_complete(cr, 0);
        MPI_Wait(&cr, MPI_STATUS_IGNORE);
        CHECK(1 == ran);
        MPI_Request_free(&cr);
    }

    /* async_signal_safe: callbacks may run in the completion path itself */
    cr = cont_init("mpi_continue_async_signal_safe", "true", NULL, NULL);
    ran = 0;
    g = attach_pending(cr, 0);
    MPI_Grequest_complete(g);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(1 == ran);
    int sbuf = 1, rbuf = 0;
    MPI_Request r[2];
    MPI_Irecv(&rbuf, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &r[0]);
    MPI_Isend(&sbuf, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &r[1]);
    MPIX_Continueall(2, r, cb, NULL, 0, MPI_STATUSES_IGNORE, cr);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    CHECK(2 == ran && 1 == rbuf);
    MPI_Request_free(&cr);

    /* boolean values other than true are false */
    cr = progress_runs("false", 1);
    MPI_Request_free(&cr);

    return ompix_test_finish("cont_info");
}
