/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=90
 *
 * Every error of bundles and persistent generalized requests through a
 * counting error handler on MPI_COMM_WORLD, nothing taken or broken
 * afterwards: negative and NULL sizes, NULL arrays and handles (MPI_ERR_ARG);
 * MPI_REQUEST_NULL, a non-persistent, an active, a bundled and a twice
 * listed member (MPI_ERR_REQUEST, no member taken); MPI_Start,
 * MPI_Startall, MPI_Request_free and MPI_Cancel of a bundled member;
 * MPI_Cancel of a bundle; MPI_Start of an active bundle; failing members
 * (the first failure in the status, later rounds still run, the bundle
 * usable again); start_fn and poll_fn errors; freeing an active bundle
 * (released at completion, its members given back).
 */
#include "ompix_test.h"

#include <string.h>

typedef struct {
    int starts, polls, fail, block, freed;
} gstate_t;

static int g_start(void *extra)
{
    gstate_t *g = extra;

    g->starts++;
    return g->fail < 0 ? MPI_ERR_PENDING : MPI_SUCCESS;
}

static int g_poll(void *extra, int *completed)
{
    gstate_t *g = extra;

    g->polls++;
    if (g->block) {
        return MPI_SUCCESS;
    }
    *completed = 1;
    return g->fail > 0 ? g->fail : MPI_SUCCESS;
}

static int g_free(void *extra)
{
    ((gstate_t *) extra)->freed++;
    return MPI_SUCCESS;
}

static MPI_Request gnew(gstate_t *g)
{
    MPI_Request r;

    memset(g, 0, sizeof(*g));
    CHECK(MPI_SUCCESS == MPIX_Grequest_persistent_init(g_start, g_poll, g_free, g, &r));
    return r;
}

static void arg_errors(void)
{
    int one = 1, neg = -1, buf = 0;
    MPI_Request m, b = MPI_REQUEST_NULL;

    MPI_Recv_init(&buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m);
    CHECK_ERR(MPIX_Bundle_init(-1, &one, &m, MPI_INFO_NULL, &b), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Bundle_init(1, NULL, &m, MPI_INFO_NULL, &b), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Bundle_init(1, &neg, &m, MPI_INFO_NULL, &b), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Bundle_init(1, &one, NULL, MPI_INFO_NULL, &b), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Bundle_init(1, &one, &m, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    CHECK(MPI_REQUEST_NULL == b);
    CHECK_ERR(MPIX_Grequest_persistent_init(g_start, NULL, g_free, NULL, &b), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Grequest_persistent_init(g_start, g_poll, g_free, NULL, NULL), MPI_ERR_ARG);
    /* Zero rounds, and empty rounds: complete as started. */
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(0, NULL, NULL, MPI_INFO_NULL, &b));
    CHECK(MPI_SUCCESS == MPI_Start(&b) && MPI_SUCCESS == MPI_Wait(&b, MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    one = 0;
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(1, &one, NULL, MPI_INFO_NULL, &b));
    CHECK(MPI_SUCCESS == MPI_Start(&b) && MPI_SUCCESS == MPI_Wait(&b, MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    /* m was never taken: it starts on its own. */
    CHECK(MPI_SUCCESS == MPI_Start(&m) && MPI_SUCCESS == MPI_Wait(&m, MPI_STATUS_IGNORE));
    MPI_Request_free(&m);
}

static void member_errors(void)
{
    int two = 2, one = 1, buf = 0, sbuf = 5;
    gstate_t gs;
    MPI_Request m[2], b, b2, nb;

    m[0] = MPI_REQUEST_NULL;
    m[1] = gnew(&gs);
    CHECK_ERR(MPIX_Bundle_init(1, &two, m, MPI_INFO_NULL, &b), MPI_ERR_REQUEST);
    /* not persistent */
    MPI_Irecv(&buf, 1, MPI_INT, 0, 77, MPI_COMM_SELF, &m[0]);
    CHECK_ERR(MPIX_Bundle_init(1, &two, m, MPI_INFO_NULL, &b), MPI_ERR_REQUEST);
    MPI_Send(&sbuf, 1, MPI_INT, 0, 77, MPI_COMM_SELF);
    MPI_Wait(&m[0], MPI_STATUS_IGNORE);
    CHECK(5 == buf);
    /* listed twice; then active */
    m[0] = m[1];
    CHECK_ERR(MPIX_Bundle_init(1, &two, m, MPI_INFO_NULL, &b), MPI_ERR_REQUEST);
    gs.block = 1;
    CHECK(MPI_SUCCESS == MPI_Start(&m[1]));
    CHECK_ERR(MPIX_Bundle_init(1, &one, &m[1], MPI_INFO_NULL, &b), MPI_ERR_REQUEST);
    gs.block = 0;
    CHECK(MPI_SUCCESS == MPI_Wait(&m[1], MPI_STATUS_IGNORE));
    /* bundled: refused directly and by a second bundle */
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(1, &one, &m[1], MPI_INFO_NULL, &b));
    CHECK_ERR(MPIX_Bundle_init(1, &one, &m[1], MPI_INFO_NULL, &b2), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Start(&m[1]), MPI_ERR_REQUEST);
    {
        int before = err_handler_calls;

        MPI_Startall(1, &m[1]);                 /* Open MPI's Startall drops the code */
        CHECK(err_handler_calls == before + 1 && MPI_ERR_REQUEST == err_handler_class);
    }
    CHECK_ERR(MPI_Request_free(&m[1]), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Cancel(&m[1]), MPI_ERR_REQUEST);
    CHECK(MPI_REQUEST_NULL != m[1] && 1 == gs.starts && 0 == gs.freed);
    CHECK_ERR(MPI_Cancel(&b), MPI_ERR_REQUEST);
    /* a bundle in a bundle is bundled too */
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(1, &one, &b, MPI_INFO_NULL, &nb));
    CHECK_ERR(MPI_Start(&b), MPI_ERR_REQUEST);
    CHECK(MPI_SUCCESS == MPI_Start(&nb) && MPI_SUCCESS == MPI_Wait(&nb, MPI_STATUS_IGNORE));
    CHECK(2 == gs.starts);
    CHECK(MPI_SUCCESS == MPI_Request_free(&nb));
    /* MPI_Start of an active bundle */
    gs.block = 1;
    CHECK(MPI_SUCCESS == MPI_Start(&b));
    CHECK_ERR(MPI_Start(&b), MPI_ERR_REQUEST);
    gs.block = 0;
    CHECK(MPI_SUCCESS == MPI_Wait(&b, MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    /* given back */
    CHECK(MPI_SUCCESS == MPI_Start(&m[1]) && MPI_SUCCESS == MPI_Wait(&m[1], MPI_STATUS_IGNORE));
    CHECK(4 == gs.starts);
    CHECK(MPI_SUCCESS == MPI_Request_free(&m[1]));
    CHECK(1 == gs.freed);
}

/* Round 0 fine, round 1 two failures, round 2 fine: the first failure in
 * the status, later rounds ran.  A Wait/Test that reports it frees the
 * bundle (Open MPI frees any persistent request then): its handle is
 * MPI_REQUEST_NULL and its members are given back.  Waitall reports it in
 * the status only and keeps the bundle, usable again. */
static void failing_members(void)
{
    gstate_t gs[4];
    MPI_Request m[4], b;
    MPI_Status st;
    int sizes[3] = {1, 2, 1}, flag = 0;

    for (int i = 0; i < 4; ++i) {
        m[i] = gnew(&gs[i]);
    }
    gs[1].fail = MPI_ERR_OTHER;
    gs[2].fail = MPI_ERR_TAG;
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(3, sizes, m, MPI_INFO_NULL, &b));
    CHECK(MPI_SUCCESS == MPI_Start(&b));
    CHECK_ERR(MPI_Wait(&b, MPI_STATUS_IGNORE), MPI_ERR_OTHER);
    CHECK(MPI_REQUEST_NULL == b && 1 == gs[3].starts);
    CHECK(MPI_SUCCESS == MPI_Start(&m[3]) && MPI_SUCCESS == MPI_Wait(&m[3], MPI_STATUS_IGNORE));
    /* Waitall: MPI_ERROR set (Open MPI 4.1's returns MPI_SUCCESS for a
     * persistent request, whatever its status says) */
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(3, sizes, m, MPI_INFO_NULL, &b));
    CHECK(MPI_SUCCESS == MPI_Start(&b));
    st.MPI_ERROR = MPI_SUCCESS;
    {
        int rc = err_class(MPI_Waitall(1, &b, &st));

        CHECK(MPI_SUCCESS == rc || MPI_ERR_IN_STATUS == rc);
    }
    CHECK(MPI_ERR_OTHER == err_class(st.MPI_ERROR) && 3 == gs[3].starts);
    CHECK(MPI_REQUEST_NULL != b);
    gs[1].fail = gs[2].fail = 0;
    st.MPI_ERROR = -1;
    CHECK(MPI_SUCCESS == MPI_Start(&b) && MPI_SUCCESS == MPI_Waitall(1, &b, &st));
    CHECK(MPI_SUCCESS == st.MPI_ERROR && 4 == gs[3].starts);
    /* start_fn failing */
    gs[0].fail = -1;
    CHECK(MPI_SUCCESS == MPI_Start(&b));
    CHECK_ERR(MPI_Test(&b, &flag, MPI_STATUS_IGNORE), MPI_ERR_PENDING);
    CHECK(flag && MPI_REQUEST_NULL == b && 0 == gs[0].freed);
    /* alone: the Wait that reports it frees it (free_fn runs) */
    CHECK(MPI_SUCCESS == MPI_Start(&m[0]));
    CHECK_ERR(MPI_Wait(&m[0], MPI_STATUS_IGNORE), MPI_ERR_PENDING);
    CHECK(MPI_REQUEST_NULL == m[0] && 1 == gs[0].freed);
    for (int i = 1; i < 4; ++i) {
        CHECK(MPI_SUCCESS == MPI_Request_free(&m[i]));
        CHECK(1 == gs[i].freed);
    }
}

/* n calls of opal_progress: MPI_Test of a receive that never matches. */
static void progress(int n)
{
    MPI_Request r;
    int buf, flag;

    MPI_Irecv(&buf, 1, MPI_INT, 0, 9999, MPI_COMM_SELF, &r);
    for (int i = 0; i < n; ++i) {
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* Freed while active: released at completion, members given back. */
static void free_active(void)
{
    gstate_t gs;
    MPI_Request m = gnew(&gs), b;
    int one = 1;

    CHECK(MPI_SUCCESS == MPIX_Bundle_init(1, &one, &m, MPI_INFO_NULL, &b));
    gs.block = 1;
    CHECK(MPI_SUCCESS == MPI_Start(&b));
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    CHECK(MPI_REQUEST_NULL == b);
    gs.block = 0;
    progress(10);                       /* done in the second sweep */
    CHECK(MPI_SUCCESS == MPI_Start(&m) && MPI_SUCCESS == MPI_Wait(&m, MPI_STATUS_IGNORE));
    CHECK(MPI_SUCCESS == MPI_Request_free(&m));
    CHECK(1 == gs.freed);
    /* A generalized request freed while active: free_fn at completion. */
    m = gnew(&gs);
    gs.block = 1;
    CHECK(MPI_SUCCESS == MPI_Start(&m));
    CHECK(MPI_SUCCESS == MPI_Request_free(&m));
    CHECK(0 == gs.freed);
    gs.block = 0;
    progress(10);
    CHECK(1 == gs.freed);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;

    ompix_test_init(&argc, &argv);
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);
    arg_errors();
    member_errors();
    failing_members();
    free_active();
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("bundle_errors");
}
