/*
 * ompix-test: np=2,4 tls=tcp pml=ob1,ucx timeout=240 mca="osc rdma2,sm osc_rdma2_cma 0" intree="np=2" intree_why="CI time: 4 ranks run on the plugin build"
 *
 * rma_pscw_order with cross-memory attach off: over TCP the puts then go
 * through UCX, and complete's active message follows them after only a
 * worker fence (osc_rdma2_completion.c:mca_osc_rdma2_complete_all_ordered),
 * so the target's check right after MPI_Win_wait fails if UCX could deliver
 * the notification before the data.  Shared memory with CMA off is
 * rma_pscw_order_shm.
 */
#include "rma_pscw_order.c"
