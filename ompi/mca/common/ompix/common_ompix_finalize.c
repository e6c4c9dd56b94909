/*
 * Copyright (c) 2026 The ompix developers.
 *
 * An attribute on MPI_COMM_SELF per cleanup; its delete callback runs the
 * cleanup and frees its own keyval.
 */
#include "ompi_config.h"

#include "mpi.h"

#include "common_ompix_finalize.h"

static int mca_common_ompix_finalize_cb(MPI_Comm comm, int keyval, void *value, void *extra)
{
    const mca_common_ompix_cleanup_t *cleanup = (const mca_common_ompix_cleanup_t *) value;

    (void) comm;
    (void) extra;
    (void) PMPI_Comm_free_keyval(&keyval);
    cleanup->fn();
    return MPI_SUCCESS;
}

int mca_common_ompix_at_finalize(const mca_common_ompix_cleanup_t *cleanup)
{
    int keyval, rc;

    rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, mca_common_ompix_finalize_cb, &keyval,
                                 NULL);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, (void *) cleanup);
    if (MPI_SUCCESS != rc) {
        (void) PMPI_Comm_free_keyval(&keyval);
    }
    return rc;
}
