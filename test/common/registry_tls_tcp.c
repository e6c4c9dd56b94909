/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1 timeout=60 mca="opal_common_ucx_tls tcp,self"
 *
 * registry.c with the user's UCX transport list set to transports this
 * machine has: osc/rdma2 honours the list and serves the windows.
 */
#define TEST_NAME "registry_tls_tcp"
#include "registry.c"
