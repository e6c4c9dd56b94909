/*
 * ompix-test: np=2,4 tls=shm pml=ob1 timeout=300 mca="osc rdma2,sm osc_rdma2_acc_pass_bytes 0" intree="np=2" intree_why="CI time: 4 ranks run on the plugin build"
 *
 * rma_acc_large with a locked pass for every accumulate of two elements
 * or more: the small accumulates of the concurrent phase are passes too,
 * racing Fetch_and_op's element atomics.
 */
#include "rma_acc_large.c"
