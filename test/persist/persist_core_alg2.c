/*
 * ompix-test: np=2,3,4 tls=shm pml=ob1,ucx timeout=120
 *
 * persist_core with every message size forced through the scatter-allgather broadcast and ring allreduce
 * (coll_persist_*_algorithm=2).
 */
#define PERSIST_FORCE_ALGORITHM "2"
#include "persist_core.c"
