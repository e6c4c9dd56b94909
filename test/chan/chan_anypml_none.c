/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=90
 *
 * chan_anypml.c with no pml list at all: Open MPI opens every PML, picks
 * one (ucx where its transports are allowed, as test/run's pml=ucx rows
 * allow them, else ob1) and pml/chan stays loaded beside it.
 */
#include <stdlib.h>
#define CHAN_ANYPML_SETUP() unsetenv("OMPI_MCA_pml")
#define CHAN_ANYPML_ENGINE_LOADED (-1)
#include "chan_anypml.c"
