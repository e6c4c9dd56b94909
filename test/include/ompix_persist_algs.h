/*
 * Copyright (c) 2026 The ompix developers.
 *
 * coll/persist's algorithms, in the order of its MPI_T counters
 * coll_persist_starts_<name> (coll_persist_mpit.c): for the tests that
 * read them (test/mpit, test/persist).
 */
#ifndef OMPIX_PERSIST_ALGS_H
#define OMPIX_PERSIST_ALGS_H

#define NALGS 13
static const char *const alg_names[NALGS] = {
    "other", "barrier_shm", "barrier_dissemination", "bcast_shm", "bcast_binomial",
    "bcast_scatter_allgather", "allreduce_shm", "allreduce_recursive_doubling",
    "allreduce_ring", "allgather_bruck", "allgather_ring", "alltoall_bruck",
    "alltoall_pairwise",
};

#endif
