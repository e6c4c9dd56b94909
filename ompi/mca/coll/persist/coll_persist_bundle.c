/*
 * Copyright (c) 2026 The ompix developers.
 *
 * A schedule run as a bundle of bound channels (issue 25): round r's
 * transfers become channels in one round of the bundle, its local actions
 * a persistent generalized request in the next round (the actions read
 * what the round received and write what the next one sends), so the
 * channel extension's engine starts every round itself.  Used when the
 * channel extension published its bundle contract
 * (common_ompix_bundle_ops.h) and pml/chan's engine serves every channel
 * of the plan; otherwise the schedule runs as before.  Channels need
 * synchronous sends: a peer may start a round before this rank started
 * the matching receive, and a channel from a standard send has no flow
 * control; so each send is made again with MCA_PML_BASE_SEND_SYNCHRONOUS
 * before binding (the plan's own requests stay for the fallback).
 *
 * Every step that may fail on one rank only (binding, the engine serving
 * a pair, the bundle's creation) is agreed on by an allreduce before the
 * plan is used: a rank on channels and a peer on its requests would never
 * match.  What is undone then is local (unbinding, freeing).
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/mca/common/ompix/common_ompix_bundle_ops.h"
#include "ompi/mca/common/ompix/common_ompix_registry.h"
#include "ompi/mca/pml/pml.h"

#include "coll_persist.h"

/* The local actions of one round, as a generalized request's state. */
typedef struct {
    mca_coll_persist_request_t *req;
    int begin, end;
} mca_coll_persist_bundle_acts_t;

struct mca_coll_persist_bundle_t {
    const mca_common_ompix_bundle_ops_t *ops;
    ompi_request_t *bundle;
    int n;                                   /* transfers */
    ompi_request_t **bound;                  /* bound from: a synchronous send or the receive */
    ompi_request_t **chans;
    int ngreqs;
    ompi_request_t **greqs;
    mca_coll_persist_bundle_acts_t *acts;
};

static int mca_coll_persist_bundle_acts_start(void *state)
{
    mca_coll_persist_bundle_acts_t *a = state;
    mca_coll_persist_request_run_actions(a->req, a->begin, a->end);
    return MPI_SUCCESS;
}

static int mca_coll_persist_bundle_acts_poll(void *state, int *completed)
{
    (void) state;
    *completed = 1;
    return MPI_SUCCESS;
}

/* Whether this rank can plan on bundles: the contract is there, the plan
 * is a schedule with transfers, none to itself (a channel joins two
 * processes). */
static const mca_common_ompix_bundle_ops_t *
mca_coll_persist_bundle_ops(mca_coll_persist_request_t *req)
{
    int me = ompi_comm_rank(req->comm);

    if (NULL != req->shm || 0 == req->nreqs) {
        return NULL;
    }
    for (int i = 0; i < req->nreqs; ++i) {
        if (me == req->p2p[i].peer) {
            return NULL;
        }
    }
    return mca_common_ompix_registry_lookup(MCA_COMMON_OMPIX_BUNDLE_OPS_NAME,
                                            MCA_COMMON_OMPIX_BUNDLE_OPS_VERSION);
}

/* The requests to bind: a synchronous copy of each send, each receive. */
static int mca_coll_persist_bundle_sources(mca_coll_persist_request_t *req,
                                           mca_coll_persist_bundle_t *bun)
{
    for (int i = 0; i < bun->n; ++i) {
        mca_coll_persist_p2p_t *p = &req->p2p[i];
        bun->bound[i] = req->reqs[i];
        if (p->send) {
            bun->bound[i] = MPI_REQUEST_NULL;
            int rc = MCA_PML_CALL(isend_init(p->buf, p->count, p->dtype, p->peer, p->tag,
                                             MCA_PML_BASE_SEND_SYNCHRONOUS, req->comm,
                                             &bun->bound[i]));
            if (OMPI_SUCCESS != rc) {
                return rc;
            }
        }
    }
    return OMPI_SUCCESS;
}

/* Members round by round: the channels of round r, then (its own round)
 * a generalized request running round r's actions when it has any. */
static int mca_coll_persist_bundle_build(mca_coll_persist_request_t *req,
                                         mca_coll_persist_bundle_t *bun)
{
    int *sizes = malloc(sizeof(int) * (size_t) (2 * req->nrounds + 1));
    ompi_request_t **members = malloc(sizeof(*members) * (size_t) (bun->n + req->nrounds + 1));
    int nr = 0, m = 0, rc = OMPI_SUCCESS;

    for (int r = 0; NULL != sizes && NULL != members && OMPI_SUCCESS == rc && r < req->nrounds;
         ++r) {
        mca_coll_persist_round_t *round = &req->rounds[r];
        if (round->req_end > round->req_begin) {
            sizes[nr++] = round->req_end - round->req_begin;
            for (int i = round->req_begin; i < round->req_end; ++i) {
                members[m++] = bun->chans[i];
            }
        }
        if (round->act_end > round->act_begin) {
            mca_coll_persist_bundle_acts_t *a = &bun->acts[bun->ngreqs];
            *a = (mca_coll_persist_bundle_acts_t) {req, round->act_begin, round->act_end};
            rc = bun->ops->greq_init(mca_coll_persist_bundle_acts_start,
                                     mca_coll_persist_bundle_acts_poll, NULL, a,
                                     &bun->greqs[bun->ngreqs]);
            if (OMPI_SUCCESS == rc) {
                members[m++] = bun->greqs[bun->ngreqs++];
                sizes[nr++] = 1;
            }
        }
    }
    if (NULL == sizes || NULL == members) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
    } else if (OMPI_SUCCESS == rc) {
        rc = bun->ops->bundle_init(nr, sizes, members, &bun->bundle);
    }
    free(sizes);
    free(members);
    return rc;
}

static mca_coll_persist_bundle_t *
mca_coll_persist_bundle_new(mca_coll_persist_request_t *req, const mca_common_ompix_bundle_ops_t *ops)
{
    mca_coll_persist_bundle_t *bun = calloc(1, sizeof(*bun));

    if (NULL == bun) {
        return NULL;
    }
    bun->ops = ops;
    bun->n = req->nreqs;
    bun->bound = calloc((size_t) bun->n, sizeof(*bun->bound));
    bun->chans = calloc((size_t) bun->n, sizeof(*bun->chans));
    bun->greqs = calloc((size_t) req->nrounds + 1, sizeof(*bun->greqs));
    bun->acts = calloc((size_t) req->nrounds + 1, sizeof(*bun->acts));
    if (NULL == bun->bound || NULL == bun->chans || NULL == bun->greqs || NULL == bun->acts) {
        req->bundle = bun;
        mca_coll_persist_bundle_release(req);
        return NULL;
    }
    return bun;
}

void mca_coll_persist_bundle_try(ompi_communicator_t *comm, ompi_request_t *request,
                                 mca_coll_persist_effort_t effort, bool neighbor)
{
    int mode = mca_coll_persist_component.bundle;

    mca_coll_persist_request_t *req = (mca_coll_persist_request_t *) request;
    const mca_common_ompix_bundle_ops_t *ops = NULL;
    mca_coll_persist_bundle_t *bun = NULL;
    bool ok = true;
    int rc;

    /* not selected, or low (given alike on every rank): no communication at init */
    if (MCA_COLL_PERSIST_BUNDLE_OFF == mode || MCA_COLL_PERSIST_EFFORT_LOW == effort
        || (MCA_COLL_PERSIST_BUNDLE_NEIGHBOR == mode && !neighbor)) {
        return;
    }
    if (NULL != req) {
        ops = mca_coll_persist_bundle_ops(req);
    }
    if (!mca_coll_persist_agree(comm, NULL != ops)) {
        return;
    }
    bun = mca_coll_persist_bundle_new(req, ops);
    rc = NULL == bun ? OMPI_ERR_OUT_OF_RESOURCE : mca_coll_persist_bundle_sources(req, bun);
    if (!mca_coll_persist_agree(req->comm, OMPI_SUCCESS == rc)) {
        req->bundle = bun;
        mca_coll_persist_bundle_release(req);
        return;
    }
    rc = ops->bind(bun->n, bun->bound, bun->chans);
    for (int i = 0; OMPI_SUCCESS == rc && i < bun->n; ++i) {
        ok = ok && ops->engine(bun->chans[i]);
    }
    if (mca_coll_persist_agree(req->comm, OMPI_SUCCESS == rc && ok)) {
        rc = mca_coll_persist_bundle_build(req, bun);
        ok = mca_coll_persist_agree(req->comm, OMPI_SUCCESS == rc);
    } else {
        ok = false;
    }
    req->bundle = bun;
    if (!ok) {
        mca_coll_persist_bundle_release(req);
    }
}

bool mca_coll_persist_bundle_start(mca_coll_persist_request_t *req)
{
    int rc = req->bundle->bundle->req_start(1, &req->bundle->bundle);

    if (OMPI_SUCCESS != rc) {
        req->super.super.req_status.MPI_ERROR = rc;
        return true;
    }
    return mca_coll_persist_bundle_advance(req);
}

/* Complete once the bundle is; it is then made inactive, as Wait would. */
bool mca_coll_persist_bundle_advance(mca_coll_persist_request_t *req)
{
    ompi_request_t *b = req->bundle->bundle;

    if (!REQUEST_COMPLETE(b)) {
        return false;
    }
    b->req_state = OMPI_REQUEST_INACTIVE;
    if (MPI_SUCCESS != b->req_status.MPI_ERROR) {
        req->super.super.req_status.MPI_ERROR = b->req_status.MPI_ERROR;
    }
    return true;
}

/* Frees the bundle (which gives its members back), the generalized
 * requests, the channels and the synchronous sends; the plan's own
 * requests are the request's. */
void mca_coll_persist_bundle_release(mca_coll_persist_request_t *req)
{
    mca_coll_persist_bundle_t *bun = req->bundle;

    if (NULL == bun) {
        return;
    }
    req->bundle = NULL;
    if (NULL != bun->bundle) {
        ompi_request_free(&bun->bundle);
    }
    for (int i = 0; i < bun->ngreqs; ++i) {
        ompi_request_free(&bun->greqs[i]);
    }
    for (int i = 0; NULL != bun->chans && i < bun->n; ++i) {
        if (NULL != bun->chans[i] && MPI_REQUEST_NULL != bun->chans[i]) {
            bun->ops->unbind(1, &bun->chans[i]);
        }
    }
    for (int i = 0; NULL != bun->bound && i < bun->n; ++i) {
        if (NULL != bun->bound[i] && MPI_REQUEST_NULL != bun->bound[i]
            && bun->bound[i] != req->reqs[i]) {
            ompi_request_free(&bun->bound[i]);
        }
    }
    free(bun->bound);
    free(bun->chans);
    free(bun->greqs);
    free(bun->acts);
    free(bun);
}
