/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The generic fallback: a channel made of ordinary persistent requests of
 * the selected PML on a private tag (see mpiext_chan_internal.h), started
 * round-robin over K ring positions.  The channel request is a persistent
 * OMPI_REQUEST_PML request (MPI_Start, MPI_Startall, Wait/Test and
 * continuations handle those) that presents one start at a time: the
 * oldest one outstanding.  Its state is ACTIVE while starts are
 * outstanding; when Wait/Test has consumed the oldest (made the request
 * INACTIVE with starts still outstanding), ompix_chan_fb_settle moves on to
 * the next one.
 *
 * A position's request (a slot) is created at the first start that needs
 * it, so the memory a channel holds grows with the starts it really has
 * outstanding, not with its slack (a slack of 2^24 once spent minutes
 * creating 2^24 requests at bind).  Without address_base_increment every
 * position uses the same buffer and slots go back to a pool when consumed;
 * with it each position keeps its own (its buffer is the user's, K times
 * the message, so K slots are in proportion).
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/common/ompix/common_ompix_request.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/pml/base/pml_base_request.h"

#include "mpiext_chan_internal.h"

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
    fb->ring = NULL;
    fb->pool = fb->slots = NULL;
    fb->type = NULL;
    fb->head = fb->outstanding = 0;
    fb->presented = fb->unbinding = fb->watched = false;
    fb->show = MCA_COMMON_OMPIX_REQUEST_PLAIN;
    opal_atomic_lock_init(&fb->lock, OPAL_ATOMIC_LOCK_UNLOCKED);
}

static void ompix_chan_fb_destruct(ompix_chan_fb_t *fb)
{
    while (NULL != fb->slots) {
        ompix_chan_slot_t *slot = fb->slots;

        fb->slots = slot->all;
        free(slot);
    }
    free(fb->ring);
    if (NULL != fb->type) {
        OBJ_RELEASE(fb->type);
    }
    OMPI_REQUEST_FINI(&fb->super);
}
OBJ_CLASS_INSTANCE(ompix_chan_fb_t, ompi_request_t, ompix_chan_fb_construct,
                   ompix_chan_fb_destruct);

/* Whether another start is legal now (an armed channel shows it on 5.0:
 * common_ompix_compat_request.h; not while another layer, a persistent
 * continuation or a bundle, holds the channel: its rules decide), and the channel's own
 * state (parked is armed).  Lock held. */
static inline bool ompix_chan_fb_room(const ompix_chan_fb_t *fb)
{
    return fb->outstanding < fb->slack &&
           mca_common_ompix_request_own(&fb->super, ompix_chan_fb_start);
}

static inline ompi_request_state_t ompix_chan_fb_state(const ompix_chan_fb_t *fb)
{
    return mca_common_ompix_request_state(&fb->super, fb->show);
}

/* Whether the oldest start outstanding is complete.  Lock held. */
static bool ompix_chan_fb_head_done(const ompix_chan_fb_t *fb)
{
    const ompix_chan_slot_t *slot = fb->ring[fb->head];

    return MPI_PROC_NULL == fb->peer || (NULL != slot && slot->done);
}

/* The head's completion into the channel's status; the caller completes
 * the channel request outside the lock.  To MPI_PROC_NULL: source
 * MPI_PROC_NULL, tag MPI_ANY_TAG, count 0 (MPI-4.1 §3.10). */
static void ompix_chan_fb_present(ompix_chan_fb_t *fb)
{
    fb->presented = true;
    if (MPI_PROC_NULL == fb->peer) {
        fb->super.req_status = ompi_status_empty;
        fb->super.req_status.MPI_SOURCE = MPI_PROC_NULL;
        fb->super.req_status.MPI_TAG = MPI_ANY_TAG;
        fb->super.req_status._ucount = 0;
        return;
    }
    fb->super.req_status = fb->ring[fb->head]->req->req_status;
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
        && OMPI_REQUEST_ACTIVE == ompix_chan_fb_state(fb)) {
        ompix_chan_fb_present(fb);
        complete = true;
    }
    opal_atomic_unlock(&fb->lock);
    if (complete) {
        ompi_request_complete(&fb->super, true);
    }
    return 0;
}

/* The head's slot after its start was consumed: back to the pool when
 * every position uses the same buffer.  Lock held. */
static void ompix_chan_fb_release_head(ompix_chan_fb_t *fb)
{
    ompix_chan_slot_t *slot = fb->ring[fb->head];

    if (NULL == slot) {
        return;                            /* MPI_PROC_NULL */
    }
    slot->done = false;
    slot->req->req_state = OMPI_REQUEST_INACTIVE;
    if (0 == fb->stride) {
        fb->ring[fb->head] = NULL;
        slot->next = fb->pool;
        fb->pool = slot;
    }
}

/* With the lock held: the oldest start was consumed by Wait/Test; true if
 * the next one is already complete (the caller then completes fb). */
static bool ompix_chan_fb_settle_locked(ompix_chan_fb_t *fb)
{
    if (OMPI_REQUEST_INACTIVE != ompix_chan_fb_state(fb) || 0 == fb->outstanding
        || !fb->presented) {
        return false;
    }
    ompix_chan_fb_release_head(fb);
    fb->head = (fb->head + 1) % fb->slack;
    fb->presented = false;
    if (0 == --fb->outstanding) {
        return false;
    }
    fb->super.req_status = ompi_status_empty;
    fb->super.req_complete = REQUEST_PENDING;
    mca_common_ompix_request_arm(&fb->super, &fb->show, ompix_chan_fb_room(fb));
    if (ompix_chan_fb_head_done(fb)) {
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
    mca_common_ompix_request_release(&fb->super, &fb->show, ompix_chan_fb_room(fb));
    opal_atomic_unlock(&fb->lock);
    if (complete) {
        ompi_request_complete(&fb->super, true);
    }
}

/* The Wait/Test wrappers, before Open MPI's functions look at the channel:
 * a start another layer consumed (a continuation, which makes the channel
 * inactive as Wait would) settled, so that Wait/Test see the next one;
 * then (5.0) a parked channel shown armed until ompix_chan_fb_settle. */
void ompix_chan_fb_hold(ompix_chan_fb_t *fb)
{
    bool complete;

    opal_atomic_lock(&fb->lock);
    complete = ompix_chan_fb_settle_locked(fb);
    mca_common_ompix_request_hold(&fb->super, &fb->show);
    opal_atomic_unlock(&fb->lock);
    if (complete) {
        ompi_request_complete(&fb->super, true);
    }
}

/* A new slot for position index: its request created now. */
static ompix_chan_slot_t *ompix_chan_fb_slot_new(ompix_chan_fb_t *fb, int index)
{
    ompix_chan_slot_t *slot = calloc(1, sizeof(*slot));
    char *buf = (char *) fb->buf + (ptrdiff_t) index * fb->stride;
    int rc;

    if (NULL == slot) {
        return NULL;
    }
    slot->fb = fb;
    if (fb->is_send) {
        rc = MCA_PML_CALL(isend_init(buf, fb->count, fb->type, fb->peer, fb->data_tag,
                                     fb->sync ? MCA_PML_BASE_SEND_SYNCHRONOUS
                                              : MCA_PML_BASE_SEND_STANDARD,
                                     fb->comm, &slot->req));
    } else {
        rc = MCA_PML_CALL(irecv_init(buf, fb->count, fb->type, fb->peer, fb->data_tag,
                                     fb->comm, &slot->req));
    }
    if (OMPI_SUCCESS != rc) {
        free(slot);
        return NULL;
    }
    slot->all = fb->slots;
    fb->slots = slot;
    return slot;
}

/* The slot that serves position index: the one it keeps (increment), one
 * from the pool, or a new one.  Only the thread starting the channel
 * touches the pool and the chain of slots. */
static ompix_chan_slot_t *ompix_chan_fb_slot_get(ompix_chan_fb_t *fb, int index)
{
    ompix_chan_slot_t *slot = fb->ring[index];

    if (NULL != slot) {
        return slot;
    }
    if (NULL != fb->pool) {
        opal_atomic_lock(&fb->lock);
        slot = fb->pool;
        fb->pool = slot->next;
        opal_atomic_unlock(&fb->lock);
        return slot;
    }
    return ompix_chan_fb_slot_new(fb, index);
}

/* One more start outstanding; true when the channel must be completed
 * (a start to MPI_PROC_NULL that is now the oldest).  Lock held. */
static bool ompix_chan_fb_count_start(ompix_chan_fb_t *fb, int index)
{
    ompix_chan_fb_mpit_started();
    if (0 == fb->outstanding++) {
        fb->presented = false;
        fb->super.req_status = ompi_status_empty;
        fb->super.req_complete = REQUEST_PENDING;
        mca_common_ompix_request_arm(&fb->super, &fb->show, ompix_chan_fb_room(fb));
    } else {
        /* 5.0: shown ACTIVE once the slack is used up. */
        mca_common_ompix_request_reshow(&fb->super, &fb->show, ompix_chan_fb_room(fb));
    }
    if (MPI_PROC_NULL == fb->peer && index == fb->head && !fb->presented) {
        ompix_chan_fb_present(fb);
        return true;
    }
    return false;
}

/* Settles what Wait/Test consumed and finds the next position; -1 when K
 * starts are outstanding. */
static int ompix_chan_fb_next_index(ompix_chan_fb_t *fb)
{
    bool complete, full;
    int index;

    opal_atomic_lock(&fb->lock);
    complete = ompix_chan_fb_settle_locked(fb);
    full = fb->outstanding == fb->slack;
    index = (fb->head + fb->outstanding) % fb->slack;
    opal_atomic_unlock(&fb->lock);
    if (complete) {
        ompi_request_complete(&fb->super, true);
    }
    return full ? -1 : index;
}

/* One start; an error is returned unreported, with its reason in *why
 * (ompix_chan_fb_start reports it). */
static int ompix_chan_fb_start_one(ompix_chan_fb_t *fb, const char **why)
{
    ompix_chan_slot_t *slot = NULL;
    bool complete;
    int index = ompix_chan_fb_next_index(fb);

    if (index < 0) {
        *why = "more starts of a channel outstanding than its slack";
        return MPI_ERR_REQUEST;
    }
    if (MPI_PROC_NULL != fb->peer && NULL == (slot = ompix_chan_fb_slot_get(fb, index))) {
        *why = "cannot create the request of a channel's start";
        return MPI_ERR_NO_MEM;
    }
    opal_atomic_lock(&fb->lock);
    if (NULL != slot) {
        slot->index = index;
        slot->done = false;
        fb->ring[index] = slot;
    }
    complete = ompix_chan_fb_count_start(fb, index);
    opal_atomic_unlock(&fb->lock);
    if (NULL == slot) {
        if (complete) {
            ompi_request_complete(&fb->super, true);
        }
        return OMPI_SUCCESS;
    }
    /* Its callback completed the channel before its own completion mark. */
    mca_common_ompix_request_wait_marked(slot->req);
    slot->req->req_complete_cb_data = slot;
    slot->req->req_complete_cb = ompix_chan_fb_inner_done;
    /* Started in place: a PML may hand back another request (ob1 does for
     * a send that is MPI-complete but not yet PML-complete, copying the
     * callback and freeing the old one later), and the slot must then hold
     * the new one. */
    *why = "the PML could not start the channel's message";
    return MCA_PML_CALL(start(1, &slot->req));
}

/* req_start (MPI_Start, MPI_Startall, a bundle's or a continuation's
 * start): each error reported once, through the channel's communicator or
 * by 5.0's MPI_Start (common_ompix_compat_request.h). */
int ompix_chan_fb_start(size_t count, ompi_request_t **reqs)
{
    int rc = OMPI_SUCCESS;

    for (size_t i = 0; i < count; ++i) {
        ompix_chan_fb_t *fb = (ompix_chan_fb_t *) reqs[i];
        const char *why = NULL;
        int r = ompix_chan_fb_start_one(fb, &why);

        if (OMPI_SUCCESS != r) {
            rc = mca_common_ompix_request_start_error(fb->comm, r,
                                                      MCA_COMMON_OMPIX_REQUEST_CALLER(), why);
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

/* The channel's K ring positions (no slot yet) and, when it grows past one
 * slack, its place among the channels Wait/Test settle. */
static int ompix_chan_fb_ring(ompix_chan_fb_t *fb, int slack)
{
    fb->slack = slack;
    fb->ring = calloc(slack, sizeof(*fb->ring));
    if (NULL == fb->ring) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ompix_chan_fb_mpit_created();
    if (fb->slack > 1) {
        fb->watched = true;
        opal_atomic_add_fetch_32(&ompix_chan_global.num_watched, 1);
    }
    if (fb->slack > 1 || opal_using_threads()) {
        /* (threads: its Wait drives progress itself, mpiext_chan_wait.c) */
        ompix_chan_wait_install();
    }
    return OMPI_SUCCESS;
}

/* A fallback channel end for spec on the private tag data_tag; statuses
 * report user_tag (the bound send's tag).  OMPI_ERR_OUT_OF_RESOURCE when
 * its K positions do not fit in memory. */
int ompix_chan_fb_create(const mca_pml_chan_spec_t *spec, int data_tag, int user_tag,
                         ompi_request_t **chan)
{
    const mca_pml_chan_reqinfo_t *r = &spec->req;
    ompix_chan_fb_t *fb = OBJ_NEW(ompix_chan_fb_t);
    ptrdiff_t lb, extent;

    if (NULL == fb) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    fb->comm = r->comm;
    fb->is_send = r->is_send;
    fb->peer = r->peer;
    fb->user_tag = user_tag;
    fb->super.req_mpi_object.comm = r->comm;
    fb->buf = r->buf;
    fb->count = r->count;
    fb->type = r->type;
    OBJ_RETAIN(fb->type);
    fb->data_tag = data_tag;
    fb->sync = spec->sync;
    ompi_datatype_get_extent(r->type, &lb, &extent);
    fb->stride = (ptrdiff_t) spec->increment * extent;
    if (OMPI_SUCCESS != ompix_chan_fb_ring(fb, spec->slack)) {
        OBJ_RELEASE(fb);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    *chan = &fb->super;
    return OMPI_SUCCESS;
}

/* A channel bound from a request to MPI_PROC_NULL: no peer, no message;
 * each start completes at once.  Errors go to MPI_COMM_WORLD's handler
 * (Open MPI's request keeps no communicator). */
int ompix_chan_fb_create_null(int slack, ompi_request_t **chan)
{
    ompix_chan_fb_t *fb = OBJ_NEW(ompix_chan_fb_t);

    if (NULL == fb) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    fb->comm = &ompi_mpi_comm_world.comm;
    fb->super.req_mpi_object.comm = fb->comm;
    fb->peer = MPI_PROC_NULL;
    fb->user_tag = MPI_ANY_TAG;
    if (OMPI_SUCCESS != ompix_chan_fb_ring(fb, slack)) {
        OBJ_RELEASE(fb);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    *chan = &fb->super;
    return OMPI_SUCCESS;
}

/* Releases the slots' requests (cancelling starts still outstanding when
 * MPI_Finalize releases the channel). */
void ompix_chan_fb_destroy(ompix_chan_fb_t *fb, bool finalizing)
{
    if (fb->watched) {
        opal_atomic_add_fetch_32(&ompix_chan_global.num_watched, -1);
    }
    for (ompix_chan_slot_t *slot = fb->slots; NULL != slot; slot = slot->all) {
        ompi_request_t *inner = slot->req;

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
        ompi_request_free(&slot->req);
    }
    OBJ_RELEASE(fb);
}
