/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1 timeout=60
 *
 * common/ompix's registry, as an MPI extension uses it: osc/rdma2
 * publishes its table when Open MPI opens the component, a lookup by name
 * and version finds it (another version or an unknown name finds
 * nothing), and its entry says which windows rdma2 serves (allocated
 * windows yes, shared windows, served by osc sm, no).  The lookup function
 * is found with dlsym, as it lives in libmca_common_ompix (plugin build)
 * or libmpi (in-tree build) and tests do not link either by name.
 * registry_off.c runs the same with rdma2 excluded: nothing is found;
 * registry_tls_*.c with the user's opal_common_ucx_tls set: rdma2 serves
 * windows only when a UCX transport matches the list.
 */
#include "ompix_test.h"

#include <dlfcn.h>
#include <stdint.h>

#include "../../ompi/mca/osc/rdma2/osc_rdma2_api.h"

#ifndef EXPECT_RDMA2
#define EXPECT_RDMA2 1          /* osc/rdma2 opened: its table is found */
#endif
#ifndef EXPECT_SERVES
#define EXPECT_SERVES EXPECT_RDMA2  /* it serves allocated windows */
#endif
#ifndef TEST_NAME
#define TEST_NAME "registry"
#endif

typedef const void *lookup_fn_t(const char *name, uint32_t version);

int main(int argc, char **argv)
{
    const mca_osc_rdma2_api_t *api = NULL;
    lookup_fn_t *lookup;
    MPI_Win win, shared;
    MPI_Comm node;
    void *base;

    MPI_Init(&argc, &argv);
    /* Components are open once MPI_Init returns. */
    *(void **) &lookup = dlsym(RTLD_DEFAULT, "mca_common_ompix_registry_lookup");
    if (EXPECT_RDMA2) {
        CHECK(NULL != lookup);
    }
    if (NULL != lookup) {
        api = lookup(MCA_OSC_RDMA2_API_NAME, MCA_OSC_RDMA2_API_VERSION);
        CHECK(NULL == lookup(MCA_OSC_RDMA2_API_NAME, MCA_OSC_RDMA2_API_VERSION + 1));
        CHECK(NULL == lookup("osc/none", MCA_OSC_RDMA2_API_VERSION));
    }
    CHECK(EXPECT_RDMA2 == (NULL != api));

    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, node, &base, &shared);
    if (NULL != api) {
        CHECK(EXPECT_SERVES == !!api->serves(win));
        CHECK(!api->serves(shared));
        CHECK(!api->serves(MPI_WIN_NULL));
    }
    MPI_Win_free(&shared);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    return ompix_test_finish(TEST_NAME);
}
