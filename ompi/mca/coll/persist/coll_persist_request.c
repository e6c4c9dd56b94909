/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The persistent collective request and the engine that replays its
 * schedule: MPI_Start runs the start-time actions and starts round 0;
 * each time a round's point-to-point requests have completed, its actions
 * run and the next round starts, from MPI_Start itself while rounds finish
 * at once and from the progress callback otherwise.  Nothing here
 * allocates.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/mca/common/ompix/common_ompix_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "opal/runtime/opal_progress.h"

#include "coll_persist.h"

void mca_coll_persist_request_run_actions(mca_coll_persist_request_t *req, int begin, int end)
{
    for (int i = begin; i < end; ++i) {
        mca_coll_persist_action_t *a = &req->actions[i];
        switch (a->kind) {
        case MCA_COLL_PERSIST_COPY:
            ompi_datatype_copy_content_same_ddt(a->dtype, a->count, a->dst, a->src);
            break;
        case MCA_COLL_PERSIST_REDUCE:
            ompi_op_reduce(a->op, a->src, a->dst, a->count, a->dtype);
            break;
        case MCA_COLL_PERSIST_SNDRCV:
            mca_common_ompix_datatype_copy(a->src, a->src_count, a->src_dtype, a->dst, a->count,
                                           a->dtype);
            break;
        }
    }
}

/* True once every request of the round in flight is complete; they are
 * then made inactive again, ready for the next start.  A failed one sets
 * the collective's error. */
static bool mca_coll_persist_request_round_done(mca_coll_persist_request_t *req)
{
    mca_coll_persist_round_t *r = &req->rounds[req->round];

    for (int i = r->req_begin; i < r->req_end; ++i) {
        if (!REQUEST_COMPLETE(req->reqs[i])) {
            return false;
        }
    }
    for (int i = r->req_begin; i < r->req_end; ++i) {
        ompi_request_t *p = req->reqs[i];
        p->req_state = OMPI_REQUEST_INACTIVE;
        if (MPI_SUCCESS != p->req_status.MPI_ERROR) {
            req->super.super.req_status.MPI_ERROR = p->req_status.MPI_ERROR;
        }
    }
    return true;
}

/* Moves through every round that can finish now.  Returns true when the
 * collective is complete. */
static bool mca_coll_persist_request_advance(mca_coll_persist_request_t *req)
{
    if (NULL != req->shm) {
        return mca_coll_persist_shm_advance(req->shm);
    }
    if (NULL != req->bundle) {
        return mca_coll_persist_bundle_advance(req);
    }
    for (;;) {
        if (req->round >= 0) {
            if (!mca_coll_persist_request_round_done(req)) {
                return false;
            }
            mca_coll_persist_request_run_actions(req, req->rounds[req->round].act_begin,
                                                 req->rounds[req->round].act_end);
        }
        if (++req->round == req->nrounds || MPI_SUCCESS != req->super.super.req_status.MPI_ERROR) {
            return true;
        }
        mca_coll_persist_round_t *r = &req->rounds[req->round];
        if (r->req_end > r->req_begin) {
            int rc = MCA_PML_CALL(start(r->req_end - r->req_begin, &req->reqs[r->req_begin]));
            if (OMPI_SUCCESS != rc) {
                req->super.super.req_status.MPI_ERROR = rc;
                return true;
            }
        }
    }
}

/* A schedule's start: counted (MPI_T), then round 0. */
static inline bool mca_coll_persist_request_begin(mca_coll_persist_request_t *req)
{
    req->starts++;
    return NULL != req->bundle ? mca_coll_persist_bundle_start(req)
                               : mca_coll_persist_request_advance(req);
}

static void mca_coll_persist_request_complete(mca_coll_persist_request_t *req)
{
    if (OPAL_UNLIKELY(MPI_SUCCESS != req->start_error)) {
        req->super.super.req_status.MPI_ERROR = req->start_error;
        req->start_error = MPI_SUCCESS;
    }
    ompi_request_complete(&req->super.super, true);
}

/* Open MPI's MPI_Startall ignores what the start function returns, so a
 * request listed twice in one call (active when its second turn comes) is
 * reported by its completion: it runs once, matching the other ranks'
 * starts, and completes with MPI_ERR_REQUEST, which MPI_Wait/Test return
 * through the communicator's handler. */
static int mca_coll_persist_request_start(size_t count, ompi_request_t **requests)
{
    mca_coll_persist_component_t *c = &mca_coll_persist_component;
    static volatile int64_t calls;
    uint64_t call = (uint64_t) opal_atomic_add_fetch_64(&calls, 1);
    int rc = OMPI_SUCCESS;

    for (size_t i = 0; i < count; ++i) {
        mca_coll_persist_request_t *req = (mca_coll_persist_request_t *) requests[i];

        if (OMPI_REQUEST_ACTIVE == req->super.super.req_state) {
            if (req->start_call == call && REQUEST_COMPLETE(&req->super.super)) {
                req->super.super.req_status.MPI_ERROR = MPI_ERR_REQUEST;
            } else if (req->start_call == call) {
                req->start_error = MPI_ERR_REQUEST;     /* while it runs: at its end */
            }
            rc = MPI_ERR_REQUEST;        /* started twice */
            continue;
        }
        req->start_call = call;
        req->super.super.req_status = ompi_status_empty;
        req->super.super.req_status.MPI_ERROR = MPI_SUCCESS;
        req->super.super.req_complete = REQUEST_PENDING;
        req->super.super.req_state = OMPI_REQUEST_ACTIVE;
        req->round = -1;
        if (req->pre_actions > 0) {
            mca_coll_persist_request_run_actions(req, 0, req->pre_actions);
        }
        if (NULL != req->shm ? mca_coll_persist_shm_start(req->shm)
                             : mca_coll_persist_request_begin(req)) {
            mca_coll_persist_request_complete(req);
            continue;
        }
        OPAL_THREAD_LOCK(&c->lock);
        opal_list_append(&c->active, &req->active_item);
        OPAL_THREAD_UNLOCK(&c->lock);
    }
    return rc;
}

/* Completing a request may run callbacks that start or progress other
 * collectives, so requests are taken off the list under the lock and
 * completed after it, a batch at a time. */
#define PERSIST_PROGRESS_BATCH 16

int mca_coll_persist_progress(void)
{
    mca_coll_persist_component_t *c = &mca_coll_persist_component;
    mca_coll_persist_request_t *done[PERSIST_PROGRESS_BATCH];
    opal_list_item_t *item, *next;
    int n = 0;

    if (opal_list_is_empty(&c->active)) {
        return 0;
    }
    if (opal_using_threads() && 0 != opal_mutex_trylock(&c->lock)) {
        return 0;                        /* another thread is advancing them */
    }
    OPAL_LIST_FOREACH_SAFE(item, next, &c->active, opal_list_item_t) {
        mca_coll_persist_request_t *req = (mca_coll_persist_request_t *)
            ((char *) item - offsetof(mca_coll_persist_request_t, active_item));
        if (mca_coll_persist_request_advance(req)) {
            opal_list_remove_item(&c->active, item);
            done[n++] = req;
            if (PERSIST_PROGRESS_BATCH == n) {
                break;
            }
        }
    }
    if (opal_using_threads()) {
        opal_mutex_unlock(&c->lock);
    }
    for (int i = 0; i < n; ++i) {
        mca_coll_persist_request_complete(done[i]);
    }
    return n;
}

static int mca_coll_persist_request_free(ompi_request_t **request)
{
    mca_coll_persist_request_t *req = (mca_coll_persist_request_t *) *request;

    if (OMPI_REQUEST_ACTIVE == req->super.super.req_state && !REQUEST_COMPLETE(&req->super.super)) {
        return MPI_ERR_REQUEST;          /* MPI-4: freeing an active one is erroneous */
    }
    OMPI_REQUEST_FINI(&req->super.super);
    OBJ_RELEASE(req);
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int mca_coll_persist_request_cancel(ompi_request_t *request, int complete_flag)
{
    (void) request;
    (void) complete_flag;
    return MPI_ERR_REQUEST;
}

static void mca_coll_persist_request_construct(mca_coll_persist_request_t *req)
{
    OMPI_REQUEST_INIT(&req->super.super, true);
    req->super.super.req_type = OMPI_REQUEST_COLL;
    req->super.super.req_start = mca_coll_persist_request_start;
    req->super.super.req_free = mca_coll_persist_request_free;
    req->super.super.req_cancel = mca_coll_persist_request_cancel;
    OBJ_CONSTRUCT(&req->active_item, opal_list_item_t);
    req->comm = NULL;
    req->tag = 0;
    req->nrounds = req->nreqs = req->nactions = req->pre_actions = 0;
    req->round = -1;
    req->rounds = NULL;
    req->reqs = NULL;
    req->actions = NULL;
    req->tmp = NULL;
    req->op = NULL;
    req->dtype = NULL;
    req->shm = NULL;
    req->p2p = NULL;
    req->bundle = NULL;
    req->start_call = 0;
    req->start_error = MPI_SUCCESS;
    req->algorithm = MCA_COLL_PERSIST_ALG_OTHER;
    req->starts = 0;
    OBJ_CONSTRUCT(&req->mpit_item, opal_list_item_t);
}

static void mca_coll_persist_request_destruct(mca_coll_persist_request_t *req)
{
    mca_coll_persist_bundle_release(req);
    for (int i = 0; i < req->nreqs; ++i) {
        if (MPI_REQUEST_NULL != req->reqs[i]) {
            ompi_request_free(&req->reqs[i]);
        }
    }
    free(req->reqs);
    free(req->p2p);
    free(req->rounds);
    free(req->actions);
    free(req->tmp);
    mca_coll_persist_mpit_untrack(req);
    OBJ_DESTRUCT(&req->mpit_item);
    mca_coll_persist_shm_release(req->shm);
    if (NULL != req->op) {
        OBJ_RELEASE(req->op);
    }
    if (NULL != req->dtype) {
        OBJ_RELEASE(req->dtype);
    }
    OBJ_DESTRUCT(&req->active_item);
}

OBJ_CLASS_INSTANCE(mca_coll_persist_request_t, ompi_coll_base_nbc_request_t,
                   mca_coll_persist_request_construct, mca_coll_persist_request_destruct);
