/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Helpers for the tests of pml/chan's engine, driven through its registry
 * table as the channel extension (ompi/mpiext/chan) drives it: find the
 * table, describe two matching persistent requests, build the specs by
 * hand, exchange the blobs with MPI_Sendrecv, connect.
 *
 * chan_engine_init adds chan to the PML list first (ompix_chan_pml.h).
 */
#ifndef CHAN_ENGINE_H
#define CHAN_ENGINE_H

#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "../../ompi/mca/pml/chan/pml_chan_api.h"

typedef const void *chan_lookup_fn_t(const char *name, uint32_t version);

static const mca_pml_chan_api_t *chan_api;

static inline const mca_pml_chan_api_t *chan_engine_lookup(void)
{
    chan_lookup_fn_t *lookup;

    *(void **) &lookup = dlsym(RTLD_DEFAULT, "mca_common_ompix_registry_lookup");
    if (NULL == lookup) {
        return NULL;
    }
    return (const mca_pml_chan_api_t *) lookup(MCA_PML_CHAN_API_NAME, MCA_PML_CHAN_API_VERSION);
}

static inline void chan_engine_init(int *argc, char ***argv)
{
    ompix_chan_add_to_pml_list();
    ompix_test_init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    chan_api = chan_engine_lookup();
}

/* Binds persistent request `req` (this rank's end) with rank `peer`'s
 * matching one.  `bytes` is the send's packed size.  Returns the engine's
 * error, or MPI_SUCCESS with *chan (MPI_REQUEST_NULL when an end could not
 * be served: both ends then agree). */
static inline int chan_engine_bind(MPI_Request req, int peer, int sync, int slack, long increment,
                                   size_t bytes, MPI_Request *chan)
{
    static char blob[MCA_PML_CHAN_BLOB_MAX], peer_blob[MCA_PML_CHAN_BLOB_MAX];
    mca_pml_chan_spec_t spec;
    struct mca_pml_chan_half_t *half = NULL;
    size_t len = 0;
    unsigned long mine, theirs = 0;
    int rc;

    *chan = MPI_REQUEST_NULL;
    memset(&spec, 0, sizeof(spec));
    rc = chan_api->describe(req, &spec.req);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    spec.sync = sync;
    spec.slack = slack;
    spec.increment = increment;
    spec.bytes = bytes;
    rc = chan_api->prepare(&spec, &half, blob, &len);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    mine = len;
    MPI_Sendrecv(&mine, 1, MPI_UNSIGNED_LONG, peer, 901, &theirs, 1, MPI_UNSIGNED_LONG, peer,
                 901, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(blob, (int) mine, MPI_BYTE, peer, 902, peer_blob, (int) theirs, MPI_BYTE, peer,
                 902, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (0 == mine || 0 == theirs) {
        if (NULL != half) {
            chan_api->abandon(half);
        }
        return MPI_SUCCESS;
    }
    return chan_api->connect(half, peer_blob, theirs, chan);
}

/* Unbind then free: how the extension releases a channel. */
static inline int chan_engine_unbind(MPI_Request *chan)
{
    int rc = chan_api->unbind(*chan);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    return MPI_Request_free(chan);
}

#endif /* CHAN_ENGINE_H */
