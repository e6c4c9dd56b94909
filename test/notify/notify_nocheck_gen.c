/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=90 mca="osc sm,pt2pt mpi_param_check 0"
 *
 * notify_nocheck.c on the generic path: osc sm (allocate and
 * MPI_Win_allocate_shared windows) and osc pt2pt (create and dynamic).
 */
#define NOTIFY_GENERIC 1
#define NOTIFY_SHARED 1
#include "notify_nocheck.c"
