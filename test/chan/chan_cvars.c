/*
 * ompix-test: np=1,2 tls=shm pml=ob1,ucx timeout=60 mca="pml_chan_enable 7 pml_chan_remote bogus"
 *
 * pml/chan's MCA parameters through MPI_T after MPI_Init: PML selection
 * closes pml/chan as an unselected component (it stays loaded beside the
 * selected PML), and its control variables stay visible and readable.
 * Its integer choices are enumerations: the out-of-range pml_chan_enable=7
 * and the unknown pml_chan_remote=bogus this test is run with are refused
 * by Open MPI's variable system (with a message), which keeps the defaults
 * (on, tag).
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"
#include "ompix_mpit.h"

static const char *const chan_cvars_names[] = {
    "pml_chan_enable", "pml_chan_verbose", "pml_chan_debug_ready",
    "pml_chan_large_min", "pml_chan_large_sync_min", "pml_chan_large_cma", "pml_chan_remote",
};

/* The refused settings did reach this process: otherwise reading the
 * defaults would prove nothing. */
static void chan_cvars_check_environment(void)
{
    const char *enable = getenv("OMPI_MCA_pml_chan_enable");
    const char *remote = getenv("OMPI_MCA_pml_chan_remote");

    CHECK(NULL != enable && 0 == strcmp(enable, "7"));
    CHECK(NULL != remote && 0 == strcmp(remote, "bogus"));
}

static void chan_cvars_check_visible(void)
{
    for (size_t i = 0; i < sizeof(chan_cvars_names) / sizeof(chan_cvars_names[0]); ++i) {
        int index;
        int rc = MPI_T_cvar_get_index(chan_cvars_names[i], &index);
        if (MPI_SUCCESS != rc) {
            printf("%s: not visible through MPI_T after MPI_Init (%d)\n", chan_cvars_names[i],
                   rc);
        }
        CHECK(MPI_SUCCESS == rc);
    }
}

static void chan_cvars_check_refused(void)
{
    char name[64];
    int value = -1;

    CHECK(MPI_SUCCESS == ompix_mpit_cvar_int("pml_chan_enable", &value));
    CHECK(1 == value);
    CHECK(2 == ompix_mpit_cvar_enum("pml_chan_enable", value, name, sizeof(name)));
    CHECK(0 == strcmp(name, "on"));
    value = -1;
    CHECK(MPI_SUCCESS == ompix_mpit_cvar_int("pml_chan_remote", &value));
    CHECK(2 == ompix_mpit_cvar_enum("pml_chan_remote", value, name, sizeof(name)));
    CHECK(0 == strcmp(name, "tag"));
}

int main(int argc, char **argv)
{
    int provided;

    ompix_chan_add_to_pml_list();
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    chan_cvars_check_environment();
    chan_cvars_check_visible();
    chan_cvars_check_refused();
    MPI_T_finalize();
    return ompix_test_finish("chan_cvars");
}
