/*
 * ompix-test: np=2 tls=shm pml=ob1,ucx timeout=60
 *
 * chan_slack_cont.c with the continue extension's wrappers installed
 * before the channel extension's.
 */
#define CONT_FIRST 1
#include "chan_slack_cont.c"
