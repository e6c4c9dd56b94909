/*
 * ompix-test: np=2 tls=shm pml=ob1,ucx timeout=60 mca="pml_chan_debug_ready 1"
 *
 * A start that fails inside the engine's channel (a ready send before its
 * receive, pml_chan_debug_ready 1: MPI_ERR_OTHER) is reported exactly once
 * through the channel's communicator by MPI_Start and by an MPI_Startall
 * of that one request (on Open MPI 5.0 it was lost: a start of count 1
 * was taken for MPI_Start, whose report there is 5.0's own).
 * MPI_Startall's return is not checked: Open MPI's drops what the start
 * returns in both series.  Nothing is sent: the receive started afterwards
 * gets the next send's data.  The engine must be on (chan_ready_debug.c
 * says why shared memory only).
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <dlfcn.h>
#include <stdint.h>

#include "../../ompi/mca/pml/chan/pml_chan_api.h"

typedef const void *once_lookup_fn_t(const char *name, uint32_t version);

static int once_engine_on(void)
{
    once_lookup_fn_t *lookup;
    const mca_pml_chan_api_t *api;

    *(void **) &lookup = dlsym(RTLD_DEFAULT, "mca_common_ompix_registry_lookup");
    if (NULL == lookup) {
        return 0;
    }
    api = lookup(MCA_PML_CHAN_API_NAME, MCA_PML_CHAN_API_VERSION);
    return NULL != api && NULL != api->prepare;
}

/* Rank 0's early start: by MPI_Start (all = 0) or MPI_Startall of it. */
static void once_early(MPI_Request *chan, int all)
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
    CHECK(once_engine_on());
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
            once_early(&chan, r % 2);
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
    return ompix_test_finish("chan_ready_debug_once");
}
