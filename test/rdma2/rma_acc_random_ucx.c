/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=240 mca="osc rdma2,sm osc_rdma2_cma 0" intree="np=2" intree_why="CI time: 3 ranks run on the plugin build"
 *
 * rma_acc_random with cross-memory attach off: the data of created and
 * dynamic windows (over TCP also of allocated ones) goes through UCX, so
 * Raccumulate and Rget_accumulate run as state machines, with the random
 * datatypes of rma_acc_random: over shm with mapped lock words (a busy
 * lock is tried again from progress), over TCP with UCX compare-and-swap
 * answered by callback.  (With CMA on, same-node data is copied and these
 * requests complete before they return.)
 */
#include "rma_acc_random.c"
