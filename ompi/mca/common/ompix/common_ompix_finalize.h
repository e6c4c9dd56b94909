/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Cleanup of an MPI extension's process-wide state at MPI_Finalize.  The
 * plugin build has no extension finalize hook, so ompix uses the one both
 * builds have: MPI_Finalize deletes the attributes of MPI_COMM_SELF first,
 * in the reverse order they were set, while MPI is still usable (MPI-3.1
 * §8.7.1).
 */
#ifndef MCA_COMMON_OMPIX_FINALIZE_H
#define MCA_COMMON_OMPIX_FINALIZE_H

#include "ompi_config.h"

BEGIN_C_DECLS

typedef struct mca_common_ompix_cleanup_t {
    void (*fn)(void);
} mca_common_ompix_cleanup_t;

/* Runs cleanup->fn at MPI_Finalize, before the cleanups registered earlier.
 * cleanup must outlive MPI (a static).  Returns an MPI error code. */
OMPI_DECLSPEC int mca_common_ompix_at_finalize(const mca_common_ompix_cleanup_t *cleanup);

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_FINALIZE_H */
