/*
 * ompix-test: np=2,3,4 tls=shm pml=ob1,ucx timeout=120
 *
 * persist_exchange with every size through Bruck's allgather and alltoall
 * (coll_persist_{allgather,alltoall}_algorithm=1).
 */
#define PERSIST_FORCE_ALGORITHM "1"
#include "persist_exchange.c"
