/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * Shared complete requests (issue 27): pml ucx 4.1 hands back one static,
 * already complete request (completed_send_req) for every send UCX
 * finished inline, so two MPI_Isend of 8 bytes to self return the same
 * handle; Open MPI returns ompi_request_empty for every MPI_PROC_NULL
 * operation.  Such requests may appear any number of times in one
 * MPIX_Continueall (and in several continuations) and count as complete;
 * they are not taken over (a later send gets the same object, still
 * complete) and never carry a continuation.  The same pending request
 * twice is still refused with MPI_ERR_REQUEST.  Lean path (two requests
 * inline, up to 16 pairwise, more sorted) and the general path (a started
 * persistent request among them; MPIX_CONT_PERSISTENT); ob1 runs the same
 * program with distinct requests.
 */
#include "ompix_test.h"

#include <string.h>

#define MANY 40

static int ran;

static void count_cb(MPI_Status *st, void *data)
{
    (void)st;
    (void)data;
    ran++;
}

/* n MPI_Isend of 8 bytes to self (tag), and their receives. */
static int self_sends(int n, int tag, MPI_Request sreq[], MPI_Request rreq[],
                      double sbuf[], double rbuf[])
{
    int shared = 0;

    for (int i = 0; i < n; ++i) {
        sbuf[i] = rank * 1000.0 + i;
        rbuf[i] = -1.0;
        MPI_Irecv(&rbuf[i], 1, MPI_DOUBLE, rank, tag, MPI_COMM_WORLD, &rreq[i]);
    }
    for (int i = 0; i < n; ++i) {
        MPI_Isend(&sbuf[i], 1, MPI_DOUBLE, rank, tag, MPI_COMM_WORLD, &sreq[i]);
        shared += i > 0 && sreq[i] == sreq[i - 1];
    }
    return shared;
}

static void check_data(int n, const double rbuf[])
{
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        bad += rbuf[i] != rank * 1000.0 + i;
    }
    CHECK(0 == bad);
}

/* The reproducer: two sends, one continuation, then their receives
 * in a second one (lean path, two requests inline). */
static int two_sends(MPI_Request cr)
{
    MPI_Request s[2], r[2], keep;
    MPI_Status st[2];
    double sbuf[2], rbuf[2];
    int shared = self_sends(2, 1, s, r, sbuf, rbuf);

    keep = s[0];
    ran = 0;
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, s, count_cb, NULL, 0, st, cr));
    CHECK(MPI_REQUEST_NULL == s[0] && MPI_REQUEST_NULL == s[1]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, count_cb, NULL, 0, st, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(2 == ran);
    check_data(2, rbuf);
    if (shared) {
        /* Handed out again, it is still complete (not taken over). */
        int flag = 0;
        MPI_Isend(sbuf, 1, MPI_DOUBLE, rank, 2, MPI_COMM_WORLD, &s[0]);
        if (s[0] == keep) {
            CHECK(MPI_SUCCESS == MPI_Request_get_status(s[0], &flag, MPI_STATUS_IGNORE));
            CHECK(flag);
        }
        MPI_Recv(rbuf, 1, MPI_DOUBLE, rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(MPI_SUCCESS == MPI_Wait(&s[0], MPI_STATUS_IGNORE));
    }
    return shared;
}

/* MANY sends (sorted duplicate check) in one continuation, MPIX_Continue
 * on each send of another batch (the shared object in many continuations),
 * then all receives. */
static int many_sends(MPI_Request cr, int flags)
{
    MPI_Request s[MANY], r[MANY];
    MPI_Status st[MANY];
    double sbuf[MANY], rbuf[MANY];
    int shared = self_sends(MANY, 3, s, r, sbuf, rbuf);

    ran = 0;
    CHECK(MPI_SUCCESS == MPIX_Continueall(MANY, s, count_cb, NULL, flags, st, cr));
    CHECK(MPI_SUCCESS == MPIX_Continueall(MANY, r, count_cb, NULL, flags, st, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(2 == ran);
    check_data(MANY, rbuf);

    shared += self_sends(8, 4, s, r, sbuf, rbuf);
    ran = 0;
    for (int i = 0; i < 8; ++i) {
        CHECK(MPI_SUCCESS == MPIX_Continue(&s[i], count_cb, NULL, flags, MPI_STATUS_IGNORE, cr));
    }
    CHECK(MPI_SUCCESS == MPIX_Continueall(8, r, count_cb, NULL, flags, MPI_STATUSES_IGNORE, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(9 == ran);
    check_data(8, rbuf);
    return shared;
}

/* General path: a started persistent receive among the shared sends. */
static int with_persistent(MPI_Request cr)
{
    MPI_Request s[3], r[2], all[4], pr;
    double sbuf[3], rbuf[3], pbuf = -1.0;
    int shared;

    MPI_Recv_init(&pbuf, 1, MPI_DOUBLE, rank, 6, MPI_COMM_WORLD, &pr);
    MPI_Start(&pr);
    shared = self_sends(2, 5, s, r, sbuf, rbuf);
    all[0] = s[0];
    all[1] = pr;
    all[2] = s[1];
    all[3] = s[0];      /* the shared object a third time (ob1: NULL) */
    if (all[3] != all[2]) {
        all[3] = MPI_REQUEST_NULL;
    }
    ran = 0;
    CHECK(MPI_SUCCESS == MPIX_Continueall(4, all, count_cb, NULL, 0, MPI_STATUSES_IGNORE, cr));
    sbuf[2] = 4242.0 + rank;
    MPI_Isend(&sbuf[2], 1, MPI_DOUBLE, rank, 6, MPI_COMM_WORLD, &s[2]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, r, count_cb, NULL, 0, MPI_STATUSES_IGNORE, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&s[2], MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(2 == ran && sbuf[2] == pbuf);
    check_data(2, rbuf);
    MPI_Request_free(&pr);
    return shared;
}

/* A pending receive twice, and twice among shared sends: refused, nothing
 * taken over; then ompi_request_empty (MPI_PROC_NULL) many times. */
static void real_duplicates(MPI_Request cr)
{
    MPI_Request r[MANY], s[2], p;
    double sbuf[2], rbuf[2], x = 0.0;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, counting_comm_errhandler());
    MPI_Irecv(&x, 1, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD, &p);
    r[0] = r[1] = p;
    CHECK_ERR(MPIX_Continueall(2, r, count_cb, NULL, 0, MPI_STATUSES_IGNORE, cr),
              MPI_ERR_REQUEST);
    self_sends(2, 8, s, r, sbuf, rbuf);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < MANY; ++i) {
        r[i] = s[i % 2];
    }
    r[5] = r[MANY - 3] = p;
    CHECK_ERR(MPIX_Continueall(MANY, r, count_cb, NULL, 0, MPI_STATUSES_IGNORE, cr),
              MPI_ERR_REQUEST);
    CHECK(p == r[5] && s[0] == r[0]);
    MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
    MPI_Send(&x, 1, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS == MPI_Wait(&p, MPI_STATUS_IGNORE));

    for (int i = 0; i < MANY; ++i) {
        MPI_Isend(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 9, MPI_COMM_WORLD, &r[i]);
    }
    ran = 0;
    CHECK(MPI_SUCCESS == MPIX_Continueall(MANY, r, count_cb, NULL, 0, MPI_STATUSES_IGNORE, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(1 == ran);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Request cr;
    const char *pml = getenv("OMPI_MCA_pml");
    int shared = 0;

    ompix_test_init(&argc, &argv);
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    for (int round = 0; round < 3; ++round) {
        shared += two_sends(cr);
        shared += many_sends(cr, 0);
        shared += many_sends(cr, MPIX_CONT_IMMEDIATE);
        shared += with_persistent(cr);
    }
    real_duplicates(cr);
    MPI_Request_free(&cr);
    /* Under pml ucx the case must have been exercised (8-byte sends to
     * self over UCX's self transport complete inline). */
    if (NULL != pml && 0 == strcmp(pml, "ucx")) {
        CHECK(shared > 0);
    }
    return ompix_test_finish("cont_shared");
}
