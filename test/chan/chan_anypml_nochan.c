/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=90
 *
 * chan_anypml.c with a pml list that excludes pml/chan and the other PML
 * (^chan,ucx under test/run's pml=ob1 rows, ^chan,ob1 under its ucx rows):
 * the extension obeys the exclusion, so every channel runs on the
 * fallback, which reads the selected PML's own requests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void chan_anypml_nochan(void)
{
    const char *pml = getenv("OMPI_MCA_pml");

    setenv("OMPI_MCA_pml", NULL != pml && 0 == strcmp(pml, "ucx") ? "^chan,ob1" : "^chan,ucx", 1);
}

#define CHAN_ANYPML_SETUP() chan_anypml_nochan()
#define CHAN_ANYPML_ENGINE_LOADED 0
#include "chan_anypml.c"
