/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * The profiling interface, used the way a tool uses it: this program
 * defines its own MPIX_Continue_init, MPIX_Continue and MPIX_Continueall,
 * which count their calls and forward to PMPIX_.  Every call the program
 * makes reaches its wrapper exactly once, including calls made from inside
 * callbacks; ompix never calls the interceptable names itself (re-arming a
 * persistent continuation, MPIX_Continue's own work, error paths); results
 * are those of the plain calls; an error reaches the error handler once;
 * calling PMPIX_ directly bypasses the wrappers.
 */
#include "ompix_test.h"

static int n_init, n_cont, n_contall;

int MPIX_Continue_init(MPI_Info info, MPI_Request *cont_req)
{
    n_init++;
    return PMPIX_Continue_init(info, cont_req);
}

int MPIX_Continue(MPI_Request *op_request, MPIX_Continue_cb_function *cb, void *cb_data,
                  int flags, MPI_Status *status, MPI_Request cont_req)
{
    n_cont++;
    return PMPIX_Continue(op_request, cb, cb_data, flags, status, cont_req);
}

int MPIX_Continueall(int count, MPI_Request array_of_op_requests[],
                     MPIX_Continue_cb_function *cb, void *cb_data, int flags,
                     MPI_Status array_of_statuses[], MPI_Request cont_req)
{
    n_contall++;
    return PMPIX_Continueall(count, array_of_op_requests, cb, cb_data, flags,
                             array_of_statuses, cont_req);
}

/* The calls each wrapper has seen must be exactly the ones made since the
 * last expect(). */
static int seen_init, seen_cont, seen_contall;

#define EXPECT(init, cont, contall)                                           \
    do {                                                                      \
        CHECK(n_init - seen_init == (init));                                  \
        CHECK(n_cont - seen_cont == (cont));                                  \
        CHECK(n_contall - seen_contall == (contall));                         \
        seen_init = n_init;                                                   \
        seen_cont = n_cont;                                                   \
        seen_contall = n_contall;                                             \
    } while (0)

static int ran;

static void count_cb(MPI_Status *st, void *data)
{
    (void)st;
    (void)data;
    ran++;
}

/* Isend to the right, Irecv from the left: the callback sees the data and
 * both statuses. */
static void ring_cb(MPI_Status *st, void *data)
{
    int *in = data;
    CHECK(*in == left);
    CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 7);
    CHECK(MPI_SUCCESS == st[1].MPI_ERROR);
    ran++;
}

static void ring(MPI_Request cr)
{
    MPI_Request reqs[2];
    MPI_Status sts[2];
    int in = -1, out = rank;

    ran = 0;
    MPI_Irecv(&in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&out, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[1]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, reqs, ring_cb, &in, 0, sts, cr));
    CHECK(MPI_REQUEST_NULL == reqs[0] && MPI_REQUEST_NULL == reqs[1]);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(1 == ran);
    EXPECT(0, 0, 1);
}

/* A completed operation with MPIX_CONT_IMMEDIATE runs inside the call. */
static void immediate(MPI_Request cr)
{
    MPI_Request g = completed_grequest();
    MPI_Status st;

    ran = 0;
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, count_cb, NULL, MPIX_CONT_IMMEDIATE, &st, cr));
    CHECK(1 == ran);
    CHECK(42 == st.MPI_SOURCE && 43 == st.MPI_TAG);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    EXPECT(0, 1, 0);
}

/* Every MPI_Start re-arms a persistent continuation without going
 * through the interceptable names. */
static int persistent_in;

static void persistent_cb(MPI_Status *st, void *data)
{
    int *round = data;
    CHECK(persistent_in == *round);
    CHECK(0 == st[0].MPI_SOURCE && 5 == st[0].MPI_TAG);
    ran++;
}

static void persistent(MPI_Request cr)
{
    MPI_Request reqs[2];
    MPI_Status sts[2];
    int out = 0;

    ran = 0;
    MPI_Recv_init(&persistent_in, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &reqs[0]);
    MPI_Send_init(&out, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &reqs[1]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, reqs, persistent_cb, &out, MPIX_CONT_PERSISTENT,
                                          sts, cr));
    for (out = 1; out <= 10; ++out) {
        MPI_Startall(2, reqs);
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(out == ran);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    EXPECT(0, 0, 1);
}

/* Callbacks that register the next continuation: each registration made
 * from a callback is one call of the wrapper too. */
static MPI_Request chain_cr;

static void chain_cb(MPI_Status *st, void *data)
{
    (void)st;
    (void)data;
    if (++ran < 5) {
        MPI_Request g = completed_grequest();
        CHECK(MPI_SUCCESS == MPIX_Continue(&g, chain_cb, NULL, 0, MPI_STATUS_IGNORE, chain_cr));
    }
}

static void chain(MPI_Request cr)
{
    MPI_Request g = completed_grequest();

    ran = 0;
    chain_cr = cr;
    CHECK(MPI_SUCCESS == MPIX_Continue(&g, chain_cb, NULL, 0, MPI_STATUS_IGNORE, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(5 == ran);
    EXPECT(0, 5, 0);
}



/* A failing call is intercepted once and reported once. */
static void errors(MPI_Request cr)
{
    MPI_Request g = grequest();

    CHECK_CLASS(MPIX_Continue(&g, NULL, NULL, 0, MPI_STATUS_IGNORE, cr), MPI_ERR_ARG);
    CHECK(1 == err_handler_calls && MPI_ERR_ARG == err_handler_class);
    CHECK_CLASS(MPIX_Continueall(-1, &g, count_cb, NULL, 0, MPI_STATUSES_IGNORE, cr),
                MPI_ERR_COUNT);
    CHECK(2 == err_handler_calls && MPI_ERR_COUNT == err_handler_class);
    CHECK(MPI_REQUEST_NULL != g);
    EXPECT(0, 1, 1);
    MPI_Grequest_complete(g);
    MPI_Wait(&g, MPI_STATUS_IGNORE);
}

/* PMPIX_ is the library's own entry point: no wrapper sees it. */
static void direct(void)
{
    MPI_Request cr, g = completed_grequest();

    ran = 0;
    CHECK(MPI_SUCCESS == PMPIX_Continue_init(MPI_INFO_NULL, &cr));
    CHECK(MPI_SUCCESS == PMPIX_Continue(&g, count_cb, NULL, 0, MPI_STATUS_IGNORE, cr));
    g = completed_grequest();
    CHECK(MPI_SUCCESS == PMPIX_Continueall(1, &g, count_cb, NULL, 0, MPI_STATUSES_IGNORE, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(2 == ran);
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
    EXPECT(0, 0, 0);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    MPI_Request cr;

    ompix_test_init(&argc, &argv);
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);

    CHECK(MPI_SUCCESS == MPIX_Continue_init(MPI_INFO_NULL, &cr));
    EXPECT(1, 0, 0);
    ring(cr);
    immediate(cr);
    persistent(cr);
    chain(cr);
    errors(cr);
    direct();
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
    CHECK(2 == err_handler_calls);
    EXPECT(0, 0, 0);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("cont_profile");
}
