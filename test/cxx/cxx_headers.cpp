/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * ompix's headers from C++ (issue 27): built with mpicxx, this program
 * links only if <mpi-ext.h> and every header it includes (continuations,
 * notified RMA, channels and their PMPIX_ profiling headers) declare the
 * functions with C linkage.  It also runs each API once, from C++ code: a
 * continuation with a lambda callback (MPIX_ and PMPIX_ entry points), a
 * put_notify taken at the target with waitsome + reset and a notification
 * request, and a ring of bound channels where the channel extension is
 * built (Open MPI 4.1; not on 5.0, see docs/ARCHITECTURE.md "Open MPI
 * series"): the channel part depends on its feature macro, as a user's code
 * would, but a 4.1 <mpi-ext.h> without it fails.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <vector>

#ifndef OMPI_HAVE_MPI_EXT_CONTINUE
#error "<mpi-ext.h> does not declare continuations"
#endif
#ifndef OMPI_HAVE_MPI_EXT_NOTIFY
#error "<mpi-ext.h> does not declare notified RMA"
#endif
#if !defined(OMPI_HAVE_MPI_EXT_CHAN) && OMPI_MAJOR_VERSION < 5
#error "<mpi-ext.h> does not declare channels, which ompix builds on Open MPI 4.1"
#endif

namespace {

/* A continuation on two self messages; the callback is a captureless
 * lambda converted to MPIX_Continue_cb_function *.  use_profile: register
 * through the PMPIX_ names. */
void continuation(bool use_profile)
{
    MPI_Request cont, ops[2];
    std::vector<MPI_Status> st(2);
    int sbuf = 17 + rank, rbuf = -1, ran = 0, flag = 0;
    MPIX_Continue_cb_function *cb = [](MPI_Status *, void *data) {
        ++*static_cast<int *>(data);
    };

    CHECK(MPI_SUCCESS == (use_profile ? PMPIX_Continue_init(MPI_INFO_NULL, &cont)
                                      : MPIX_Continue_init(MPI_INFO_NULL, &cont)));
    MPI_Irecv(&rbuf, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &ops[0]);
    MPI_Isend(&sbuf, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &ops[1]);
    CHECK(MPI_SUCCESS == (use_profile
                          ? PMPIX_Continueall(2, ops, cb, &ran, 0, st.data(), cont)
                          : MPIX_Continueall(2, ops, cb, &ran, 0, st.data(), cont)));
    CHECK(MPI_REQUEST_NULL == ops[0] && MPI_REQUEST_NULL == ops[1]);
    MPI_Wait(&cont, MPI_STATUS_IGNORE);
    CHECK(1 == ran && sbuf == rbuf && rank == st[0].MPI_SOURCE && 3 == st[0].MPI_TAG);
    /* MPIX_Continue on an already complete request. */
    MPI_Isend(&sbuf, 1, MPI_INT, rank, 4, MPI_COMM_WORLD, &ops[1]);
    MPI_Recv(&rbuf, 1, MPI_INT, rank, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(MPI_SUCCESS == MPIX_Continue(&ops[1], cb, &ran, 0, MPI_STATUS_IGNORE, cont));
    while (!flag) {
        MPI_Test(&cont, &flag, MPI_STATUS_IGNORE);
    }
    CHECK(2 == ran);
    MPI_Request_free(&cont);
}

/* Every rank put_notifies one int into its right neighbour's window, slot
 * 5; each takes its own slot 5 with waitsome + reset, then once more
 * through a notification request. */
void notified_put()
{
    int *base = nullptr, id = -1, val = 100 + rank;
    MPI_Count old = 0;
    MPI_Win win;
    MPI_Request nreq;
    MPI_Status st;

    MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    base[0] = base[1] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    CHECK(MPI_SUCCESS == MPIX_Put_notify(&val, 1, MPI_INT, right, 0, 1, MPI_INT, 5, win));
    MPI_Win_flush(right, win);
    CHECK(MPI_SUCCESS == MPIX_Win_notify_waitsome(win, 0, 8, MPIX_NOTIFY_BLOCK, &id));
    CHECK(5 == id);
    CHECK(MPI_SUCCESS == MPIX_Win_notify_reset(win, 5, &old));
    CHECK(1 == old && 100 + left == base[0]);
    /* No second put_notify before every slot was taken. */
    MPI_Barrier(MPI_COMM_WORLD);

    CHECK(MPI_SUCCESS == MPIX_Win_notify_init(win, 5, &nreq));
    MPI_Start(&nreq);
    CHECK(MPI_SUCCESS == MPIX_Put_notify(&val, 1, MPI_INT, right, 1, 1, MPI_INT, 5, win));
    MPI_Win_flush(right, win);
    MPI_Wait(&nreq, &st);
    CHECK(5 == st.MPI_TAG && 100 + left == base[1]);
    MPI_Request_free(&nreq);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
}

#ifdef OMPI_HAVE_MPI_EXT_CHAN
/* A ring of bound channels (send right, receive from left), bound together
 * so that a process bound to itself needs no second party. */
void channel_ring()
{
    int sbuf = 0, rbuf = -1;
    MPI_Request in[2], out[2];

    MPI_Recv_init(&rbuf, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &in[0]);
    MPI_Ssend_init(&sbuf, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &in[1]);
    CHECK(MPI_SUCCESS == MPIX_Bind_channels(2, in, out, nullptr));
    for (int r = 0; r < 10; ++r) {
        sbuf = 1000 * rank + r;
        MPI_Startall(2, out);
        MPI_Waitall(2, out, MPI_STATUSES_IGNORE);
        CHECK(1000 * left + r == rbuf);
    }
    CHECK(MPI_SUCCESS == MPIX_Unbind_channels(2, out));
    MPI_Request_free(&in[0]);
    MPI_Request_free(&in[1]);
}
#endif

} // namespace

int main(int argc, char **argv)
{
#ifdef OMPI_HAVE_MPI_EXT_CHAN
    ompix_chan_add_to_pml_list();
#endif
    ompix_test_init(&argc, &argv);
    continuation(false);
    continuation(true);
    notified_put();
#ifdef OMPI_HAVE_MPI_EXT_CHAN
    channel_ring();
#endif
    return ompix_test_finish("cxx_headers");
}
