/*
 * Copyright (c) 2026 The ompix developers.
 *
 * describe(): what a persistent point-to-point request was created with.
 * The selected PML's isend_init and irecv_init are wrapped (MPI_Send_init,
 * Bsend_init, Ssend_init, Rsend_init and Recv_init all end there); the
 * wrapper records the arguments, keyed by the request, and chains the
 * request's req_free so that the record goes with the request.  pml ucx
 * keeps neither the communicator nor the peer in its persistent requests:
 * this is the one way that works under every PML.  Ordinary messages never
 * come here.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/request/request.h"

#include "pml_chan.h"

typedef struct mca_pml_chan_record_t {
    mca_pml_chan_reqinfo_t info;
    ompi_request_free_fn_t req_free;    /* the PML's */
} mca_pml_chan_record_t;

int mca_pml_chan_describe_init(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    OBJ_CONSTRUCT(&c->records, opal_hash_table_t);
    if (OPAL_SUCCESS != opal_hash_table_init(&c->records, 256)) {
        OBJ_DESTRUCT(&c->records);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return OMPI_SUCCESS;
}

static void mca_pml_chan_record_release(mca_pml_chan_record_t *r)
{
    OBJ_RELEASE(r->info.type);
    OBJ_RELEASE(r->info.comm);
    free(r);
}

/* Requests still alive at MPI_Finalize: their records go, their req_free
 * stays ours and, should it still be called, finds no record. */
void mca_pml_chan_describe_fini(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    uint64_t key;
    void *value, *node = NULL;

    while (OPAL_SUCCESS == (NULL == node
                            ? opal_hash_table_get_first_key_uint64(&c->records, &key, &value,
                                                                   &node)
                            : opal_hash_table_get_next_key_uint64(&c->records, &key, &value,
                                                                  node, &node))) {
        mca_pml_chan_record_t *r = (mca_pml_chan_record_t *) value;
        ((ompi_request_t *) (uintptr_t) key)->req_free = r->req_free;
        mca_pml_chan_record_release(r);
    }
    OBJ_DESTRUCT(&c->records);
}

static mca_pml_chan_record_t *mca_pml_chan_record_take(ompi_request_t *req)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    void *value = NULL;

    OPAL_THREAD_LOCK(&c->lock);
    if (OPAL_SUCCESS == opal_hash_table_get_value_uint64(&c->records,
                                                         (uint64_t) (uintptr_t) req, &value)) {
        (void) opal_hash_table_remove_value_uint64(&c->records, (uint64_t) (uintptr_t) req);
    }
    OPAL_THREAD_UNLOCK(&c->lock);
    return (mca_pml_chan_record_t *) value;
}

/* The request's req_free while we hold a record of it.  The PML's own
 * function goes back into the request first: PMLs keep their requests in
 * free lists and reuse them for ordinary messages. */
static int mca_pml_chan_request_free(ompi_request_t **request)
{
    mca_pml_chan_record_t *r = mca_pml_chan_record_take(*request);
    ompi_request_free_fn_t req_free;

    if (NULL == r) {
        return MPI_ERR_REQUEST;        /* can not happen: we set req_free only with a record */
    }
    req_free = r->req_free;
    (*request)->req_free = req_free;
    mca_pml_chan_record_release(r);
    return req_free(request);
}

static void mca_pml_chan_record(ompi_request_t *req, int is_send, int mode, const void *buf,
                                size_t count, ompi_datatype_t *type, int peer, int tag,
                                ompi_communicator_t *comm)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_chan_record_t *r = malloc(sizeof(*r));

    /* Without a record describe() says MPI_ERR_REQUEST and the extension
     * falls back: not worth failing the user's call for. */
    if (NULL == r || NULL == req->req_free) {
        free(r);
        return;
    }
    r->info.is_send = is_send;
    r->info.send_mode = mode;
    r->info.buf = (void *) buf;
    r->info.count = count;
    r->info.type = type;
    r->info.peer = peer;
    r->info.tag = tag;
    r->info.comm = comm;
    r->req_free = req->req_free;
    /* The user may free both while the request lives. */
    OBJ_RETAIN(type);
    OBJ_RETAIN(comm);
    OPAL_THREAD_LOCK(&c->lock);
    if (OPAL_SUCCESS != opal_hash_table_set_value_uint64(&c->records,
                                                         (uint64_t) (uintptr_t) req, r)) {
        OPAL_THREAD_UNLOCK(&c->lock);
        mca_pml_chan_record_release(r);
        return;
    }
    OPAL_THREAD_UNLOCK(&c->lock);
    req->req_free = mca_pml_chan_request_free;
}

/* Open MPI's send modes in the numbering of pml_chan_api.h. */
static int mca_pml_chan_mode(mca_pml_base_send_mode_t mode)
{
    switch (mode) {
    case MCA_PML_BASE_SEND_BUFFERED:    return MCA_PML_CHAN_MODE_BUFFERED;
    case MCA_PML_BASE_SEND_SYNCHRONOUS: return MCA_PML_CHAN_MODE_SYNCHRONOUS;
    case MCA_PML_BASE_SEND_READY:       return MCA_PML_CHAN_MODE_READY;
    default:                            return MCA_PML_CHAN_MODE_STANDARD;
    }
}

int mca_pml_chan_isend_init(const void *buf, size_t count, struct ompi_datatype_t *datatype,
                            int dst, int tag, mca_pml_base_send_mode_t mode,
                            struct ompi_communicator_t *comm, struct ompi_request_t **request)
{
    int ret = mca_pml_chan_component.isend_init(buf, count, datatype, dst, tag, mode, comm,
                                                request);

    if (OMPI_SUCCESS == ret && NULL != *request && MPI_PROC_NULL != dst) {
        mca_pml_chan_record(*request, 1, mca_pml_chan_mode(mode), buf, count, datatype, dst, tag, comm);
    }
    return ret;
}

int mca_pml_chan_irecv_init(void *buf, size_t count, struct ompi_datatype_t *datatype, int src,
                            int tag, struct ompi_communicator_t *comm,
                            struct ompi_request_t **request)
{
    int ret = mca_pml_chan_component.irecv_init(buf, count, datatype, src, tag, comm, request);

    if (OMPI_SUCCESS == ret && NULL != *request && MPI_PROC_NULL != src) {
        mca_pml_chan_record(*request, 0, 0, buf, count, datatype, src, tag, comm);
    }
    return ret;
}

int mca_pml_chan_describe(MPI_Request req, mca_pml_chan_reqinfo_t *info)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    void *value = NULL;
    int ret = MPI_ERR_REQUEST;

    if (NULL == req || MPI_REQUEST_NULL == req || mca_pml_chan_request_free != req->req_free) {
        return MPI_ERR_REQUEST;
    }
    OPAL_THREAD_LOCK(&c->lock);
    if (OPAL_SUCCESS == opal_hash_table_get_value_uint64(&c->records,
                                                         (uint64_t) (uintptr_t) req, &value)) {
        *info = ((mca_pml_chan_record_t *) value)->info;
        ret = OMPI_SUCCESS;
    }
    OPAL_THREAD_UNLOCK(&c->lock);
    return ret;
}
