/*
 * ompix-test: np=1,2 tls=shm pml=ob1 timeout=120 mca="mpi_param_check 0"
 *
 * The persistent-collective rows of the error matrix (persist_rows.h)
 * with Open MPI's argument checks off (mpi_param_check 0): coll/persist's
 * own checks must answer every *_init row with the class MPI names.
 */
#include "persist_rows.h"

int main(int argc, char **argv)
{
    static errors_row_t rows[PERSIST_MAX_ROWS];

    return errors_main(argc, argv, rows, persist_rows(rows), "errors/persist_nocheck", 0);
}
