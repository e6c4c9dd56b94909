/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=60 mca="mpi_param_check 0"
 *
 * With parameter checking off (--mca mpi_param_check 0), valid programs work
 * as before, and ompix's state rules still hold: a request that already has
 * a continuation, an inactive persistent request without
 * MPIX_CONT_PERSISTENT, a persistent continuation on a continuation request,
 * MPI_Start on a continuation request and freeing one with continuations
 * outstanding are refused with MPI_ERR_REQUEST through MPI_COMM_WORLD's
 * error handler, and every handle stays usable.  Unknown bits in flags, a
 * parameter check, go unnoticed: that is how the test knows the checks are
 * really off.
 */
#include "ompix_test.h"

static int ran;



static void count_cb(MPI_Status *st, void *data)
{
    (void)st;
    (void)data;
    ran++;
}

static void params_unchecked(MPI_Request cr)
{
    MPI_Request g = completed_grequest();

    ran = 0;
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, count_cb, NULL, 0x10, MPI_STATUS_IGNORE, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(1 == ran && 0 == err_handler_calls);
}

static void ring_cb(MPI_Status *st, void *data)
{
    int *in = data;
    CHECK(*in == left);
    CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 3);
    ran++;
}

/* Valid programs: a ring exchange, an immediate continuation and a
 * persistent one restarted a few times. */
static void valid(MPI_Request cr)
{
    MPI_Request reqs[2], g;
    MPI_Status sts[2];
    int in = -1, out = rank, self_in = -1;

    ran = 0;
    MPI_Irecv(&in, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&out, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &reqs[1]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, reqs, ring_cb, &in, 0, sts, cr));
    CHECK(MPI_REQUEST_NULL == reqs[0] && MPI_REQUEST_NULL == reqs[1]);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(1 == ran);

    g = completed_grequest();
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, count_cb, NULL, MPIX_CONT_IMMEDIATE,
                                       MPI_STATUS_IGNORE, cr));
    CHECK(2 == ran);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));

    MPI_Recv_init(&self_in, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &reqs[0]);
    MPI_Send_init(&out, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &reqs[1]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, reqs, count_cb, NULL, MPIX_CONT_PERSISTENT,
                                          MPI_STATUSES_IGNORE, cr));
    for (out = 0; out < 5; ++out) {
        MPI_Startall(2, reqs);
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(3 + out == ran && out == self_in);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    CHECK(0 == err_handler_calls);
}

static void state_rules(MPI_Request cr)
{
    MPI_Request g = grequest(), copy = g, ok = grequest(), pair[2], pr, cr2;
    int buf = 0;

    ran = 0;
    /* a request that already has a continuation, alone or in an array
     * (the valid one next to it is not taken over) */
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, count_cb, NULL, 0, MPI_STATUS_IGNORE, cr));
    CHECK_ERR(MPIX_Continue(&copy, count_cb, NULL, 0, MPI_STATUS_IGNORE, cr), MPI_ERR_REQUEST);
    pair[0] = ok;
    pair[1] = copy;
    CHECK_ERR(MPIX_Continueall(2, pair, count_cb, NULL, 0, MPI_STATUSES_IGNORE, cr),
              MPI_ERR_REQUEST);
    CHECK(ok == pair[0] && copy == pair[1]);

    /* an inactive persistent request without MPIX_CONT_PERSISTENT, then an
     * active one that already has a continuation */
    MPI_Recv_init(&buf, 1, MPI_INT, 0, 8, MPI_COMM_SELF, &pr);
    CHECK_ERR(MPIX_Continue(&pr, count_cb, NULL, 0, MPI_STATUS_IGNORE, cr), MPI_ERR_REQUEST);
    CHECK(MPI_SUCCESS == MPIX_Continue(&pr, count_cb, NULL, MPIX_CONT_PERSISTENT,
                                       MPI_STATUS_IGNORE, cr));
    MPI_Start(&pr);
    CHECK_ERR(MPIX_Continue(&pr, count_cb, NULL, MPIX_CONT_PERSISTENT, MPI_STATUS_IGNORE, cr),
              MPI_ERR_REQUEST);

    /* a persistent continuation on a continuation request */
    CHECK(MPI_SUCCESS == MPIX_Continue_init(MPI_INFO_NULL, &cr2));
    CHECK_ERR(MPIX_Continue(&cr2, count_cb, NULL, MPIX_CONT_PERSISTENT, MPI_STATUS_IGNORE, cr),
              MPI_ERR_REQUEST);
    /* MPI_Start refuses an idle continuation request; MPI_Startall
     * without parameter checks calls its start function, which reports
     * MPI_ERR_REQUEST to the handler, but Open MPI's MPI_Startall (4.1 and 5.0)
     * ignores what a start function returns, so its return code is not
     * checked here (test/continue/cont_errors.c checks it with checks on). */
    CHECK_ERR(MPI_Start(&cr2), MPI_ERR_REQUEST);
    {
        int before = err_handler_calls;
        MPI_Startall(1, &cr2);
        CHECK(err_handler_calls == before + 1 && MPI_ERR_REQUEST == err_handler_class);
    }

    /* continuation requests: never started by the user, not freed while
     * continuations are outstanding */
    CHECK_ERR(MPI_Start(&cr), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Request_free(&cr), MPI_ERR_REQUEST);
    CHECK(MPI_REQUEST_NULL != cr);

    /* everything above left the handles usable */
    MPI_Grequest_complete(copy);
    MPI_Send(&buf, 1, MPI_INT, 0, 8, MPI_COMM_SELF);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(2 == ran);
    MPI_Grequest_complete(ok);
    CHECK(MPI_SUCCESS == MPI_Wait(&ok, MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPI_Request_free(&pr));
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr2));
    CHECK(9 == err_handler_calls);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    MPI_Request cr;

    ompix_test_init(&argc, &argv);
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    CHECK(MPI_SUCCESS == MPIX_Continue_init(MPI_INFO_NULL, &cr));
    params_unchecked(cr);
    valid(cr);
    state_rules(cr);
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("cont_nocheck");
}
