/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The generic fallback: a channel made of K ordinary persistent requests of
 * the selected PML on a private tag (see mpiext_chan_internal.h), started
 * round-robin.  The channel request is a persistent OMPI_REQUEST_PML
 * request (MPI_Start, MPI_Startall, Wait/Test and continuations handle
 * those) that presents one start at a time: the oldest one outstanding.
 * Its state is ACTIVE while starts are outstanding; when Wait/Test has
 * consumed the oldest (made the request INACTIVE with starts still
 * outstanding), ompix_chan_fb_settle moves on to the next one.
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/common/ompix/common_ompix_request.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/pml/base/pml_base_request.h"

#include "mpiext_chan_internal.h"

/* The receive of a start: slot i of channel fb. */
typedef struct ompix_chan_slot_t {
    ompix_chan_fb_t *fb;
    int index;
    volatile bool done;
} ompix_chan_slot_t;

static int ompix_chan_fb_free(ompi_request_t **req);
static int ompix_chan_fb_cancel(ompi_request_t *req, int flag);

static void ompix_chan_fb_construct(ompix_chan_fb_t *fb)
{
    OMPI_REQUEST_INIT(&fb->super, true);
    fb->super.req_type = OMPI_REQUEST_PML;
    fb->super.req_start = ompix_chan_fb_start;
    fb->super.req_free = ompix_chan_fb_free;
    fb->super.req_cancel = ompix_chan_fb_cancel;
    fb->super.req_status = ompi_status_empty;
    fb->reqs = NULL;
    fb->slot_done = NULL;
    fb->head = fb->outstanding = 0;
    fb->presented = fb->unbinding = fb->watched = false;
    opal_atomic_lock_init(&fb->lock, OPAL_ATOMIC_LOCK_UNLOCKED);
}

static void ompix_chan_fb_destruct(ompix_chan_fb_t *fb)
{
    free(fb->reqs);
    free(fb->slot_done);
    OMPI_REQUEST_FINI(&fb->super);
}
OBJ_CLASS_INSTANCE(ompix_chan_fb_t, ompi_request_t, ompix_chan_fb_construct,
                   ompix_chan_fb_destruct);

/* The head's completion into the channel's status; the caller completes
 * the channel request outside the lock. */
static void ompix_chan_fb_present(ompix_chan_fb_t *fb)
{
    ompi_request_t *inner = fb->reqs[fb->head];

    fb->presented = true;
    fb->super.req_status = inner->req_status;
    fb->super.req_status.MPI_TAG = fb->user_tag;
    if (!fb->is_send) {
        fb->super.req_status.MPI_SOURCE = fb->peer;
    }
}

static int ompix_chan_fb_inner_done(ompi_request_t *inner)
{
    ompix_chan_slot_t *slot = (ompix_chan_slot_t *) inner->req_complete_cb_data;
    ompix_chan_fb_t *fb = slot->fb;
    bool complete = false;

    opal_atomic_lock(&fb->lock);
    slot->done = true;
    if (slot->index == fb->head && fb->outstanding > 0 && !fb->presented
        && OMPI_REQUEST_ACTIVE == fb->super.req_state) {
        ompix_chan_fb_present(fb);
        complete = true;
    }
    opal_atomic_unlock(&fb->lock);
    if (complete) {
        ompi_request_complete(&fb->super, true);
    }
    return 0;
}

/* With the lock held: the oldest start was consumed by Wait/Test; true if
 * the next one is already complete (the caller then completes fb). */
static bool ompix_chan_fb_settle_locked(ompix_chan_fb_t *fb)
{
    ompix_chan_slot_t *slots = (ompix_chan_slot_t *) fb->slot_done;

    if (OMPI_REQUEST_INACTIVE != fb->super.req_state || 0 == fb->outstanding
        || !fb->presented) {
        return false;
    }
    slots[fb->head].done = false;
    fb->reqs[fb->head]->req_state = OMPI_REQUEST_INACTIVE;
    fb->head = (fb->head + 1) % fb->slack;
    fb->presented = false;
    if (0 == --fb->outstanding) {
        return false;
    }
    fb->super.req_status = ompi_status_empty;
    fb->super.req_complete = REQUEST_PENDING;
    fb->super.req_state = OMPI_REQUEST_ACTIVE;
    if (slots[fb->head].done) {
        ompix_chan_fb_present(fb);
        return true;
    }
    return false;
}

void ompix_chan_fb_settle(ompix_chan_fb_t *fb)
{
    bool complete;

    opal_atomic_lock(&fb->lock);
    complete = ompix_chan_fb_settle_locked(fb);
    opal_atomic_unlock(&fb->lock);
    if (complete) {
        ompi_request_complete(&fb->super, true);
    }
}

static int ompix_chan_fb_start_one(ompix_chan_fb_t *fb)
{
    ompix_chan_slot_t *slots = (ompix_chan_slot_t *) fb->slot_done;
    ompi_request_t *inner;
    bool complete;
    int index;

    opal_atomic_lock(&fb->lock);
    complete = ompix_chan_fb_settle_locked(fb);
    if (fb->outstanding == fb->slack) {
        opal_atomic_unlock(&fb->lock);
        if (complete) {
            ompi_request_complete(&fb->super, true);
        }
        return ompix_chan_error(fb->comm, MPI_ERR_REQUEST, "MPI_Start",
                                "more starts of a channel outstanding than its slack");
    }
    index = (fb->head + fb->outstanding) % fb->slack;
    slots[index].done = false;
    if (0 == fb->outstanding++) {
        fb->presented = false;
        fb->super.req_status = ompi_status_empty;
        fb->super.req_complete = REQUEST_PENDING;
        fb->super.req_state = OMPI_REQUEST_ACTIVE;
    }
    opal_atomic_unlock(&fb->lock);
    if (complete) {
        ompi_request_complete(&fb->super, true);
    }
    inner = fb->reqs[index];
    /* Its callback completed the channel before its own completion mark. */
    mca_common_ompix_request_wait_marked(inner);
    inner->req_complete_cb_data = &slots[index];
    inner->req_complete_cb = ompix_chan_fb_inner_done;
    /* Started in place: a PML may hand back another request (ob1 does for
     * a send that is MPI-complete but not yet PML-complete, copying the
     * callback and freeing the old one later), and the slot must then hold
     * the new one. */
    return MCA_PML_CALL(start(1, &fb->reqs[index]));
}

int ompix_chan_fb_start(size_t count, ompi_request_t **reqs)
{
    int rc = OMPI_SUCCESS;

    for (size_t i = 0; i < count; ++i) {
        int r = ompix_chan_fb_start_one((ompix_chan_fb_t *) reqs[i]);
        if (OMPI_SUCCESS != r) {
            rc = r;
        }
    }
    return rc;
}

/* MPI_Request_free on a channel is erroneous (MPIX_Unbind_channel releases
 * it); so is everything but the completion of MPIX_Iunbind_channel. */
static int ompix_chan_fb_free(ompi_request_t **req)
{
    ompix_chan_fb_t *fb = (ompix_chan_fb_t *) *req;

    if (!fb->unbinding) {
        if (MPI_SUCCESS != fb->super.req_status.MPI_ERROR) {
            /* Open MPI frees a request whose status reports an error right
             * after Wait/Test returned it: the channel stays. */
            fb->super.req_status.MPI_ERROR = MPI_SUCCESS;
            return OMPI_SUCCESS;
        }
        return MPI_ERR_REQUEST;
    }
    ompix_chan_fb_destroy(fb, false);
    *req = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int ompix_chan_fb_cancel(ompi_request_t *req, int flag)
{
    (void) req;
    (void) flag;
    return MPI_ERR_REQUEST;
}

static int ompix_chan_fb_init_reqs(ompix_chan_fb_t *fb, const mca_pml_chan_spec_t *spec,
                                   int data_tag)
{
    const mca_pml_chan_reqinfo_t *r = &spec->req;
    ompix_chan_slot_t *slots = (ompix_chan_slot_t *) fb->slot_done;
    ptrdiff_t lb, extent;
    int rc = OMPI_SUCCESS;

    ompi_datatype_get_extent(r->type, &lb, &extent);
    for (int i = 0; i < fb->slack && OMPI_SUCCESS == rc; ++i) {
        char *buf = (char *) r->buf + (ptrdiff_t) i * spec->increment * extent;

        slots[i].fb = fb;
        slots[i].index = i;
        slots[i].done = false;
        if (r->is_send) {
            rc = MCA_PML_CALL(isend_init(buf, r->count, r->type, r->peer, data_tag,
                                         spec->sync ? MCA_PML_BASE_SEND_SYNCHRONOUS
                                                    : MCA_PML_BASE_SEND_STANDARD,
                                         r->comm, &fb->reqs[i]));
        } else {
            rc = MCA_PML_CALL(irecv_init(buf, r->count, r->type, r->peer, data_tag,
                                         r->comm, &fb->reqs[i]));
        }
    }
    return rc;
}

/* A fallback channel end for spec on the private tag data_tag; statuses
 * report user_tag (the bound send's tag). */
int ompix_chan_fb_create(const mca_pml_chan_spec_t *spec, int data_tag, int user_tag,
                         ompi_request_t **chan)
{
    ompix_chan_fb_t *fb = OBJ_NEW(ompix_chan_fb_t);
    int rc;

    if (NULL == fb) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    fb->comm = spec->req.comm;
    fb->is_send = spec->req.is_send;
    fb->peer = spec->req.peer;
    fb->user_tag = user_tag;
    fb->slack = spec->slack;
    fb->super.req_mpi_object.comm = spec->req.comm;
    fb->reqs = calloc(spec->slack, sizeof(*fb->reqs));
    /* slot_done holds the slots (their done flag first among others). */
    fb->slot_done = calloc(spec->slack, sizeof(ompix_chan_slot_t));
    if (NULL == fb->reqs || NULL == fb->slot_done) {
        OBJ_RELEASE(fb);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    rc = ompix_chan_fb_init_reqs(fb, spec, data_tag);
    if (OMPI_SUCCESS != rc) {
        ompix_chan_fb_destroy(fb, false);
        return rc;
    }
    if (fb->slack > 1) {
        fb->watched = true;
        opal_atomic_add_fetch_32(&ompix_chan_global.num_watched, 1);
        ompix_chan_wait_install();
    }
    *chan = &fb->super;
    return OMPI_SUCCESS;
}

/* Releases the inner requests (cancelling starts still outstanding when
 * MPI_Finalize releases the channel). */
void ompix_chan_fb_destroy(ompix_chan_fb_t *fb, bool finalizing)
{
    if (fb->watched) {
        opal_atomic_add_fetch_32(&ompix_chan_global.num_watched, -1);
    }
    for (int i = 0; i < fb->slack && NULL != fb->reqs; ++i) {
        ompi_request_t *inner = fb->reqs[i];

        if (NULL == inner) {
            continue;
        }
        if (finalizing && OMPI_REQUEST_ACTIVE == inner->req_state && !REQUEST_COMPLETE(inner)) {
            /* Receives cancel; a send the PML still holds is left to it. */
            inner->req_complete_cb = NULL;
            ompi_request_cancel(inner);
            if (!fb->is_send) {
                ompi_request_wait_completion(inner);
            }
        }
        inner->req_complete_cb = NULL;
        inner->req_state = OMPI_REQUEST_INACTIVE;
        ompi_request_free(&fb->reqs[i]);
    }
    OBJ_RELEASE(fb);
}
