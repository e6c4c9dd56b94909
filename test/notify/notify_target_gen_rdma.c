/*
 * ompix-test: np=2,3 tls=shm pml=ob1,ucx timeout=120 mca="osc rdma,sm" ompi50="pml=ob1" ompi50_why="under pml ucx 5.0 serves these windows with osc ucx only, where a dynamic window can deadlock (README.md, version matrix: known defect)"
 *
 * notify_target.c on the generic path over stock osc rdma, which serves the
 * allocate, create and dynamic windows (osc sm, below it in priority, the
 * shared ones osc rdma refuses); without MPIX_Win_set_num_notify.
 * Shared memory only: osc rdma needs btl vader's RDMA (over TCP it
 * declines, and no component would serve the windows).  On Open MPI 5.0
 * under pml ucx osc rdma has no BTL at all, so test/run runs those cases
 * over osc ucx (SERIES_PML_MCA).
 */
#define NOTIFY_GENERIC 1
#include "notify_target.c"
