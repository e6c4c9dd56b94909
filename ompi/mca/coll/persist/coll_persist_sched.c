/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Building a schedule at init: every point-to-point request is created here
 * as a persistent request, every array sized here, so that MPI_Start never
 * allocates.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/mca/pml/pml.h"

#include "coll_persist.h"

static int mca_coll_persist_grow(void **array, int *cap, int need, size_t elem)
{
    void *p;
    int cap2;

    if (need <= *cap) {
        return OMPI_SUCCESS;
    }
    cap2 = *cap ? 2 * *cap : 8;
    while (cap2 < need) {
        cap2 *= 2;
    }
    p = realloc(*array, (size_t) cap2 * elem);
    if (NULL == p) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    *array = p;
    *cap = cap2;
    return OMPI_SUCCESS;
}

int mca_coll_persist_request_new(ompi_communicator_t *comm, ompi_op_t *op,
                                 ompi_datatype_t *dtype, size_t tmp_bytes,
                                 mca_coll_persist_builder_t *b)
{
    mca_coll_persist_request_t *req = OBJ_NEW(mca_coll_persist_request_t);

    b->req = req;
    b->cap_reqs = b->cap_actions = b->cap_rounds = b->cap_p2p = 0;
    if (NULL == req) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    req->comm = comm;
    req->super.super.req_mpi_object.comm = comm;
    if (0 != tmp_bytes && NULL == (req->tmp = malloc(tmp_bytes))) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (NULL != op) {
        OBJ_RETAIN(op);
        req->op = op;
    }
    if (NULL != dtype) {
        OBJ_RETAIN(dtype);
        req->dtype = dtype;
    }
    /* Matching follows init order on every rank: one tag from the
     * communicator's shared nonblocking-collective counter. */
    req->tag = ompi_coll_base_nbc_reserve_tags(comm, 1);
    return OMPI_SUCCESS;
}

static void mca_coll_persist_close_round(mca_coll_persist_request_t *req)
{
    if (req->nrounds > 0) {
        mca_coll_persist_round_t *r = &req->rounds[req->nrounds - 1];
        r->req_end = req->nreqs;
        r->act_end = req->nactions;
    } else {
        req->pre_actions = req->nactions;
    }
}

int mca_coll_persist_round(mca_coll_persist_builder_t *b)
{
    mca_coll_persist_request_t *req = b->req;
    mca_coll_persist_round_t *r;
    int rc = mca_coll_persist_grow((void **) &req->rounds, &b->cap_rounds, req->nrounds + 1,
                                   sizeof(*r));

    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    mca_coll_persist_close_round(req);
    r = &req->rounds[req->nrounds++];
    r->req_begin = r->req_end = req->nreqs;
    r->act_begin = r->act_end = req->nactions;
    return OMPI_SUCCESS;
}

/* The next request's slot, its arguments recorded for a plan on bundles. */
static ompi_request_t **mca_coll_persist_next_req(mca_coll_persist_builder_t *b, const void *buf,
                                                  int count, ompi_datatype_t *dtype, int peer,
                                                  bool send)
{
    mca_coll_persist_request_t *req = b->req;
    if (OMPI_SUCCESS != mca_coll_persist_grow((void **) &req->reqs, &b->cap_reqs, req->nreqs + 1,
                                              sizeof(*req->reqs))
        || OMPI_SUCCESS != mca_coll_persist_grow((void **) &req->p2p, &b->cap_p2p,
                                                 req->nreqs + 1, sizeof(*req->p2p))) {
        return NULL;
    }
    req->p2p[req->nreqs] = (mca_coll_persist_p2p_t) {.buf = (void *) buf, .count = count,
                                                     .dtype = dtype, .peer = peer,
                                                     .tag = req->tag, .send = send};
    req->reqs[req->nreqs] = MPI_REQUEST_NULL;
    return &req->reqs[req->nreqs];
}

int mca_coll_persist_send(mca_coll_persist_builder_t *b, const void *buf, int count,
                          ompi_datatype_t *dtype, int peer)
{
    ompi_request_t **slot = mca_coll_persist_next_req(b, buf, count, dtype, peer, true);
    int rc;

    if (NULL == slot) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    rc = MCA_PML_CALL(isend_init(buf, count, dtype, peer, b->req->tag,
                                 MCA_PML_BASE_SEND_STANDARD, b->req->comm, slot));
    if (OMPI_SUCCESS == rc) {
        b->req->nreqs++;
    }
    return rc;
}

int mca_coll_persist_recv(mca_coll_persist_builder_t *b, void *buf, int count,
                          ompi_datatype_t *dtype, int peer)
{
    ompi_request_t **slot = mca_coll_persist_next_req(b, buf, count, dtype, peer, false);
    int rc;

    if (NULL == slot) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    rc = MCA_PML_CALL(irecv_init(buf, count, dtype, peer, b->req->tag, b->req->comm, slot));
    if (OMPI_SUCCESS == rc) {
        b->req->nreqs++;
    }
    return rc;
}

int mca_coll_persist_action(mca_coll_persist_builder_t *b, mca_coll_persist_action_kind_t kind,
                            const void *src, void *dst, int count, ompi_datatype_t *dtype,
                            ompi_op_t *op)
{
    mca_coll_persist_request_t *req = b->req;
    mca_coll_persist_action_t *a;
    int rc = mca_coll_persist_grow((void **) &req->actions, &b->cap_actions, req->nactions + 1,
                                   sizeof(*a));

    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    a = &req->actions[req->nactions++];
    a->kind = kind;
    a->src = (void *) src;
    a->dst = dst;
    a->count = count;
    a->dtype = dtype;
    a->op = op;
    a->src_count = count;
    a->src_dtype = dtype;
    return OMPI_SUCCESS;
}

int mca_coll_persist_action2(mca_coll_persist_builder_t *b, const void *src, int scount,
                             ompi_datatype_t *sdtype, void *dst, int dcount,
                             ompi_datatype_t *ddtype)
{
    int rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_SNDRCV, src, dst, dcount, ddtype, NULL);
    if (OMPI_SUCCESS == rc) {
        b->req->actions[b->req->nactions - 1].src_count = scount;
        b->req->actions[b->req->nactions - 1].src_dtype = sdtype;
    }
    return rc;
}

int mca_coll_persist_finish(mca_coll_persist_builder_t *b, ompi_request_t **request)
{
    mca_coll_persist_close_round(b->req);
    mca_coll_persist_mpit_track(b->req);
    *request = &b->req->super.super;
    b->req = NULL;
    return OMPI_SUCCESS;
}

void mca_coll_persist_abandon(mca_coll_persist_builder_t *b)
{
    if (NULL != b->req) {
        ompi_request_t *r = &b->req->super.super;
        ompi_request_free(&r);
        b->req = NULL;
    }
}

int mca_coll_persist_end(mca_coll_persist_builder_t *b, int rc, ompi_request_t **request)
{
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(b);
        return rc;
    }
    return mca_coll_persist_finish(b, request);
}
