/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Wait/Test on channels with slack > 1, fallback and engine alike.  Open
 * MPI's Wait/Test make a completed persistent request INACTIVE and never
 * look at it again; a channel with more starts outstanding must then
 * present the next one before the caller's next Wait/Test.  We wrap Open
 * MPI's request functions (as the continue extension does) once such a
 * channel exists; the wrappers call the originals and then settle the
 * channels among the requests: ompix_chan_fb_settle for the fallback's,
 * the engine's settle() for its own.  Channels are told apart by their
 * req_start (a pointer compare, no lock, no lookup), so ordinary requests
 * pay one load and a compare each, and nothing at all while no channel of
 * slack > 1 exists.  Slack-1 channels settle in MPI_Start and need no
 * wrapper.
 */

#include "ompi_config.h"

#include "mpiext_chan_internal.h"

#define OMPIX_CHAN_ORIG (ompix_chan_global.orig_fns)

/* Only requests still in the caller's array: Wait/Test replace the handle
 * of a request they freed with MPI_REQUEST_NULL.  A channel being
 * unbound by MPIX_Iunbind_channel is no longer persistent. */
void ompix_chan_settle_array(size_t count, ompi_request_t **reqs)
{
    const mca_pml_chan_api_t *engine = ompix_chan_global.engine;

    if (0 == ompix_chan_global.num_watched) {
        return;
    }
    for (size_t i = 0; i < count; ++i) {
        ompi_request_t *r = reqs[i];

        if (NULL == r || MPI_REQUEST_NULL == r || !r->req_persistent) {
            continue;
        }
        if (ompix_chan_fb_start == r->req_start) {
            ompix_chan_fb_settle((ompix_chan_fb_t *) r);
        } else if (NULL != engine && engine->start == r->req_start) {
            engine->settle(r);
        }
    }
}

static int ompix_chan_test(ompi_request_t **rptr, int *completed, ompi_status_public_t *status)
{
    int rc = OMPIX_CHAN_ORIG.req_test(rptr, completed, status);

    ompix_chan_settle_array(1, rptr);
    return rc;
}

static int ompix_chan_test_any(size_t count, ompi_request_t **reqs, int *index, int *completed,
                               ompi_status_public_t *status)
{
    int rc = OMPIX_CHAN_ORIG.req_test_any(count, reqs, index, completed, status);

    ompix_chan_settle_array(count, reqs);
    return rc;
}

static int ompix_chan_test_all(size_t count, ompi_request_t **reqs, int *completed,
                               ompi_status_public_t *statuses)
{
    int rc = OMPIX_CHAN_ORIG.req_test_all(count, reqs, completed, statuses);

    ompix_chan_settle_array(count, reqs);
    return rc;
}

static int ompix_chan_test_some(size_t count, ompi_request_t **reqs, int *outcount, int *indices,
                                ompi_status_public_t *statuses)
{
    int rc = OMPIX_CHAN_ORIG.req_test_some(count, reqs, outcount, indices, statuses);

    ompix_chan_settle_array(count, reqs);
    return rc;
}

static int ompix_chan_wait(ompi_request_t **rptr, ompi_status_public_t *status)
{
    int rc = OMPIX_CHAN_ORIG.req_wait(rptr, status);

    ompix_chan_settle_array(1, rptr);
    return rc;
}

static int ompix_chan_wait_any(size_t count, ompi_request_t **reqs, int *index,
                               ompi_status_public_t *status)
{
    int rc = OMPIX_CHAN_ORIG.req_wait_any(count, reqs, index, status);

    ompix_chan_settle_array(count, reqs);
    return rc;
}

static int ompix_chan_wait_all(size_t count, ompi_request_t **reqs,
                               ompi_status_public_t *statuses)
{
    int rc = OMPIX_CHAN_ORIG.req_wait_all(count, reqs, statuses);

    ompix_chan_settle_array(count, reqs);
    return rc;
}

static int ompix_chan_wait_some(size_t count, ompi_request_t **reqs, int *outcount, int *indices,
                                ompi_status_public_t *statuses)
{
    int rc = OMPIX_CHAN_ORIG.req_wait_some(count, reqs, outcount, indices, statuses);

    ompix_chan_settle_array(count, reqs);
    return rc;
}

/* Once, at the first channel of slack > 1; undone at MPI_Finalize. */
void ompix_chan_wait_install(void)
{
    /* Called with the global lock held. */
    if (!ompix_chan_global.wrapped) {
        OMPIX_CHAN_ORIG = ompi_request_functions;
        ompi_request_functions.req_test = ompix_chan_test;
        ompi_request_functions.req_test_any = ompix_chan_test_any;
        ompi_request_functions.req_test_all = ompix_chan_test_all;
        ompi_request_functions.req_test_some = ompix_chan_test_some;
        ompi_request_functions.req_wait = ompix_chan_wait;
        ompi_request_functions.req_wait_any = ompix_chan_wait_any;
        ompi_request_functions.req_wait_all = ompix_chan_wait_all;
        ompi_request_functions.req_wait_some = ompix_chan_wait_some;
        ompix_chan_global.wrapped = true;
    }
}

/* Only when ours are on top: if another layer wrapped ours and has already
 * restored what it found, ours stay below it, harmless (no channel left to
 * settle) and still calling the originals, which orig_fns keeps. */
void ompix_chan_wait_uninstall(void)
{
    if (ompix_chan_global.wrapped && ompix_chan_wait == ompi_request_functions.req_wait) {
        ompi_request_functions = OMPIX_CHAN_ORIG;
    }
    ompix_chan_global.wrapped = false;
}
