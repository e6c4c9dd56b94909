/*
 * ompix-test: np=2 tls=shm pml=ob1,ucx timeout=60 mca="pml_chan_enable 0"
 *
 * chan_wait.c on the generic fallback: pml/chan loaded with its engine off
 * (it still describes requests, which pml ucx needs).
 */
#include "chan_wait.c"
