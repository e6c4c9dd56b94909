/*
 * ompix-test: np=2,3,4 tls=shm pml=ob1,ucx timeout=120
 *
 * persist_core with every message size forced through the binomial broadcast and recursive-doubling allreduce
 * (coll_persist_*_algorithm=1).
 */
#define PERSIST_FORCE_ALGORITHM "1"
#include "persist_core.c"
