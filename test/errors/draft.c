/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1 timeout=300 mca="osc rdma2,sm" intree="np=2" intree_why="CI time: the plugin build runs every combination"
 *
 * The rows of draft_rows.h (the draft's notified calls, reset/threshold,
 * bundles and persistent generalized requests) on osc/rdma2 windows, the
 * native notify path: the class MPI names, through the window's (or the
 * communicator's) handler, once, and the process still usable.
 */
#include "draft_rows.h"

int main(int argc, char **argv)
{
    static errors_row_t rows[DRAFT_MAX_ROWS];

    return errors_main(argc, argv, rows, draft_rows(rows), "errors/draft", 0);
}
