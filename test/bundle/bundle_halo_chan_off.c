/*
 * ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=120 mca="pml_chan_enable 0"
 *
 * bundle_halo_chan.c on the channels' generic fallback (pml/chan's engine
 * off).
 */
#include "bundle_halo_chan.c"
