/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60 mca="pml_chan_enable 0"
 *
 * chan_slack_cont_parked.c on the generic fallback (pml/chan's engine off).
 */
#include "chan_slack_cont_parked.c"
