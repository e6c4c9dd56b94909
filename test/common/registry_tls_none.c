/*
 * ompix-test: np=1,2 tls=shm pml=ob1 timeout=60 mca="opal_common_ucx_tls rc_verbs"
 *
 * registry.c with the user's UCX transport list naming only a transport
 * this machine lacks: osc/rdma2 opens (its table is found) but honours the
 * list, declines every window, and Open MPI's components serve them.
 */
#define EXPECT_SERVES 0
#define TEST_NAME "registry_tls_none"
#include "registry.c"
