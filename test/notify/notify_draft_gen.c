/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1 timeout=120 mca="osc sm,pt2pt"
 *
 * notify_draft.c on the generic path: osc/rdma2 is not in the osc list, so
 * the draft's calls run over osc sm (allocate and MPI_Win_allocate_shared
 * windows) and osc pt2pt (create and dynamic windows).  pml ob1 only:
 * Open MPI 4.1's osc pt2pt under pml ucx deadlocks in the MPI_Win_flush
 * after an MPI_Get_accumulate toward a peer doing the same, without ompix
 * (a plain lock_all, Get_accumulate, flush program on a create window,
 * np=2, hangs the same way).
 */
#define NOTIFY_GENERIC 1
#define NOTIFY_SHARED 1
#include "notify_draft.c"
