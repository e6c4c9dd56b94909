/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=180 threads mca="osc sm"
 *
 * notify_threads.c on the generic path: osc/rdma2 is not in the osc list, so the
 * extension builds notified RMA from standard one-sided calls of osc sm
 * (osc pt2pt refuses MPI_THREAD_MULTIPLE). No
 * MPIX_Win_set_num_notify: the window needs nothing before notified RMA.
 */
#define NOTIFY_GENERIC 1
#include "notify_threads.c"
