/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=240 mca="osc rdma2,sm osc_rdma2_cma 0" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * rma_sync with cross-memory attach off: every access to created and
 * dynamic windows (and, over TCP, to allocated ones) then goes through
 * UCX's put/get, so the completion rules of unlock, flush, complete and
 * fence are checked on the path where UCX, not a synchronous copy,
 * carries the data (target loads after remote completion, remote reads
 * after target stores, for every synchronization mode).
 */
#include "rma_sync.c"
