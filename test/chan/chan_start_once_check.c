/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * chan_start_once.c with parameter checks (Open MPI's default): Open MPI
 * 5.0's MPI_Start then refuses a request shown active itself.
 */
#include "chan_start_once.c"
