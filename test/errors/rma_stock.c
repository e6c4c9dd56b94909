/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1 timeout=300 mca="osc ^rdma2" intree="np=2 tls=shm" intree_why="CI time: the baseline does not change with ompix"
 *
 * The baseline rows of the RMA error matrix (rma_rows.h, flag
 * ERRORS_STOCK) on the stock one-sided components (osc sm, rdma, pt2pt):
 * rows whose class the stock components already return as MPI names it,
 * so rdma2 is measured against what a user gets without ompix.  (The full
 * before/after/stock comparison, crashes and hangs included, is
 * test/errors/matrix.py's.)
 */
#include "rma_rows.h"

int main(int argc, char **argv)
{
    static errors_row_t rows[RMA_MAX_ROWS];

    return errors_main(argc, argv, rows, rma_rows(rows), "errors/rma_stock", ERRORS_STOCK);
}
