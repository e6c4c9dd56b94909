/*
 * ompix-test: np=1,2,3 tls=shm,tcp pml=ob1 timeout=90 mca="osc sm,pt2pt"
 *
 * notify_consumed.c on the generic path: osc sm (allocate and shared
 * windows) and osc pt2pt (create and dynamic windows).
 */
#define NOTIFY_GENERIC 1
#define NOTIFY_SHARED 1
#include "notify_consumed.c"
