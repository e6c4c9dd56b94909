/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120 mca="osc sm,pt2pt"
 *
 * notify_target.c on the generic path: osc/rdma2 is not in the osc list, so the
 * extension builds notified RMA from standard one-sided calls of osc sm
 * (allocate windows) and osc pt2pt (create and dynamic windows); every window
 * first gets MPIX_Win_set_num_notify (the generic path needs it before
 * target-notified operations).
 */
#define NOTIFY_GENERIC 1
#include "notify_target.c"
