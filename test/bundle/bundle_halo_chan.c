/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=120
 *
 * bundle_halo.c with every point-to-point member bound into a channel
 * (synchronous channels, as a halo needs: a neighbour may start its send
 * before this rank starts its receive), on pml/chan's engine.
 */
#define BUNDLE_CHANNELS 1
#include "bundle_halo.c"
