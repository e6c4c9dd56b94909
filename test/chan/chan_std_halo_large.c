/*
 * ompix-test: np=2,3 tls=shm pml=ob1,ucx timeout=180 mca="pml_chan_large_min 4096"
 *
 * chan_std_halo.c with one size more, 8 KiB, on pml/chan's large path
 * (pml_chan_large_min 4096): the sender writes into the receiver's own
 * buffer, so a standard-mode send started before its receive must wait
 * for the receive's start, and then complete without the receiver.
 */
#define STD_HALO_COUNT 2048
#include "chan_std_halo.c"
