/*
 * ompix-test: np=2,3 tls=tcp,net pml=ob1 timeout=120 paths="slots:ucx acc:am" mca="osc rdma2,sm osc_rdma2_progress_thread always"
 *
 * notify_passive.c over TCP (UCX_TLS=tcp,self): UCX's atomics and active
 * messages toward a target computing outside MPI are served by osc/rdma2's
 * progress thread, turned on here as test/rdma2/rma_acc_progress.c does.
 */
#include "notify_passive.c"
