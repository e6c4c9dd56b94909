/*
 * ompix-test: np=2,4 tls=shm pml=ob1 timeout=240 mca="osc rdma2,sm osc_rdma2_cma 0"
 *
 * rma_pscw_order over shared memory with cross-memory attach off: the
 * puts into created windows (user memory, not mapped) then go through
 * UCX, which emulates them with active-message fragments.  With 4 ranks
 * each origin's 1 MiB puts to three targets fill the shared memory FIFOs,
 * so a put can still wait, unsent, in an endpoint's pending queue when
 * every fragment sent so far was acknowledged; UCX 1.13's worker flush
 * (ucp_worker_flush_nbx) then returns done at once, and a complete that
 * relied on it let the put read its origin buffer after MPI_Win_complete
 * returned (the target saw the bytes the origin wrote after it; 6 runs in
 * 10 before osc_rdma2_completion.c:mca_osc_rdma2_complete_eps).
 */
#include "rma_pscw_order.c"
