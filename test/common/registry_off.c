/*
 * ompix-test: np=1,2 tls=shm pml=ob1 timeout=60 mca="osc ^rdma2"
 *
 * registry.c with osc/rdma2 excluded: Open MPI never opens it, so nothing
 * is published under its name and windows are served by the stock
 * components.
 */
#define EXPECT_RDMA2 0
#define TEST_NAME "registry_off"
#include "registry.c"
