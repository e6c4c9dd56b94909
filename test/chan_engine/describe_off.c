/*
 * ompix-test: np=2 tls=shm pml=ob1,ucx timeout=60 mca="pml_chan_enable 0"
 *
 * describe.c with pml_chan_enable 0: pml/chan stays loaded to describe
 * requests, and its engine entries are NULL (the extension then runs every
 * channel on its fallback).
 */
#define EXPECT_ENGINE 0
#define TEST_NAME "chan_engine/describe_off"
#include "describe.c"
