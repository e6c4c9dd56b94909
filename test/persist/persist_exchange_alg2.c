/*
 * ompix-test: np=2,3,4 tls=shm pml=ob1,ucx timeout=120
 *
 * persist_exchange with every size through the ring allgather and the
 * pairwise alltoall (coll_persist_{allgather,alltoall}_algorithm=2).
 */
#define PERSIST_FORCE_ALGORITHM "2"
#include "persist_exchange.c"
