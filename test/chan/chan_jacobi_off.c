/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=120 mca="pml_chan_enable 0"
 *
 * chan_jacobi.c on the generic fallback (pml/chan's engine off).
 */
#include "chan_jacobi.c"
