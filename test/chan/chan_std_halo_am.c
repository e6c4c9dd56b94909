/*
 * ompix-test: np=2,3 tls=tcp pml=ob1,ucx timeout=180 mca="pml_chan_remote am"
 *
 * chan_std_halo.c on pml/chan's active-message path (pml_chan_remote am),
 * whose handler writes into the receiver's slot: standard-mode sends
 * started before their receives must wait for the slot's credit.
 */
#include "chan_std_halo.c"
