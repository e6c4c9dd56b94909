/*
 * Copyright (c) 2026 The ompix developers.
 *
 * A shared-memory segment mapped by every rank of a communicator that lives
 * on one node, for protocols whose start is a store and whose completion is
 * a load (coll/persist's small collectives).
 */
#ifndef MCA_COMMON_OMPIX_SHM_H
#define MCA_COMMON_OMPIX_SHM_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>

#include "opal/mca/shmem/shmem.h"
#include "ompi/communicator/communicator.h"

BEGIN_C_DECLS

/* Cache line: what a segment's base is aligned to. */
#define MCA_COMMON_OMPIX_SHM_LINE 64

typedef struct mca_common_ompix_shm_t {
    opal_shmem_ds_t ds;
    void *base;                 /* MCA_COMMON_OMPIX_SHM_LINE-aligned, or NULL */
} mca_common_ompix_shm_t;

/* Whether every rank of comm runs on this node: a fact the same on every
 * rank, so all of them decide alike whether to try a segment. */
OMPI_DECLSPEC bool mca_common_ompix_shm_comm_on_node(ompi_communicator_t *comm);

/* Collective over comm.  Rank 0 creates a segment of `len` usable bytes
 * named after `owner`, the communicator and `tag`; every rank attaches;
 * then all agree whether every rank attached and said `ok` (its own
 * verdict on using the segment), and the name is unlinked, so nothing is
 * left behind whatever happens next.  On return *all_ok says whether the
 * segment is mapped everywhere (zeroed, at seg->base); if not, nothing is
 * mapped here.  The return code reports a failed collective only. */
OMPI_DECLSPEC int mca_common_ompix_shm_map(ompi_communicator_t *comm, const char *owner, int tag,
                                           size_t len, bool ok, mca_common_ompix_shm_t *seg,
                                           bool *all_ok);

OMPI_DECLSPEC void mca_common_ompix_shm_unmap(mca_common_ompix_shm_t *seg);

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_SHM_H */
