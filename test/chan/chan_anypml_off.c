/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=90 mca="pml_chan_enable 0"
 *
 * chan_anypml.c with pml/chan's engine off: every channel on the fallback.
 */
#include "chan_anypml.c"
