/*
 * ompix-test: np=2,3 tls=tcp pml=ob1,ucx timeout=180 mca="pml_chan_remote am"
 *
 * chan_sync_halo.c on pml/chan's active-message path (pml_chan_remote
 * am): the same synchronous halos over TCP, each message, credit and
 * carried credit an active message.
 */
#include "chan_sync_halo.c"
