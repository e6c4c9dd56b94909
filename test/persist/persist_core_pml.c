/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120 mca="coll_persist_shm_max_bytes 0"
 *
 * persist_core with the shared-memory plans turned off
 * (coll_persist_shm_max_bytes=0): small barriers, broadcasts and
 * allreduces on one node go through point-to-point schedules, as they do
 * across nodes.
 */
#include "persist_core.c"
