/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=180 mca="pml_chan_enable 0"
 *
 * chan_std_halo.c on the generic fallback (pml/chan loaded, its engine
 * off): standard-mode channels whose sends start before their receives.
 */
#include "chan_std_halo.c"
