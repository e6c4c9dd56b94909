/*
 * ompix-test: np=1,2 tls=shm,tcp pml=ob1,ucx timeout=120 intree="np=2 pml=ob1" intree_why="CI time: the plugin build runs every combination"
 *
 * The persistent-collective rows of the error matrix (persist_rows.h)
 * with Open MPI's argument checks on: the class MPI names, through the
 * communicator's handler, once ("binding" rows are answered by Open MPI
 * before coll/persist runs).
 */
#include "persist_rows.h"

int main(int argc, char **argv)
{
    static errors_row_t rows[PERSIST_MAX_ROWS];

    return errors_main(argc, argv, rows, persist_rows(rows), "errors/persist", 0);
}
