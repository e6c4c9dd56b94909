/*
 * ompix-test: np=2 tls=shm pml=ob1,ucx timeout=60 mca="pml_chan_debug_ready 1"
 *
 * pml_chan_debug_ready 1: a ready channel's send (bound from MPI_Rsend_init)
 * started before its receive is reported as MPI_ERR_OTHER through the
 * error handler of the channel's communicator, and nothing is sent: the
 * receive started afterwards gets the next send's data, not the refused
 * one.  Reported exactly once, by MPI_Start and by an MPI_Startall of
 * that one request (on Open MPI 5.0 the latter was lost: a start of count
 * 1 was taken for MPI_Start, whose report is 5.0's own there; Open MPI's
 * MPI_Startall drops what the start returns in both series, so its return
 * is not checked).  Shared memory only: over TCP the receiver's credit is a put that
 * the sender may see late, so the check is approximate there.  The engine
 * must be on: the fallback has no such check.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <dlfcn.h>
#include <stdint.h>

#include "../../ompi/mca/pml/chan/pml_chan_api.h"

typedef const void *ready_lookup_fn_t(const char *name, uint32_t version);

static int ready_engine_on(void)
{
    ready_lookup_fn_t *lookup;
    const mca_pml_chan_api_t *api;

    *(void **) &lookup = dlsym(RTLD_DEFAULT, "mca_common_ompix_registry_lookup");
    if (NULL == lookup) {
        return 0;
    }
    api = lookup(MCA_PML_CHAN_API_NAME, MCA_PML_CHAN_API_VERSION);
    return NULL != api && NULL != api->prepare;
}

/* Rank 0's early start: by MPI_Start (all = 0) or MPI_Startall of it. */
static void ready_early(MPI_Request *chan, int all)
{
    int before = err_handler_calls;

    if (!all) {
        CHECK_ERR(MPI_Start(chan), MPI_ERR_OTHER);
        return;
    }
    (void) MPI_Startall(1, chan);
    CHECK(err_handler_calls == before + 1 && err_handler_class == MPI_ERR_OTHER);
}

int main(int argc, char **argv)
{
    int buf = -1;
    MPI_Request req, chan;
    MPI_Status st;
    MPI_Errhandler eh;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    CHECK(ready_engine_on());
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    if (0 == rank) {
        MPI_Rsend_init(&buf, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(&buf, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
    for (int r = 0; r < 4; ++r) {
        if (0 == rank) {
            buf = 1000 + r;                          /* must never arrive */
            ready_early(&chan, r % 2);
            MPI_Barrier(MPI_COMM_WORLD);             /* receiver starts now */
            MPI_Barrier(MPI_COMM_WORLD);
            buf = r;
            CHECK(MPI_SUCCESS == MPI_Startall(1, &chan));
            CHECK(MPI_SUCCESS == MPI_Wait(&chan, MPI_STATUS_IGNORE));
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            buf = -1;
            CHECK(MPI_SUCCESS == MPI_Start(&chan));
            MPI_Barrier(MPI_COMM_WORLD);
            CHECK(MPI_SUCCESS == MPI_Wait(&chan, &st));
            CHECK(r == buf && 0 == st.MPI_SOURCE && 3 == st.MPI_TAG);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    CHECK(0 == rank ? 4 == err_handler_calls : 0 == err_handler_calls);
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    MPI_Request_free(&req);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("chan_ready_debug");
}
