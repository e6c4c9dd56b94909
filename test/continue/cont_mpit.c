/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * MPI_T performance variables continue_registered and continue_run: found
 * by name after the first MPIX_Continue_init as read-only continuous
 * counters of unsigned long long bound to no object; a handle counts
 * exactly the work done while it exists: 100 MPIX_Continue on a ring
 * (+100, +100 after the wait), 20 on requests complete at registration
 * with MPIX_CONT_IMMEDIATE (run inside the call: +20, +20 before any
 * wait), 10 MPIX_Continueall of two requests (+10, +10), a persistent
 * continuation started 5 times (+1, +5), a continuation still pending
 * (+1, +0) until its message arrives (+0, +1).  Failed registrations add
 * nothing; a second handle allocated later starts from 0.
 */
#include "ompix_test.h"
#include "ompix_mpit.h"

static MPI_T_pvar_session session;
static int ran;

static void count_cb(MPI_Status *st, void *data)
{
    (void) st;
    (void) data;
    ran++;
}

static MPI_T_pvar_handle handle_of(const char *name)
{
    MPI_T_pvar_handle h = ompix_mpit_pvar_counter(session, name);

    CHECK(MPI_T_PVAR_HANDLE_NULL != h);
    return h;
}

static unsigned long long readh(MPI_T_pvar_handle h)
{
    return ompix_mpit_pvar_value(session, h);
}

/* 50 rounds of one receive from the left and one send to the right, a
 * continuation on each. */
static void ring(MPI_Request cr, int left, int right)
{
    int sbuf = 1, rbuf[50];

    for (int i = 0; i < 50; ++i) {
        MPI_Request r, s;

        CHECK(MPI_SUCCESS == MPI_Irecv(&rbuf[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &r));
        CHECK(MPI_SUCCESS == MPIX_Continue(&r, count_cb, NULL, 0, MPI_STATUS_IGNORE, cr));
        CHECK(MPI_SUCCESS == MPI_Isend(&sbuf, 1, MPI_INT, right, i, MPI_COMM_WORLD, &s));
        CHECK(MPI_SUCCESS == MPIX_Continue(&s, count_cb, NULL, 0, MPI_STATUS_IGNORE, cr));
    }
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
}

/* Requests complete at registration, run inside MPIX_Continue. */
static void inline_runs(MPI_Request cr)
{
    int x = 0;

    for (int i = 0; i < 20; ++i) {
        MPI_Request s;

        CHECK(MPI_SUCCESS == MPI_Isend(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &s));
        CHECK(MPI_SUCCESS == MPIX_Continue(&s, count_cb, NULL, MPIX_CONT_IMMEDIATE,
                                           MPI_STATUS_IGNORE, cr));
    }
}

static void pairs(MPI_Request cr, int left, int right)
{
    int sbuf = 2, rbuf;

    for (int i = 0; i < 10; ++i) {
        MPI_Request rs[2];

        CHECK(MPI_SUCCESS == MPI_Irecv(&rbuf, 1, MPI_INT, left, 100, MPI_COMM_WORLD, &rs[0]));
        CHECK(MPI_SUCCESS == MPI_Isend(&sbuf, 1, MPI_INT, right, 100, MPI_COMM_WORLD, &rs[1]));
        CHECK(MPI_SUCCESS == MPIX_Continueall(2, rs, count_cb, NULL, 0, MPI_STATUSES_IGNORE,
                                              cr));
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    }
}

static void persistent(MPI_Request cr, int left, int right)
{
    int sbuf = 3, rbuf;
    MPI_Request pr[2];

    CHECK(MPI_SUCCESS == MPI_Recv_init(&rbuf, 1, MPI_INT, left, 200, MPI_COMM_WORLD, &pr[0]));
    CHECK(MPI_SUCCESS == MPI_Send_init(&sbuf, 1, MPI_INT, right, 200, MPI_COMM_WORLD, &pr[1]));
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, pr, count_cb, NULL, MPIX_CONT_PERSISTENT,
                                          MPI_STATUSES_IGNORE, cr));
    for (int i = 0; i < 5; ++i) {
        CHECK(MPI_SUCCESS == MPI_Startall(2, pr));
        CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        CHECK(MPI_SUCCESS == MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&pr[0]));
    CHECK(MPI_SUCCESS == MPI_Request_free(&pr[1]));
}

static void expect(MPI_T_pvar_handle reg, MPI_T_pvar_handle run, unsigned long long r,
                   unsigned long long n)
{
    CHECK(ompix_mpit_pvar_expect(session, reg, "mpi_continue_registered", r));
    CHECK(ompix_mpit_pvar_expect(session, run, "mpi_continue_run", n));
}

int main(int argc, char **argv)
{
    MPI_T_pvar_handle reg, run, reg2;
    MPI_Request cr, r, bad = MPI_REQUEST_NULL;
    int provided, x = 0, y = 0;

    ompix_test_init(&argc, &argv);    /* sets left and right */
    CHECK(MPI_SUCCESS == MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK(MPI_SUCCESS == MPIX_Continue_init(MPI_INFO_NULL, &cr));
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_create(&session));
    reg = handle_of("mpi_continue_registered");
    run = handle_of("mpi_continue_run");
    expect(reg, run, 0, 0);

    ring(cr, left, right);
    CHECK(100 == ran);
    expect(reg, run, 100, 100);
    inline_runs(cr);
    CHECK(120 == ran);
    expect(reg, run, 120, 120);
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    pairs(cr, left, right);
    expect(reg, run, 130, 130);

    reg2 = handle_of("mpi_continue_registered");
    persistent(cr, left, right);
    expect(reg, run, 131, 135);
    CHECK(1 == readh(reg2));

    /* Refused: nothing counted. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_SUCCESS != MPIX_Continue(&bad, NULL, NULL, 0, MPI_STATUS_IGNORE, cr));
    expect(reg, run, 131, 135);

    /* Pending until the message arrives. */
    CHECK(MPI_SUCCESS == MPI_Irecv(&y, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &r));
    CHECK(MPI_SUCCESS == MPIX_Continue(&r, count_cb, NULL, 0, MPI_STATUS_IGNORE, cr));
    expect(reg, run, 132, 135);
    CHECK(MPI_SUCCESS == MPI_Send(&x, 1, MPI_INT, right, 7, MPI_COMM_WORLD));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    expect(reg, run, 132, 136);
    CHECK(2 == readh(reg2));

    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &reg2));
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &run));
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &reg));
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_free(&session));
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
    CHECK(MPI_SUCCESS == MPI_T_finalize());
    return ompix_test_finish("cont_mpit");
}
