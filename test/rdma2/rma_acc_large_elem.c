/*
 * ompix-test: np=2,4 tls=shm pml=ob1 timeout=300 mca="osc rdma2,sm osc_rdma2_acc_pass_bytes -1" intree="np=2" intree_why="CI time: 4 ranks run on the plugin build"
 *
 * rma_acc_large with locked passes off: element atomics at every size
 * (up to 64 KiB: a compare-and-swap loop per element is slow, more so under
 * valgrind).  rma_acc_large_pass.c turns them on from two elements.
 */
#define ACC_LARGE_MAX (1 << 16)
#include "rma_acc_large.c"
