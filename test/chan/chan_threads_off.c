/*
 * ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=300 threads valgrind=no mca="pml_chan_enable 0"
 *
 * chan_threads.c on the generic fallback (pml/chan's engine off), 10 000
 * starts per thread (5 000 rounds of a send and a receive start): the
 * issue's measurement, 235 s or no progress at all before the fallback's
 * Wait drove progress itself under threads, and on 2 ranks still 45 s
 * (shm) or no end within 300 s (tcp) before that Wait yielded the
 * processor between sweeps (2-26 s since, 5 runs in a row).
 */
#define CHAN_THREADS_ROUNDS 5000
#include "chan_threads.c"
