/*
 * ompix-test: np=2,3 tls=shm pml=ob1,ucx timeout=120 mca="osc rdma,sm" ompi50="pml=ob1" ompi50_why="under pml ucx 5.0 has no osc rdma, and osc ucx completes an MPI_Rget request before its data is in place"
 *
 * notify_read.c on the generic path over stock osc rdma, which serves the
 * allocate, create and dynamic windows (osc sm, below it in priority, the
 * shared ones osc rdma refuses); without MPIX_Win_set_num_notify.
 * Shared memory only: osc rdma needs btl vader's RDMA (over TCP it
 * declines, and no component would serve the windows).  On Open MPI 5.0
 * under pml ucx osc rdma has no BTL at all, and osc ucx (what test/run's
 * SERIES_PML_MCA runs instead there) completes an MPI_Rget's request before
 * its data has landed (a plain MPI_Rget + MPI_Testany program without
 * ompix, 3 ranks over shm, reads stale bytes from completed requests), so
 * read notifications cannot be right over it: pml ob1 only on 5.0.
 */
#define NOTIFY_GENERIC 1
#include "notify_read.c"
