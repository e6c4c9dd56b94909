/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60 mca="mpi_param_check 0 pml_chan_enable 0"
 *
 * chan_start_once.c on the generic fallback (pml/chan's engine off).
 */
#include "chan_start_once.c"
