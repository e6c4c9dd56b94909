/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=300 mca="osc rdma2,sm" intree="np=2 pml=ob1" intree_why="CI time: the plugin build runs every combination"
 *
 * The RMA rows of the error matrix (rma_rows.h) on osc/rdma2 windows:
 * every row must return the class MPI names, through the window's (or the
 * communicator's) error handler, once, and leave the process usable.
 */
#include "rma_rows.h"

int main(int argc, char **argv)
{
    static errors_row_t rows[RMA_MAX_ROWS];

    return errors_main(argc, argv, rows, rma_rows(rows), "errors/rma", 0);
}
