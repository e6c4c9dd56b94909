/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120 mca="osc sm,pt2pt" ompi50="pml=ob1" ompi50_why="under pml ucx 5.0 serves these windows with osc ucx only, where a dynamic window can deadlock (README.md, version matrix: known defect)"
 *
 * notify_draft.c on the generic path: osc/rdma2 is not in the osc list, so
 * the draft's calls run over osc sm (allocate and MPI_Win_allocate_shared
 * windows) and osc pt2pt (create and dynamic windows).
 */
#define NOTIFY_GENERIC 1
#define NOTIFY_SHARED 1
#include "notify_draft.c"
