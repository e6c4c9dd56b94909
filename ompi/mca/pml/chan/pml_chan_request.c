/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The channel request: its set-up as a persistent request, completion
 * through ompi_request_complete so that every Wait/Test variant and
 * continuations work, req_free/req_cancel that refuse while bound.  The
 * starts (pml_chan_request_start.c), Wait/Test (pml_chan_request_wait.c)
 * and progress (pml_chan_progress.c) move data through the end's path and
 * then report here; nothing here calls a path.
 *
 * Slack K: up to K starts may be outstanding on the one request, and each
 * Wait/Test reports the oldest.  Open MPI's Wait/Test mark a persistent
 * request inactive when they report it; we see that the next time we look
 * (a start, a progress call, or settle() from the extension's Wait/Test
 * wrappers right after they returned) and then arm the request for the
 * next oldest start (active; complete if that one is done already).
 */
#include "ompi_config.h"

#include "pml_chan_request.h"

/* Under the end's lock.  True when the caller must ompi_request_complete()
 * the request (after dropping the lock: completion may run callbacks that
 * start this channel again).
 *
 * Arming the request for a start that is done already, while it is still
 * REQUEST_COMPLETED from the completion just consumed and no callback is
 * set, leaves it so: setting it PENDING and completing it again would end
 * COMPLETED too, and there is nobody to wake, since a waiting thread's
 * sync object only ever replaces PENDING (ompi_request_wait_completion's
 * compare-and-swap).  The fast paths (fast_done, settle's stream case)
 * write this outcome out for their own case. */
bool mca_pml_chan_request_report(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;

    if (end->pending_report && OMPI_REQUEST_INACTIVE == mca_pml_chan_request_state(end)) {
        ++end->nconsumed;
        end->pending_report = false;
    }
    if (end->pending_report || end->nconsumed == end->nstart) {
        return false;
    }
    mca_common_ompix_request_arm(r, &end->show, mca_pml_chan_request_room(end));
    if (end->ndone > end->nconsumed) {
        /* The status was set once, at setup. */
        end->pending_report = true;
        if (REQUEST_COMPLETED == r->req_complete && NULL == r->req_complete_cb) {
            return false;
        }
    }
    /* The previous start's completion is stale; a waiting thread may have
     * put its sync object in place of PENDING already. */
    if (REQUEST_COMPLETED == r->req_complete) {
        r->req_complete = REQUEST_PENDING;
    }
    return end->pending_report;
}

bool mca_pml_chan_request_own(const mca_pml_chan_end_t *end)
{
    return mca_common_ompix_request_own(&end->super, mca_pml_chan_request_start);
}

int mca_pml_chan_request_outstanding(mca_pml_chan_end_t *end)
{
    bool complete;
    int n;

    OPAL_THREAD_LOCK(&end->lock);
    complete = mca_pml_chan_request_report(end);
    n = (int) (end->nstart - end->nconsumed);
    OPAL_THREAD_UNLOCK(&end->lock);
    if (complete) {
        ompi_request_complete(&end->super, true);
    }
    return n;
}

/* OMPI_SUCCESS: a start's last step may be a tail call of it. */
int mca_pml_chan_request_make_busy(mca_pml_chan_end_t *end)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    OPAL_THREAD_LOCK(&c->lock);
    if (!end->busy) {
        end->busy = true;
        opal_list_append(&c->busy, &end->busy_item);
        ++c->outstanding;
    }
    OPAL_THREAD_UNLOCK(&c->lock);
    return OMPI_SUCCESS;
}

/* Out of line: the fast starts (start_fast, req_start, the paths'
 * start_now) rarely need it. */
__opal_attribute_noinline__ int mca_pml_chan_request_fast_complete(ompi_request_t *r)
{
    if (REQUEST_COMPLETED == r->req_complete) {
        r->req_complete = REQUEST_PENDING;
    }
    ompi_request_complete(r, true);
    return OMPI_SUCCESS;
}

/* Only after unbind: a channel is released by MPIX_Unbind_channel. */
static int mca_pml_chan_request_free(ompi_request_t **request)
{
    mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) *request;

    if (end->bound) {
        return MPI_ERR_REQUEST;
    }
    OBJ_RELEASE(end);
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int mca_pml_chan_request_cancel(ompi_request_t *request, int complete)
{
    (void) complete;
    return ((mca_pml_chan_end_t *) request)->bound ? MPI_ERR_REQUEST : OMPI_SUCCESS;
}

/* The table's direction(): 1 a send end, -1 a receive end (fixed at
 * bind; a bundle orders its rounds by it). */
int mca_pml_chan_request_direction(ompi_request_t *request)
{
    return ((mca_pml_chan_end_t *) request)->is_send ? 1 : -1;
}

/* A persistent request, inactive, as after MPI_Send_init. */
void mca_pml_chan_request_setup(mca_pml_chan_end_t *end)
{
    ompi_request_t *r = &end->super;

    OMPI_REQUEST_INIT(r, true);
    r->req_type = OMPI_REQUEST_PML;
    r->req_start = mca_pml_chan_request_start;
    r->req_free = mca_pml_chan_request_free;
    r->req_cancel = mca_pml_chan_request_cancel;
    r->req_mpi_object.comm = end->spec.req.comm;
    /* Every message of a channel reports the same status (the peer, the
     * send's tag and size; a channel is never cancelled), so starts and
     * report() leave it alone. */
    r->req_status = ompi_status_empty;
    r->req_status.MPI_SOURCE = end->peer_rank;
    r->req_status.MPI_TAG = end->status_tag;
    r->req_status._ucount = end->bytes;
    r->req_status._cancelled = 0;
    r->req_status.MPI_ERROR = MPI_SUCCESS;
    r->req_state = OMPI_REQUEST_INACTIVE;
    end->show = MCA_COMMON_OMPIX_REQUEST_PLAIN;
    r->req_complete = REQUEST_COMPLETED;
}
