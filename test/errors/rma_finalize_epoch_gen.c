/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1 timeout=60 mca="osc ^rdma2"
 *
 * rma_finalize_epoch.c on the stock components, whose windows carry the
 * generic notify path's wrappers (mpiext_notify_generic.c): MPI_Finalize
 * frees the windows the program left after ompix's own finalization ran,
 * which crashed in the wrapped free (its state was gone) on every rank.
 */
#define FINALIZE_EPOCH_NAME "errors/rma_finalize_epoch_gen"
#include "rma_finalize_epoch.c"
