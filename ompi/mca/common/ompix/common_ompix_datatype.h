/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Copies between two layouts of one type signature, exact for every
 * datatype Open MPI accepts.  Not ompi_datatype_sndrcv: it pairs Open
 * MPI's pack and unpack in 64 KiB steps, and 4.1's pack of a "contiguous
 * with gaps" layout (one contiguous block per element, the extent larger:
 * resized types, and nested types that reduce to that) reports its last
 * step as zero iovecs when that step ends inside the last element's block
 * (opal_pack_homogeneous_contig_with_gaps breaks out before counting the
 * iovec), so the unpack drops up to 64 KiB at the end.  Walking both
 * layouts with the convertor's raw iovec interface has no such step.
 */
#ifndef MCA_COMMON_OMPIX_DATATYPE_H
#define MCA_COMMON_OMPIX_DATATYPE_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>

#include "ompi/datatype/ompi_datatype.h"

BEGIN_C_DECLS

/* Called for each pair of contiguous pieces of two layouts of one byte
 * stream: `a` and `b` hold the same `len` bytes. */
typedef int (*mca_common_ompix_datatype_pair_fn_t)(void *ctx, char *a, char *b, size_t len);

/* Walks the two layouts in step and calls fn for each pair of pieces.
 * Only addresses are computed, never dereferenced, so either layout may
 * describe remote memory (osc/rdma2 walks a target's layout on its
 * remote address).  Stops at the shorter layout or at fn's first error,
 * which it returns. */
OMPI_DECLSPEC int mca_common_ompix_datatype_walk_pairs(void *abuf, int acount,
                                                       struct ompi_datatype_t *adt, void *bbuf,
                                                       int bcount, struct ompi_datatype_t *bdt,
                                                       mca_common_ompix_datatype_pair_fn_t fn,
                                                       void *ctx);

/* Copies scount sdt at src into dcount ddt at dst (same signature): one
 * memcpy when both are contiguous in memory, else the pair walk. */
OMPI_DECLSPEC int mca_common_ompix_datatype_copy(const void *src, int scount,
                                                 struct ompi_datatype_t *sdt, void *dst,
                                                 int dcount, struct ompi_datatype_t *ddt);

/* Whether count dt are one block of memory; *lb is where it starts
 * relative to the buffer (the true lower bound). */
static inline bool mca_common_ompix_datatype_contiguous(struct ompi_datatype_t *dt, int count,
                                                        ptrdiff_t *lb)
{
    ptrdiff_t true_extent;
    ompi_datatype_get_true_extent(dt, lb, &true_extent);
    return ompi_datatype_is_contiguous_memory_layout(dt, count);
}

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_DATATYPE_H */
