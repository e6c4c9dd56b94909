/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=90
 *
 * chan_anypml.c with the PML chosen in a params file ("pml = X", as a
 * site's openmpi-mca-params.conf says it), not on the command line: the
 * test moves test/run's --mca pml X into a private file named by
 * OMPI_MCA_mca_base_param_files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void chan_anypml_conf(void)
{
    const char *pml = getenv("OMPI_MCA_pml");
    char path[64];
    FILE *f;

    snprintf(path, sizeof(path), "/tmp/ompix-anypml-%d.conf", (int) getpid());
    f = fopen(path, "w");
    if (NULL != f) {
        fprintf(f, "pml = %s\n", NULL != pml ? pml : "ob1");
        fclose(f);
        setenv("OMPI_MCA_mca_base_param_files", path, 1);
        unsetenv("OMPI_MCA_pml");
    }
}

/* MPI_Init has read it. */
static void chan_anypml_conf_remove(void)
{
    char path[64];

    snprintf(path, sizeof(path), "/tmp/ompix-anypml-%d.conf", (int) getpid());
    unlink(path);
}

#define CHAN_ANYPML_SETUP() chan_anypml_conf()
#define CHAN_ANYPML_AFTER_INIT() chan_anypml_conf_remove()
#include "chan_anypml.c"
