/*
 * ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=240 mca="coll_persist_bundle on coll_persist_shm_max_bytes 0 pml_chan_enable 0" ompi50=no ompi50_why="the bundle engine (ompi/mpiext/chan) is not built against 5.0 (README, version matrix)"
 *
 * persist_bundle.c with pml/chan's engine off: the channels would be the
 * generic fallback's, so every plan keeps its own persistent requests
 * (results checked the same way) and no channel start is counted.
 */
#define PERSIST_BUNDLE_ENGINE 0
#include "persist_bundle.c"
