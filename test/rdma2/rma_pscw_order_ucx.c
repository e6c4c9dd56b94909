/*
 * ompix-test: np=2,4 tls=tcp pml=ob1,ucx timeout=240 mca="osc rdma2,sm osc_rdma2_cma 0" intree="np=2" intree_why="CI time: 4 ranks run on the plugin build"
 *
 * rma_pscw_order with cross-memory attach off: over TCP the puts then go
 * through UCX, and complete's active message follows them after only a
 * worker fence (osc_rdma2_completion.c:mca_osc_rdma2_complete_all_ordered),
 * so the target's check right after MPI_Win_wait fails if UCX could deliver
 * the notification before the data.  TCP only: over shared memory with
 * CMA off, created windows with 4 ranks now and then see a 1 MiB put read
 * its origin buffer after MPI_Win_complete returned (already on main
 * before PSCW notifications became active messages, which shared memory
 * does not use; not yet understood), see test/rdma2/README.md.
 */
#include "rma_pscw_order.c"
