/*
 * ompix-test: np=1,2 tls=shm pml=ob1,ucx timeout=90 mca="pml_chan_enable 0"
 *
 * chan_procnull.c on the generic fallback (pml/chan's engine off).
 */
#include "chan_procnull.c"
