/*
 * ompix-test: np=1,2 tls=shm pml=ob1 timeout=90 mca="osc sm,pt2pt mpi_notify_generic_setup 0"
 *
 * notify_attr.c on the generic path with its setup at window creation off
 * (--mca mpi_notify_generic_setup 0): the attributes are set at creation
 * all the same.
 */
#define NOTIFY_GENERIC 1
#define NOTIFY_SHARED 1
#include "notify_attr.c"
