/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120 mca="osc sm,pt2pt" ompi50="pml=ob1" ompi50_why="under pml ucx 5.0 serves these windows with osc ucx only, where a dynamic window can deadlock (README.md, version matrix: known defect)"
 *
 * notify_target.c on the generic path: osc/rdma2 is not in the osc list, so the
 * extension builds notified RMA from standard one-sided calls of osc sm
 * (allocate and MPI_Win_allocate_shared windows) and osc pt2pt (create and
 * dynamic windows). No
 * MPIX_Win_set_num_notify: the window needs nothing before notified RMA.
 */
#define NOTIFY_GENERIC 1
#define NOTIFY_SHARED 1
#include "notify_target.c"
