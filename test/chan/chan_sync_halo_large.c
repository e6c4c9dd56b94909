/*
 * ompix-test: np=2,3 tls=shm pml=ob1,ucx timeout=180 mca="pml_chan_large_min 4"
 *
 * chan_sync_halo.c with every receive on the large path (pml_chan_large_min
 * 4: the data straight into the receive buffer, which a synchronous send
 * may write only once its receive started, so it neither writes ahead nor
 * carries credits).
 */
#include "chan_sync_halo.c"
