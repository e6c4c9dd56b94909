/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=90 mca="pml_chan_enable 0"
 *
 * chan_types.c on the generic fallback: pml/chan loaded with its engine off
 * (it still describes requests, which pml ucx needs).
 */
#include "chan_types.c"
