/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * Every error case of the continuation API returns its class through
 * MPI_COMM_WORLD's error handler and leaves all handles usable; a failed
 * operation reports its error in its status, its callback still runs and
 * the continuation request completes with MPI_ERR_IN_STATUS.
 */
#include "ompix_test.h"

static int ran, seen_error;


static void cb(MPI_Status *st, void *data)
{
    (void)data;
    ran++;
    if (MPI_STATUSES_IGNORE != st) {
        seen_error = err_class(st[0].MPI_ERROR);
    }
}



static void bad_arguments(void)
{
    MPI_Request cr, cr2, g, g2, copy, other, arr[3], pr;
    int buf = 0;

    CHECK(MPI_SUCCESS == MPIX_Continue_init(MPI_INFO_NULL, &cr));
    g = grequest();

    CHECK_ERR(MPIX_Continue(&g, NULL, NULL, 0, MPI_STATUS_IGNORE, cr), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Continue(&g, cb, NULL, 0x10, MPI_STATUS_IGNORE, cr), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Continue(&g, cb, NULL, 0, MPI_STATUS_IGNORE, MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Continue(NULL, cb, NULL, 0, MPI_STATUS_IGNORE, cr), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Continueall(-1, &g, cb, NULL, 0, MPI_STATUSES_IGNORE, cr), MPI_ERR_COUNT);
    CHECK_ERR(MPIX_Continueall(2, NULL, cb, NULL, 0, MPI_STATUSES_IGNORE, cr), MPI_ERR_REQUEST);

    /* cont_req that is not a continuation request */
    MPI_Irecv(&buf, 1, MPI_INT, 0, 99, MPI_COMM_SELF, &other);
    CHECK_ERR(MPIX_Continue(&g, cb, NULL, 0, MPI_STATUS_IGNORE, other), MPI_ERR_REQUEST);
    CHECK(MPI_REQUEST_NULL != g);            /* failed calls take nothing over */

    /* the same request twice */
    arr[0] = g; arr[1] = MPI_REQUEST_NULL; arr[2] = g;
    CHECK_ERR(MPIX_Continueall(3, arr, cb, NULL, 0, MPI_STATUSES_IGNORE, cr), MPI_ERR_REQUEST);
    CHECK(arr[0] == g && arr[2] == g);

    /* a request that already has a continuation */
    copy = g;
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, cb, NULL, 0, MPI_STATUS_IGNORE, cr));
    CHECK(MPI_REQUEST_NULL == g);
    CHECK_ERR(MPIX_Continue(&copy, cb, NULL, 0, MPI_STATUS_IGNORE, cr), MPI_ERR_REQUEST);

    /* the continuation request as its own operation */
    MPIX_Continue_init(MPI_INFO_NULL, &cr2);
    CHECK_ERR(MPIX_Continue(&cr2, cb, NULL, 0, MPI_STATUS_IGNORE, cr2), MPI_ERR_REQUEST);
    /* a persistent continuation on a continuation request */
    CHECK_ERR(MPIX_Continue(&cr2, cb, NULL, MPIX_CONT_PERSISTENT, MPI_STATUS_IGNORE, cr), MPI_ERR_REQUEST);
    /* MPI_Start and MPI_Startall refuse an idle continuation request,
     * alone or beside a persistent receive, which stays inactive */
    CHECK_ERR(MPI_Start(&cr2), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Startall(1, &cr2), MPI_ERR_REQUEST);
    {
        MPI_Request two[2];
        int flag = 0;
        MPI_Recv_init(&buf, 1, MPI_INT, 0, 97, MPI_COMM_SELF, &two[0]);
        two[1] = cr2;
        CHECK_ERR(MPI_Startall(2, two), MPI_ERR_REQUEST);
        CHECK(MPI_SUCCESS == MPI_Test(&two[0], &flag, MPI_STATUS_IGNORE) && flag);
        MPI_Request_free(&two[0]);
    }

    /* an inactive persistent request without MPIX_CONT_PERSISTENT */
    MPI_Recv_init(&buf, 1, MPI_INT, 0, 98, MPI_COMM_SELF, &pr);
    CHECK_ERR(MPIX_Continue(&pr, cb, NULL, 0, MPI_STATUS_IGNORE, cr), MPI_ERR_REQUEST);
    /* an active persistent request that already has a continuation */
    CHECK(MPI_SUCCESS == MPIX_Continue(&pr, cb, NULL, MPIX_CONT_PERSISTENT, MPI_STATUS_IGNORE, cr));
    MPI_Start(&pr);
    CHECK_ERR(MPIX_Continue(&pr, cb, NULL, 0, MPI_STATUS_IGNORE, cr), MPI_ERR_REQUEST);
    CHECK_ERR(MPIX_Continue(&pr, cb, NULL, MPIX_CONT_PERSISTENT, MPI_STATUS_IGNORE, cr), MPI_ERR_REQUEST);

    /* continuation requests are never started by the user, and cannot be
     * freed while continuations are outstanding */
    CHECK_ERR(MPI_Start(&cr), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Startall(1, &cr), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Request_free(&cr), MPI_ERR_REQUEST);
    CHECK(MPI_REQUEST_NULL != cr);

    /* everything above left the handles usable */
    MPI_Grequest_complete(copy);
    MPI_Send(&buf, 1, MPI_INT, 0, 98, MPI_COMM_SELF);
    MPI_Send(&buf, 1, MPI_INT, 0, 99, MPI_COMM_SELF);
    CHECK(MPI_SUCCESS == MPI_Wait(&other, MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(2 == ran);
    CHECK(MPI_SUCCESS == MPI_Request_free(&pr));
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr2));
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));

    /* MPIX_Continue_init */
    MPI_Info info;
    CHECK_ERR(MPIX_Continue_init(MPI_INFO_NULL, NULL), MPI_ERR_REQUEST);
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_continue_thread", "sometimes");
    CHECK_ERR(MPIX_Continue_init(info, &cr), MPI_ERR_INFO_VALUE);
    MPI_Info_free(&info);
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_continue_max_poll", "many");
    CHECK_ERR(MPIX_Continue_init(info, &cr), MPI_ERR_INFO_VALUE);
    MPI_Info_free(&info);
    (void)g2;
}

/* Rank 0 sends two ints where rank 1 receives one: rank 1's receive fails
 * with MPI_ERR_TRUNCATE. */
static void failed_operation(void)
{
    MPI_Request cr, r;
    MPI_Status st, sts[1];
    int buf[2] = {1, 2};

    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    for (int round = 0; round < 4; ++round) {
        ran = 0;
        seen_error = MPI_SUCCESS;
        if (0 == rank) {
            MPI_Send(buf, 2, MPI_INT, 1, 60, MPI_COMM_WORLD);
        } else {
            MPI_Irecv(buf, 1, MPI_INT, 0, 60, MPI_COMM_WORLD, &r);
            CHECK(MPI_SUCCESS == MPIX_Continue(&r, cb, NULL, 0, &st, cr));
            int before = err_handler_calls, idx = -1, outcount = 0;
            if (0 == round) {
                CHECK_ERR(MPI_Wait(&cr, MPI_STATUS_IGNORE), MPI_ERR_IN_STATUS);
            } else if (1 == round) {
                CHECK(MPI_ERR_IN_STATUS == MPI_Waitall(1, &cr, sts));
                CHECK(MPI_ERR_IN_STATUS == sts[0].MPI_ERROR);
            } else if (2 == round) {
                CHECK(MPI_ERR_IN_STATUS == err_class(MPI_Waitany(1, &cr, &idx, sts)));
                CHECK(0 == idx);
            } else {
                CHECK(MPI_ERR_IN_STATUS == MPI_Waitsome(1, &cr, &outcount, &idx, sts));
                CHECK(1 == outcount && 0 == idx && MPI_ERR_IN_STATUS == sts[0].MPI_ERROR);
            }
            CHECK(err_handler_calls == before + 1 && MPI_ERR_IN_STATUS == err_handler_class);
            /* reported once: it is now an inactive request */
            CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
            CHECK(1 == ran);
            CHECK(MPI_ERR_TRUNCATE == seen_error);
            CHECK(MPI_ERR_TRUNCATE == err_class(st.MPI_ERROR));
            CHECK(MPI_REQUEST_NULL != cr);   /* stays valid */
        }
    }
    /* The next registration starts it afresh: the error flag is gone. */
    if (1 == rank) {
        MPI_Irecv(buf, 2, MPI_INT, 0, 61, MPI_COMM_WORLD, &r);
        MPIX_Continue(&r, cb, NULL, 0, MPI_STATUS_IGNORE, cr);
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    } else {
        MPI_Send(buf, 2, MPI_INT, 1, 61, MPI_COMM_WORLD);
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;

    ompix_test_init(&argc, &argv);
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    bad_arguments();
    failed_operation();

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("cont_errors");
}
