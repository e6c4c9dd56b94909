/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1 timeout=300 mca="osc sm" intree="np=2" intree_why="CI time: the plugin build runs every combination"
 *
 * draft.c on the generic notify path: osc/rdma2 is not in the osc list,
 * so notified RMA is built from osc sm's own calls, and the extension's
 * own checks must give every row its class: osc sm checks no epoch, so
 * the rows without one rely on the generic path's epoch tracking
 * (mpiext_notify_generic.c:ompix_notify_gen_track_epochs).
 */
#include "draft_rows.h"

int main(int argc, char **argv)
{
    static errors_row_t rows[DRAFT_MAX_ROWS];

    return errors_main(argc, argv, rows, draft_rows(rows), "errors/draft_gen", 0);
}
