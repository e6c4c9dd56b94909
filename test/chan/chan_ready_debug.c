/*
 * ompix-test: np=2 tls=shm pml=ob1,ucx timeout=60 mca="pml_chan_debug_ready 1"
 *
 * pml_chan_debug_ready 1: a ready channel's send (bound from MPI_Rsend_init)
 * started before its receive is reported as MPI_ERR_OTHER through the
 * error handler of the channel's communicator, and nothing is sent: the
 * receive started afterwards gets the next send's data, not the refused
 * one.  Shared memory only: over TCP the receiver's credit is a put that
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
    for (int r = 0; r < 3; ++r) {
        if (0 == rank) {
            buf = 1000 + r;                          /* must never arrive */
            CHECK_ERR(MPI_Start(&chan), MPI_ERR_OTHER);
            MPI_Barrier(MPI_COMM_WORLD);             /* receiver starts now */
            MPI_Barrier(MPI_COMM_WORLD);
            buf = r;
            CHECK(MPI_SUCCESS == MPI_Start(&chan));
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
    CHECK(0 == rank ? 3 == err_handler_calls : 0 == err_handler_calls);
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    MPI_Request_free(&req);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("chan_ready_debug");
}
