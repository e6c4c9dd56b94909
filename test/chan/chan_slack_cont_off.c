/*
 * ompix-test: np=2 tls=shm pml=ob1,ucx timeout=60 mca="pml_chan_enable 0"
 *
 * chan_slack_cont.c on the generic fallback.
 */
#include "chan_slack_cont.c"
