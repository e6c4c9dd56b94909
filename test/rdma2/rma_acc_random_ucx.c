/*
 * ompix-test: np=2,3 tls=shm pml=ob1 timeout=240 mca="osc rdma2,sm osc_rdma2_cma 0" intree="np=2" intree_why="CI time: 3 ranks run on the plugin build"
 *
 * rma_acc_random with cross-memory attach off, over shared memory: the
 * data of created and dynamic windows goes through UCX while the
 * accumulate lock words stay mapped, so Raccumulate and Rget_accumulate
 * run as state machines whose lock attempts answer at once (a busy lock
 * is tried again from progress), with the random datatypes of
 * rma_acc_random.  (Over TCP, rma_acc_random itself covers the state
 * machine with UCX lock words.)
 */
#include "rma_acc_random.c"
