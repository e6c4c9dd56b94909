/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Unbinding: local at both ends (the fallback's requests are inactive, the
 * engine's unbind() is local by contract).  The extension's set of channel
 * requests tells engine and fallback channels apart.  Either kind is
 * released through ompi_request_free() last, so that layers which wrapped
 * its req_free (persistent continuations) let go of it.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

/* MPI_SUCCESS when chan is a channel with no start outstanding. */
static int ompix_chan_unbind_check(ompi_request_t *chan, const char **why)
{
    void *kind = ompix_chan_kind(chan);

    if (NULL == kind) {
        *why = "the request is not a bound channel";
        return MPI_ERR_REQUEST;
    }
    if (ompix_bundle_member_taken(chan)) {
        /* Its bundle starts it and holds its functions until freed. */
        *why = "the channel is a member of a bundle (MPIX_Bundle_init) until the bundle is freed";
        return MPI_ERR_REQUEST;
    }
    if (OMPIX_CHAN_KIND_FALLBACK == kind) {
        ompix_chan_fb_t *fb = (ompix_chan_fb_t *) chan;

        ompix_chan_fb_settle(fb);
        if (fb->outstanding > 0) {
            *why = "the channel has starts outstanding";
            return MPI_ERR_REQUEST;
        }
    } else if (OMPI_REQUEST_INACTIVE != chan->req_state) {
        /* The engine's unbind() checks all its starts (slack > 1). */
        *why = "the channel has starts outstanding";
        return MPI_ERR_REQUEST;
    }
    return MPI_SUCCESS;
}

/* An already complete, non-persistent request that Wait/Test turn into
 * MPI_REQUEST_NULL: what MPIX_Iunbind_channel leaves in an engine channel's
 * handle (a fallback channel becomes one itself). */
static ompi_request_t *ompix_chan_unbind_done(ompi_communicator_t *comm)
{
    ompix_chan_fb_t *done = OBJ_NEW(ompix_chan_fb_t);

    if (NULL == done) {
        return MPI_REQUEST_NULL;
    }
    done->slack = 0;
    done->unbinding = true;
    done->comm = comm;
    done->super.req_mpi_object.comm = comm;
    done->super.req_persistent = false;
    done->super.req_state = OMPI_REQUEST_ACTIVE;
    done->super.req_complete = REQUEST_COMPLETED;
    return &done->super;
}

/* Releases a channel with no start outstanding (checked by the caller),
 * or leaves it intact and returns MPI_ERR_REQUEST. */
int ompix_chan_unbind_one(MPI_Request *chan, bool nonblocking)
{
    ompi_request_t *req = *chan;
    void *kind = ompix_chan_kind(req);
    ompix_chan_fb_t *fb;
    int rc;

    if (OMPIX_CHAN_KIND_FALLBACK != kind) {
        ompi_communicator_t *comm = req->req_mpi_object.comm;

        /* MPI_ERR_REQUEST with starts outstanding: the channel stays. */
        rc = ompix_chan_global.engine->unbind(req);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        ompix_chan_remove(req);
        if (OMPIX_CHAN_KIND_ENGINE_SLACK == kind) {
            opal_atomic_add_fetch_32(&ompix_chan_global.num_watched, -1);
        }
        rc = ompi_request_free(chan);
        *chan = nonblocking ? ompix_chan_unbind_done(comm) : MPI_REQUEST_NULL;
        return rc;
    }
    ompix_chan_remove(req);
    fb = (ompix_chan_fb_t *) req;
    fb->unbinding = true;
    if (!nonblocking) {
        /* Through req_free, so that layers which wrapped it (persistent
         * continuations) let go of the request too. */
        return ompi_request_free(chan);
    }
    /* Completes through Wait/Test, which then frees it. */
    req->req_persistent = false;
    req->req_status = ompi_status_empty;
    req->req_state = OMPI_REQUEST_ACTIVE;
    req->req_complete = REQUEST_COMPLETED;
    return OMPI_SUCCESS;
}

int ompix_chan_unbind(int n, MPI_Request chans[], bool nonblocking, const char *func)
{
    const char *why = NULL;
    int rc;

    if (n < 0) {
        return ompix_chan_error(NULL, MPI_ERR_COUNT, func, "negative count");
    }
    if (n > 0 && NULL == chans) {
        return ompix_chan_error(NULL, MPI_ERR_REQUEST, func, "request array is NULL");
    }
    for (int i = 0; i < n; ++i) {
        ompi_communicator_t *comm = NULL;

        if (NULL != chans[i] && MPI_REQUEST_NULL != chans[i]
            && OMPI_REQUEST_PML == chans[i]->req_type) {
            comm = chans[i]->req_mpi_object.comm;
        }
        for (int j = 0; j < i; ++j) {
            if (chans[j] == chans[i]) {
                return ompix_chan_error(comm, MPI_ERR_REQUEST, func, "a channel is listed twice");
            }
        }
        rc = ompix_chan_unbind_check(chans[i], &why);
        if (MPI_SUCCESS != rc) {
            return ompix_chan_error(comm, rc, func, why);
        }
    }
    for (int i = 0; i < n; ++i) {
        ompi_communicator_t *comm = chans[i]->req_mpi_object.comm;

        rc = ompix_chan_unbind_one(&chans[i], nonblocking);
        if (MPI_ERR_REQUEST == rc) {
            return ompix_chan_error(comm, rc, func, "the channel has starts outstanding");
        } else if (OMPI_SUCCESS != rc) {
            return ompix_chan_error(comm, MPI_ERR_OTHER, func, "the engine failed to unbind");
        }
    }
    return MPI_SUCCESS;
}

/* MPI_Finalize with channels still bound: release them all. */
void ompix_chan_unbind_all(void)
{
    size_t n = opal_hash_table_get_size(&ompix_chan_global.chans), k = 0;
    ompi_request_t **reqs = calloc(n > 0 ? n : 1, sizeof(*reqs));
    void **kinds = calloc(n > 0 ? n : 1, sizeof(*kinds));
    void *key, *value, *node = NULL;
    size_t key_size;
    int ret;

    if (NULL == reqs || NULL == kinds) {
        free(reqs);
        free(kinds);
        return;
    }
    ret = opal_hash_table_get_first_key_ptr(&ompix_chan_global.chans, &key, &key_size, &value,
                                            &node);
    while (OPAL_SUCCESS == ret && k < n) {
        reqs[k] = *(ompi_request_t **) key;
        kinds[k++] = value;
        ret = opal_hash_table_get_next_key_ptr(&ompix_chan_global.chans, &key, &key_size, &value,
                                               node, &node);
    }
    opal_hash_table_remove_all(&ompix_chan_global.chans);
    for (size_t i = 0; i < k; ++i) {
        if (OMPIX_CHAN_KIND_FALLBACK == kinds[i]) {
            ompix_chan_fb_destroy((ompix_chan_fb_t *) reqs[i], true);
        } else if (NULL != ompix_chan_global.engine &&
                   OMPI_SUCCESS == ompix_chan_global.engine->unbind(reqs[i])) {
            ompi_request_free(&reqs[i]);
        }
        /* An engine channel with starts outstanding: pml/chan's finalize
         * releases its end. */
    }
    free(reqs);
    free(kinds);
}
