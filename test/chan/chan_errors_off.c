/*
 * ompix-test: np=2 tls=shm pml=ob1,ucx timeout=90 mca="pml_chan_enable 0"
 *
 * chan_errors.c on the generic fallback: pml/chan loaded with its engine off
 * (it still describes requests, which pml ucx needs), with a slack of 2^24
 * (issue 28: it hung there; the engine maps slack x 64 bytes of ring, so
 * chan_errors.c stays at 2^16).
 */
#define CHAN_ERRORS_HUGE (1 << 24)
#include "chan_errors.c"
