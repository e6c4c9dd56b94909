/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=120 mca="osc rdma2,sm osc_rdma2_cma 0" intree="np=2" intree_why="CI time: 3 ranks run on the plugin build"
 *
 * notify_engine.c with CMA off, so that window memory UCX does not map
 * (created and dynamic windows on shared memory, every window over TCP)
 * is reached through UCX: read_notify's notification comes from its gets'
 * completion callbacks, put_notify's add follows a worker fence (TCP: the
 * slots are UCX's too) or an endpoint flush (shared memory: the slots are
 * mapped), get_notify's follows an endpoint flush.
 */
#include "notify_engine.c"
