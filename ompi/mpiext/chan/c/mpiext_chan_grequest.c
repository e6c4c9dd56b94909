/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Persistent generalized requests (MPIX_Grequest_persistent_init): a local
 * step the user writes, startable like any persistent request (and so a
 * bundle member: an unpack or a reduction between rounds).  MPI_Start runs
 * start_fn; progress runs poll_fn until it reports completion;
 * MPI_Request_free runs free_fn.
 */

#include "ompi_config.h"

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

static int ompix_bundle_greq_start(size_t count, ompi_request_t **reqs);
static int ompix_bundle_greq_free(ompi_request_t **req);
static bool ompix_bundle_greq_poll(ompix_bundle_active_t *a);
static void ompix_bundle_greq_done(ompix_bundle_active_t *a, bool freed);

static void ompix_bundle_greq_construct(ompix_bundle_greq_t *g)
{
    /* Startable: MPI_Start and MPI_Startall take PML and COLL requests only
     * (an OMPI_REQUEST_GEN one is not persistent for Open MPI). */
    OMPI_REQUEST_INIT(&g->super, true);
    g->super.req_type = OMPI_REQUEST_COLL;
    g->super.req_start = ompix_bundle_greq_start;
    g->super.req_free = ompix_bundle_greq_free;
    g->super.req_cancel = ompix_bundle_refuse_cancel;
    g->super.req_status = ompi_status_empty;
    g->super.req_mpi_object.comm = &ompi_mpi_comm_world.comm;
    OBJ_CONSTRUCT(&g->active, ompix_bundle_active_t);
    g->active.poll = ompix_bundle_greq_poll;
    g->active.done = ompix_bundle_greq_done;
    g->active.req = &g->super;
}

static void ompix_bundle_greq_destruct(ompix_bundle_greq_t *g)
{
    OBJ_DESTRUCT(&g->active);
    OMPI_REQUEST_FINI(&g->super);
}
OBJ_CLASS_INSTANCE(ompix_bundle_greq_t, ompi_request_t, ompix_bundle_greq_construct,
                   ompix_bundle_greq_destruct);

int ompix_bundle_greq_create(MPIX_Grequest_start_function *start_fn,
                             MPIX_Grequest_poll_function *poll_fn,
                             MPI_Grequest_free_function *free_fn, void *extra_state,
                             MPI_Request *request)
{
    ompix_bundle_greq_t *g = OBJ_NEW(ompix_bundle_greq_t);

    if (NULL == g) {
        return MPI_ERR_NO_MEM;
    }
    g->start_fn = start_fn;
    g->poll_fn = poll_fn;
    g->free_fn = free_fn;
    g->extra_state = extra_state;
    *request = &g->super;
    return MPI_SUCCESS;
}

/* poll_fn once: true when it reported completion or an error (which is
 * then the request's MPI_ERROR). */
static bool ompix_bundle_greq_poll(ompix_bundle_active_t *a)
{
    ompix_bundle_greq_t *g = (ompix_bundle_greq_t *) a->req;
    int completed = 0, rc = g->poll_fn(g->extra_state, &completed);

    if (MPI_SUCCESS != rc) {
        g->super.req_status.MPI_ERROR = rc;
        return true;
    }
    return 0 != completed;
}

/* free_fn, then the request; free_fn's return. */
static int ompix_bundle_greq_release(ompix_bundle_greq_t *g)
{
    int rc = NULL != g->free_fn ? g->free_fn(g->extra_state) : MPI_SUCCESS;

    OBJ_RELEASE(g);
    return rc;
}

static void ompix_bundle_greq_done(ompix_bundle_active_t *a, bool freed)
{
    ompix_bundle_greq_t *g = (ompix_bundle_greq_t *) a->req;

    if (freed) {
        (void) ompix_bundle_greq_release(g);     /* free_fn's error has no one to go to */
        return;
    }
    ompi_request_complete(&g->super, true);
}

/* A start_fn that fails completes the start at once with its error (Wait
 * reports it; a bundle counts the member as failed); poll_fn is not run. */
static int ompix_bundle_greq_start_one(ompi_request_t *req)
{
    ompix_bundle_greq_t *g = (ompix_bundle_greq_t *) req;
    int rc;

    if (OMPI_REQUEST_ACTIVE == g->super.req_state) {
        return MPI_ERR_REQUEST;         /* reported by ompix_bundle_start_each */
    }
    ompix_bundle_request_reset(&g->super);
    rc = NULL != g->start_fn ? g->start_fn(g->extra_state) : MPI_SUCCESS;
    if (MPI_SUCCESS != rc) {
        g->super.req_status.MPI_ERROR = rc;
        ompix_bundle_greq_done(&g->active, false);
    } else {
        ompix_bundle_launch(&g->active);
    }
    return MPI_SUCCESS;
}

static int ompix_bundle_greq_start(size_t count, ompi_request_t **reqs)
{
    return ompix_bundle_start_each(count, reqs, ompix_bundle_greq_start_one,
                                   MCA_COMMON_OMPIX_REQUEST_CALLER());
}

/* MPI_Request_free: free_fn, whose error MPI_Request_free returns; an
 * active request goes (free_fn then) when poll_fn reports completion. */
static int ompix_bundle_greq_free(ompi_request_t **req)
{
    ompix_bundle_greq_t *g = (ompix_bundle_greq_t *) *req;

    return ompix_bundle_mark_freed(req, &g->active) ? ompix_bundle_greq_release(g)
                                                    : OMPI_SUCCESS;
}
