/*
 * ompix-test: np=1,2 tls=shm pml=ob1 timeout=60 mca="coll_persist_bcast_algorithm 9 coll_persist_allreduce_algorithm fastest coll_persist_allgather_algorithm ring coll_persist_alltoall_algorithm 1"
 *
 * coll/persist's algorithm parameters are enumerations: the out-of-range
 * bcast_algorithm=9 and the unknown allreduce_algorithm=fastest this test
 * is run with are refused by Open MPI's variable system (with a message),
 * which keeps the default (auto); a value's name (allgather ring) and the
 * number older settings used (alltoall 1, Bruck's) are taken.  Read through
 * MPI_T, with ompix's version (coll_persist_ompix_version); then a
 * persistent broadcast and allreduce run on what was kept.
 */
#include "ompix_test.h"
#include "ompix_mpit.h"

#include <string.h>

static void cvar_range_check(const char *name, int expected, const char *expected_name)
{
    char value_name[64];
    int value = -1;

    CHECK(MPI_SUCCESS == ompix_mpit_cvar_int(name, &value));
    CHECK(3 == ompix_mpit_cvar_enum(name, value, value_name, sizeof(value_name)));
    if (expected != value || 0 != strcmp(expected_name, value_name)) {
        printf("%s: %d (%s), expected %d (%s)\n", name, value, value_name, expected,
               expected_name);
    }
    CHECK(expected == value && 0 == strcmp(expected_name, value_name));
}

/* The settings reached this process: otherwise reading the defaults would
 * prove nothing. */
static void cvar_range_check_environment(void)
{
    const char *bcast = getenv("OMPI_MCA_coll_persist_bcast_algorithm");
    const char *allreduce = getenv("OMPI_MCA_coll_persist_allreduce_algorithm");

    CHECK(NULL != bcast && 0 == strcmp(bcast, "9"));
    CHECK(NULL != allreduce && 0 == strcmp(allreduce, "fastest"));
}

/* ompix's version, as ompi_info shows it, stays readable after MPI_Init:
 * digits and dots, as configure.ac's AC_INIT says (test/docs/version.py). */
static void cvar_range_check_version(void)
{
    char version[4096] = "";
    size_t len;

    CHECK(MPI_SUCCESS == ompix_mpit_cvar_read("coll_persist_ompix_version", version,
                                              sizeof(version)));
    len = strlen(version);
    CHECK(len > 0 && strspn(version, "0123456789.") == len);
}

static void cvar_range_check_collectives(void)
{
    MPI_Request bcast, allreduce;
    int rank, size, root_value, in, sum = -1;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    root_value = 0 == rank ? 1234 : 0;
    in = rank + 1;
    MPIX_Bcast_init(&root_value, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &bcast);
    MPIX_Allreduce_init(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                        &allreduce);
    MPI_Start(&bcast);
    MPI_Wait(&bcast, MPI_STATUS_IGNORE);
    MPI_Start(&allreduce);
    MPI_Wait(&allreduce, MPI_STATUS_IGNORE);
    CHECK(1234 == root_value);
    CHECK(size * (size + 1) / 2 == sum);
    MPI_Request_free(&bcast);
    MPI_Request_free(&allreduce);
}

int main(int argc, char **argv)
{
    int provided;

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    cvar_range_check_environment();
    cvar_range_check("coll_persist_bcast_algorithm", 0, "auto");
    cvar_range_check("coll_persist_allreduce_algorithm", 0, "auto");
    cvar_range_check("coll_persist_allgather_algorithm", 2, "ring");
    cvar_range_check("coll_persist_alltoall_algorithm", 1, "bruck");
    cvar_range_check_version();
    cvar_range_check_collectives();
    MPI_T_finalize();
    return ompix_test_finish("persist_cvar_range");
}
