/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Cleanup of notified RMA's process-wide state at MPI_Finalize.  As for
 * continuations (mpiext_continue_progress.c:ompix_cont_finalize), an
 * attribute on MPI_COMM_SELF: MPI_Finalize deletes those first, while MPI
 * is still usable, in both builds (the plugin build has no extension
 * finalize hook).
 */
#include "ompi_config.h"

#include "mpiext_notify_entry.h"

static int ompix_notify_finalize_cb(MPI_Comm comm, int keyval, void *value, void *extra)
{
    const ompix_notify_cleanup_t *cleanup = (const ompix_notify_cleanup_t *) value;

    (void) comm;
    (void) extra;
    (void) PMPI_Comm_free_keyval(&keyval);
    cleanup->fn();
    return MPI_SUCCESS;
}

int ompix_notify_at_finalize(const ompix_notify_cleanup_t *cleanup)
{
    int keyval, rc;

    rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, ompix_notify_finalize_cb, &keyval, NULL);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, (void *) cleanup);
    if (MPI_SUCCESS != rc) {
        (void) PMPI_Comm_free_keyval(&keyval);
    }
    return rc;
}
