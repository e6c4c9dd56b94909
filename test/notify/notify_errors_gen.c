/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=90 mca="osc sm,pt2pt"
 *
 * notify_errors.c on the generic path: osc/rdma2 is not in the osc list, so the
 * extension builds notified RMA from standard one-sided calls of osc sm
 * (allocate windows) and osc pt2pt (create and dynamic windows). No
 * MPIX_Win_set_num_notify: the window needs nothing before notified RMA.
 */
#define NOTIFY_GENERIC 1
#include "notify_errors.c"
