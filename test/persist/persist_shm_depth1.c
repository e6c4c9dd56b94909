/*
 * ompix-test: np=2,3,4 tls=shm pml=ob1 timeout=120
 *
 * persist_shm with a one-slot shared-memory broadcast
 * (coll_persist_shm_bcast_depth=1): the root waits for every rank to copy
 * out each start before it writes the next.
 */
#define PERSIST_SHM_DEPTH "1"
#include "persist_shm.c"
