/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The bind protocol (docs/ARCHITECTURE.md, "Channels"): the send end posts
 * an offer to its destination on OMPIX_CHAN_TAG_OFFER; the receive end
 * receives offers with one MPI_ANY_SOURCE receive per communicator,
 * matches them to its pending receive binds in MPI order (an offer that
 * matches none waits for a later bind), checks sizes, slack and types, and
 * replies on the tag the offer named.  Every bind form posts all its ends
 * first and then lets the progress callback drive them, so no order of
 * pairs can deadlock.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/pml/base/pml_base_request.h"

#include "mpiext_chan_internal.h"

static __thread bool ompix_chan_in_progress = false;

/* `mode`: the bound send's (MCA_PML_CHAN_MODE_*), which a receive's spec
 * names too: the engine's flow control follows it at both ends. */
static void ompix_chan_bind_spec(const ompix_chan_bind_t *b, int mode, size_t bytes,
                                 mca_pml_chan_spec_t *spec)
{
    spec->req = b->info;
    spec->req.send_mode = mode;
    spec->sync = MCA_PML_CHAN_MODE_SYNCHRONOUS == mode;
    spec->slack = b->slack;
    spec->increment = b->increment;
    spec->bytes = bytes;
}

/* The engine's half for this end, or none (*len 0). */
static void ompix_chan_bind_prepare(ompix_chan_bind_t *b, const mca_pml_chan_spec_t *spec,
                                    void *blob, size_t *len)
{
    const mca_pml_chan_api_t *engine = ompix_chan_global.engine;

    *len = 0;
    b->half = NULL;
    if (NULL == engine || NULL == engine->prepare) {
        return;
    }
    *len = MCA_PML_CHAN_BLOB_MAX;
    if (OMPI_SUCCESS != engine->prepare(spec, &b->half, blob, len) || 0 == *len) {
        if (NULL != b->half) {
            engine->abandon(b->half);
        }
        b->half = NULL;
        *len = 0;
    }
}

/* This end's channel: the engine's when both ends brought a blob, the
 * fallback's otherwise.  Called with the global lock held. */
static int ompix_chan_bind_connect(ompix_chan_bind_t *b, const mca_pml_chan_spec_t *spec,
                                   const void *peer_blob, size_t peer_len, int data_tag,
                                   int user_tag)
{
    const mca_pml_chan_api_t *engine = ompix_chan_global.engine;
    int rc;

    if (NULL != b->half && peer_len > 0) {
        rc = engine->connect(b->half, peer_blob, peer_len, &b->chan);
        b->half = NULL;
        if (OMPI_SUCCESS == rc) {
            /* Its Wait/Test go to the engine first (mpiext_chan_wait.c). */
            ompix_chan_wait_install();
        }
        if (OMPI_SUCCESS == rc && spec->slack > 1) {
            opal_atomic_add_fetch_32(&ompix_chan_global.num_watched, 1);
            ompix_chan_add_locked(b->chan, OMPIX_CHAN_KIND_ENGINE_SLACK);
        } else if (OMPI_SUCCESS == rc) {
            ompix_chan_add_locked(b->chan, OMPIX_CHAN_KIND_ENGINE);
        }
        return rc;
    }
    if (NULL != b->half) {
        engine->abandon(b->half);
        b->half = NULL;
    }
    rc = ompix_chan_fb_create(spec, data_tag, user_tag, &b->chan);
    if (OMPI_SUCCESS == rc) {
        ompix_chan_add_locked(b->chan, OMPIX_CHAN_KIND_FALLBACK);
    }
    return rc;
}

/* The MPI class of a channel that could not be built. */
static int ompix_chan_bind_class(int rc)
{
    return OMPI_ERR_OUT_OF_RESOURCE == rc ? MPI_ERR_NO_MEM : MPI_ERR_OTHER;
}

/* The send's type signature into the offer: its runs follow the blob. */
static size_t ompix_chan_bind_offer_sig(ompix_chan_bind_t *b, ompix_chan_wire_offer_t *w,
                                        size_t blob_len)
{
    ompix_chan_sig_t sig;
    size_t len;

    ompix_chan_sig_make(b->info.type, b->info.count, UINT64_MAX, &sig);
    w->sig_flags = sig.flags;
    w->sig_total = sig.total;
    w->sig_hash = sig.hash;
    w->sig_runs = (sig.flags & OMPIX_CHAN_SIG_OVER) ? 0 : sig.nruns;
    w->pad = 0;
    len = w->sig_runs * sizeof(sig.runs[0]);
    memcpy(b->out + sizeof(*w) + blob_len, sig.runs, len);
    return len;
}

/* Send end: the offer and the receive of its reply. */
static int ompix_chan_bind_post_send(ompix_chan_bind_t *b)
{
    ompix_chan_wire_offer_t *w = (ompix_chan_wire_offer_t *) b->out;
    mca_pml_chan_spec_t spec;
    size_t len, sig_len;
    int rc;

    b->my_tag = ompix_chan_next_tag(b->cs);
    ompix_chan_bind_spec(b, b->info.send_mode, b->bytes, &spec);
    ompix_chan_bind_prepare(b, &spec, b->out + sizeof(*w), &len);
    b->blob_len = len;
    w->magic = OMPIX_CHAN_MAGIC_OFFER;
    w->tag = b->info.tag;
    w->mode = b->info.send_mode;
    w->slack = b->slack;
    w->reply_tag = b->my_tag;
    w->bytes = b->bytes;
    w->blob_len = len;
    sig_len = ompix_chan_bind_offer_sig(b, w, len);
    b->state = OMPIX_CHAN_BIND_WAIT_REPLY;
    rc = MCA_PML_CALL(irecv(b->in, OMPIX_CHAN_MSG_MAX, MPI_BYTE, b->info.peer, b->my_tag,
                            b->info.comm, &b->rreq));
    if (OMPI_SUCCESS == rc) {
        rc = MCA_PML_CALL(isend(b->out, sizeof(*w) + len + sig_len, MPI_BYTE, b->info.peer,
                                OMPIX_CHAN_TAG_OFFER, MCA_PML_BASE_SEND_STANDARD,
                                b->info.comm, &b->sreq));
    }
    opal_list_append(&b->cs->busy, &b->super);
    return rc;
}

static bool ompix_chan_offer_matches(const ompix_chan_bind_t *b, const ompix_chan_offer_t *o)
{
    const ompix_chan_wire_offer_t *w = (const ompix_chan_wire_offer_t *) o->msg;

    return (MPI_ANY_SOURCE == b->info.peer || o->source == b->info.peer)
        && (MPI_ANY_TAG == b->info.tag || w->tag == b->info.tag);
}

/* The error class both ends report for this pair, or MPI_SUCCESS: slack,
 * then the type rule and truncation (ompix_chan_sig_check says which comes
 * first). */
static int ompix_chan_offer_check(const ompix_chan_bind_t *b, const ompix_chan_offer_t *o)
{
    const ompix_chan_wire_offer_t *w = (const ompix_chan_wire_offer_t *) o->msg;
    ompix_chan_sig_run_t runs[OMPIX_CHAN_SIG_RUNS];
    size_t at = sizeof(*w) + w->blob_len;

    if (w->slack != b->slack) {
        return MPI_ERR_ARG;
    }
    if (w->blob_len > MCA_PML_CHAN_BLOB_MAX || w->sig_runs > OMPIX_CHAN_SIG_RUNS
        || o->len < at + w->sig_runs * sizeof(runs[0])) {
        return MPI_ERR_INTERN;      /* not an offer of this version */
    }
    memcpy(runs, o->msg + at, w->sig_runs * sizeof(runs[0]));
    return ompix_chan_sig_check(w, runs, b->bytes, b->info.type, b->info.count);
}

/* Receive end: offer o matched b; build the channel and post the reply.
 * Called with the global lock held. */
static void ompix_chan_bind_accept(ompix_chan_bind_t *b, ompix_chan_offer_t *o)
{
    const ompix_chan_wire_offer_t *w = (const ompix_chan_wire_offer_t *) o->msg;
    ompix_chan_wire_reply_t *r = (ompix_chan_wire_reply_t *) b->out;
    mca_pml_chan_spec_t spec;
    size_t len = 0;
    int rc;

    b->info.peer = o->source;
    b->info.tag = w->tag;
    rc = ompix_chan_offer_check(b, o);
    if (MPI_SUCCESS == rc) {
        ompix_chan_bind_spec(b, w->mode, w->bytes, &spec);
        if (w->blob_len > 0) {
            ompix_chan_bind_prepare(b, &spec, b->out + sizeof(*r), &len);
        }
        rc = ompix_chan_bind_connect(b, &spec, w->blob_len > 0 ? o->msg + sizeof(*w) : NULL,
                                     len > 0 ? w->blob_len : 0, b->my_tag, w->tag);
        if (OMPI_SUCCESS != rc) {
            rc = ompix_chan_bind_class(rc);
            len = 0;
        }
    }
    b->rc = rc;
    r->magic = OMPIX_CHAN_MAGIC_REPLY;
    r->rc = rc;
    r->data_tag = b->my_tag;
    r->pad = 0;
    r->blob_len = len;
    b->state = OMPIX_CHAN_BIND_SENDING;
    if (OMPI_SUCCESS != MCA_PML_CALL(isend(b->out, sizeof(*r) + len, MPI_BYTE, o->source,
                                           w->reply_tag, MCA_PML_BASE_SEND_STANDARD,
                                           b->info.comm, &b->sreq))) {
        b->rc = MPI_ERR_OTHER;
        b->sreq = NULL;
    }
    opal_list_append(&b->cs->busy, &b->super);
}

static int ompix_chan_post_ctrl(ompix_chan_comm_t *cs)
{
    if (NULL != cs->ctrl || opal_list_is_empty(&cs->rbinds)) {
        return OMPI_SUCCESS;
    }
    return MCA_PML_CALL(irecv(cs->ctrl_buf, OMPIX_CHAN_MSG_MAX, MPI_BYTE, MPI_ANY_SOURCE,
                              OMPIX_CHAN_TAG_OFFER, cs->comm, &cs->ctrl));
}

/* Receive end: the earliest queued offer it matches, else wait for one. */
static int ompix_chan_bind_post_recv(ompix_chan_bind_t *b)
{
    ompix_chan_offer_t *o;

    b->my_tag = ompix_chan_next_tag(b->cs);
    b->state = OMPIX_CHAN_BIND_WAIT_OFFER;
    OPAL_LIST_FOREACH (o, &b->cs->offers, ompix_chan_offer_t) {
        if (ompix_chan_offer_matches(b, o)) {
            opal_list_remove_item(&b->cs->offers, &o->super);
            ompix_chan_bind_accept(b, o);
            OBJ_RELEASE(o);
            return OMPI_SUCCESS;
        }
    }
    opal_list_append(&b->cs->rbinds, &b->super);
    return ompix_chan_post_ctrl(b->cs);
}

/* An offer arrived: to the earliest pending receive bind it matches. */
static void ompix_chan_comm_take_offer(ompix_chan_comm_t *cs)
{
    ompix_chan_offer_t *o = OBJ_NEW(ompix_chan_offer_t);
    ompix_chan_bind_t *b;
    size_t len;

    o->source = cs->ctrl->req_status.MPI_SOURCE;
    len = cs->ctrl->req_status._ucount;
    o->len = len < sizeof(o->msg) ? len : sizeof(o->msg);
    memcpy(o->msg, cs->ctrl_buf, o->len);
    ompi_request_free(&cs->ctrl);
    cs->ctrl = NULL;
    OPAL_LIST_FOREACH (b, &cs->rbinds, ompix_chan_bind_t) {
        if (ompix_chan_offer_matches(b, o)) {
            opal_list_remove_item(&cs->rbinds, &b->super);
            ompix_chan_bind_accept(b, o);
            OBJ_RELEASE(o);
            o = NULL;
            break;
        }
    }
    if (NULL != o) {
        opal_list_append(&cs->offers, &o->super);
    }
    (void) ompix_chan_post_ctrl(cs);
}

static bool ompix_chan_req_done(ompi_request_t **req)
{
    if (NULL == *req) {
        return true;
    }
    if (!REQUEST_COMPLETE(*req)) {
        return false;
    }
    ompi_request_free(req);
    *req = NULL;
    return true;
}

/* Send end: the reply arrived. */
static void ompix_chan_bind_finish_send(ompix_chan_bind_t *b)
{
    const ompix_chan_wire_reply_t *r = (const ompix_chan_wire_reply_t *) b->in;
    mca_pml_chan_spec_t spec;
    int rc = r->rc;

    if (MPI_SUCCESS == rc) {
        ompix_chan_bind_spec(b, b->info.send_mode, b->bytes, &spec);
        rc = ompix_chan_bind_connect(b, &spec, b->in + sizeof(*r),
                                     b->blob_len > 0 ? r->blob_len : 0, r->data_tag,
                                     b->info.tag);
        if (OMPI_SUCCESS != rc) {
            rc = ompix_chan_bind_class(rc);
        }
    } else if (NULL != b->half) {
        ompix_chan_global.engine->abandon(b->half);
        b->half = NULL;
    }
    b->rc = rc;
}

/* One bind in a busy list: true when it is done.  Lock held. */
static bool ompix_chan_bind_advance(ompix_chan_bind_t *b)
{
    if (OMPIX_CHAN_BIND_WAIT_REPLY == b->state) {
        if (NULL == b->rreq || !REQUEST_COMPLETE(b->rreq)) {
            return false;
        }
        ompi_request_free(&b->rreq);
        b->rreq = NULL;
        ompix_chan_bind_finish_send(b);
        b->state = OMPIX_CHAN_BIND_SENDING;
    }
    return ompix_chan_req_done(&b->sreq);
}

/* A nonblocking bind is over: req_in completes (its status carries the
 * error class, and a kept free function makes Open MPI's error path leave
 * req_in alone, see ompix_chan_keep_free). */
static int ompix_chan_keep_free(ompi_request_t **req)
{
    ompi_request_free_fn_t orig = NULL;

    OPAL_THREAD_LOCK(&ompix_chan_global.lock);
    opal_hash_table_get_value_ptr(&ompix_chan_global.kept, req, sizeof(*req), (void **) &orig);
    opal_hash_table_remove_value_ptr(&ompix_chan_global.kept, req, sizeof(*req));
    OPAL_THREAD_UNLOCK(&ompix_chan_global.lock);
    (*req)->req_free = orig;
    if (MPI_SUCCESS != (*req)->req_status.MPI_ERROR) {
        (*req)->req_status.MPI_ERROR = MPI_SUCCESS;
        return OMPI_SUCCESS;
    }
    return orig(req);
}

/* req_in's req_start while it stands for a nonblocking bind: starting it
 * is erroneous until Wait/Test reported the bind (it would start the
 * request under the bind, which then never completes). */
static int ompix_chan_pending_start(size_t count, ompi_request_t **reqs)
{
    (void) count;
    return ompix_chan_error(reqs[0]->req_mpi_object.comm, MPI_ERR_REQUEST, "MPI_Start",
                            "the request is being bound (MPIX_Ibind_channel) until a "
                            "Wait/Test reports it");
}

/* Its req_free and req_cancel meanwhile: refused (MPI_Request_free and
 * MPI_Cancel report the class through MPI_COMM_WORLD's handler). */
static int ompix_chan_pending_free(ompi_request_t **req)
{
    (void) req;
    return MPI_ERR_REQUEST;
}

static int ompix_chan_pending_cancel(ompi_request_t *req, int flag)
{
    (void) req; (void) flag;
    return MPI_ERR_REQUEST;
}

/* req_in stands for the bind until Wait/Test reports it done. */
static void ompix_chan_bind_pend(ompix_chan_bind_t *b)
{
    ompi_request_t *req_in = b->req_in;

    req_in->req_complete = REQUEST_PENDING;
    req_in->req_state = OMPI_REQUEST_ACTIVE;
    b->in_start = req_in->req_start;
    b->in_free = req_in->req_free;
    b->in_cancel = req_in->req_cancel;
    if (OMPI_REQUEST_PML == req_in->req_type) {
        req_in->req_start = ompix_chan_pending_start;
        req_in->req_free = ompix_chan_pending_free;
        req_in->req_cancel = ompix_chan_pending_cancel;
    }
}

static void ompix_chan_bind_complete(ompix_chan_bind_t *b)
{
    ompi_request_t *req_in = b->req_in;

    req_in->req_start = b->in_start;
    req_in->req_free = b->in_free;
    req_in->req_cancel = b->in_cancel;

    *b->req_out = MPI_SUCCESS == b->rc ? b->chan : MPI_REQUEST_NULL;
    if (NULL != b->req_out_f) {
        *b->req_out_f = PMPI_Request_c2f(*b->req_out);
    }
    req_in->req_status = ompi_status_empty;
    req_in->req_status.MPI_ERROR = b->rc;
    if (MPI_SUCCESS != b->rc) {
        ompi_request_free_fn_t orig = req_in->req_free;

        OPAL_THREAD_LOCK(&ompix_chan_global.lock);
        opal_hash_table_set_value_ptr(&ompix_chan_global.kept, &req_in, sizeof(req_in),
                                      (void *) orig);
        OPAL_THREAD_UNLOCK(&ompix_chan_global.lock);
        req_in->req_free = ompix_chan_keep_free;
    }
    free(b);
    ompi_request_complete(req_in, true);
}

static void ompix_chan_comm_progress(ompix_chan_comm_t *cs, opal_list_t *finished)
{
    ompix_chan_bind_t *b, *next;

    while (NULL != cs->ctrl && REQUEST_COMPLETE(cs->ctrl)) {
        ompix_chan_comm_take_offer(cs);
    }
    OPAL_LIST_FOREACH_SAFE (b, next, &cs->busy, ompix_chan_bind_t) {
        if (ompix_chan_bind_advance(b)) {
            opal_list_remove_item(&cs->busy, &b->super);
            b->state = OMPIX_CHAN_BIND_DONE;
            opal_atomic_add_fetch_32(&ompix_chan_global.num_binds, -1);
            if (b->nonblocking) {
                opal_list_append(finished, &b->super);
            } else {
                opal_atomic_wmb();
                b->done = true;
            }
        }
    }
}

/* The progress callback (while binds are in progress). */
int ompix_chan_progress(void)
{
    opal_list_t finished;
    opal_list_item_t *item;
    ompix_chan_comm_t *cs;

    if (ompix_chan_in_progress) {
        return 0;
    }
    if (opal_using_threads() && 0 != opal_mutex_trylock(&ompix_chan_global.lock)) {
        return 0;
    }
    ompix_chan_in_progress = true;
    OBJ_CONSTRUCT(&finished, opal_list_t);
    OPAL_LIST_FOREACH (cs, &ompix_chan_global.comms, ompix_chan_comm_t) {
        ompix_chan_comm_progress(cs, &finished);
    }
    ompix_chan_in_progress = false;
    OPAL_THREAD_UNLOCK(&ompix_chan_global.lock);
    while (NULL != (item = opal_list_remove_first(&finished))) {
        ompix_chan_bind_complete((ompix_chan_bind_t *) item);
    }
    OBJ_DESTRUCT(&finished);
    return 0;
}

static const char *ompix_chan_bind_why(int rc)
{
    switch (rc) {
    case MPI_ERR_TRUNCATE:
        return "the receive is smaller than the bound send";
    case MPI_ERR_ARG:
        return "the two ends have different slack";
    case MPI_ERR_TYPE:
        return "the type signatures of the two ends do not match";
    case MPI_ERR_NO_MEM:
        return "not enough memory for a channel of this slack";
    default:
        return "the channel could not be set up";
    }
}

/* Local part of a bind: what req_in is, the slack and increment. */
static int ompix_chan_bind_init(ompix_chan_bind_t *b, ompi_request_t *req_in, MPI_Request *out,
                                int slack, ompi_info_t *info, const char **why)
{
    size_t size;
    int rc;

    memset(b, 0, offsetof(ompix_chan_bind_t, out));
    OBJ_CONSTRUCT(&b->super, opal_list_item_t);
    b->req_in = req_in;
    b->req_out = out;
    b->slack = slack;
    rc = ompix_chan_describe(req_in, &b->info, why);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPI_SUCCESS != ompix_chan_read_increment(info, &b->increment)) {
        *why = "address_base_increment is not an integer";
        return MPI_ERR_INFO_VALUE;
    }
    if (1 == slack) {
        b->increment = 0;
    }
    if (MPI_PROC_NULL == b->info.peer) {
        return MPI_SUCCESS;                 /* no message: no type, no size */
    }
    ompi_datatype_type_size(b->info.type, &size);
    b->bytes = size * b->info.count;
    return MPI_SUCCESS;
}

/* A request to MPI_PROC_NULL: a channel that completes each start at once,
 * bound without a message.  Called with the global lock held. */
static void ompix_chan_bind_null(ompix_chan_bind_t *b)
{
    int rc = ompix_chan_fb_create_null(b->slack, &b->chan);

    if (OMPI_SUCCESS == rc) {
        ompix_chan_add_locked(b->chan, OMPIX_CHAN_KIND_FALLBACK);
    }
    b->rc = OMPI_SUCCESS == rc ? MPI_SUCCESS : ompix_chan_bind_class(rc);
    b->state = OMPIX_CHAN_BIND_DONE;
    opal_atomic_add_fetch_32(&ompix_chan_global.num_binds, -1);
    opal_atomic_wmb();
    b->done = true;
}

static int ompix_chan_bind_post(ompix_chan_bind_t *b)
{
    b->cs = ompix_chan_comm_get(b->info.comm);
    if (NULL == b->cs) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return b->info.is_send ? ompix_chan_bind_post_send(b) : ompix_chan_bind_post_recv(b);
}

/* A blocking bind that failed for one pair leaves every output handle
 * MPI_REQUEST_NULL: the channels it did build are released (locally, as
 * an unbind; their peers keep theirs until they unbind). */
static void ompix_chan_bind_undo(int n, ompix_chan_bind_t **binds)
{
    for (int i = 0; i < n; ++i) {
        if (MPI_SUCCESS == binds[i]->rc && MPI_REQUEST_NULL != *binds[i]->req_out) {
            (void) ompix_chan_unbind_one(binds[i]->req_out, false);
            *binds[i]->req_out = MPI_REQUEST_NULL;
        }
    }
}

static int ompix_chan_bind_wait(int n, ompix_chan_bind_t **binds, const char *func)
{
    ompi_communicator_t *comm = NULL;
    int rc = MPI_SUCCESS;

    for (int i = 0; i < n; ++i) {
        while (!binds[i]->done) {
            opal_progress();
        }
        opal_atomic_rmb();
        *binds[i]->req_out = MPI_SUCCESS == binds[i]->rc ? binds[i]->chan : MPI_REQUEST_NULL;
        if (MPI_SUCCESS == rc && MPI_SUCCESS != binds[i]->rc) {
            rc = binds[i]->rc;
            comm = binds[i]->info.comm;
        }
    }
    if (MPI_SUCCESS != rc) {
        ompix_chan_bind_undo(n, binds);
    }
    for (int i = 0; i < n; ++i) {
        free(binds[i]);
    }
    free(binds);
    return MPI_SUCCESS == rc ? rc : ompix_chan_error(comm, rc, func, ompix_chan_bind_why(rc));
}

int ompix_chan_bind(int n, MPI_Request reqs_in[], MPI_Request reqs_out[], const int slacks[],
                    MPI_Info infos[], bool nonblocking, MPI_Fint reqs_out_f[], const char *func)
{
    ompix_chan_bind_t **binds;
    const char *why = NULL;
    int rc, i;

    rc = ompix_chan_global_init();
    if (OMPI_SUCCESS != rc) {
        return ompix_chan_error(NULL, MPI_ERR_OTHER, func, "cannot set up channels");
    }
    binds = calloc(n > 0 ? n : 1, sizeof(*binds));
    for (i = 0; NULL != binds && i < n; ++i) {
        binds[i] = malloc(sizeof(ompix_chan_bind_t));
        if (NULL == binds[i]) {
            break;
        }
        reqs_out[i] = MPI_REQUEST_NULL;
        rc = ompix_chan_bind_init(binds[i], reqs_in[i],
                                  NULL == reqs_out_f ? &reqs_out[i] : &binds[i]->req_out_c,
                                  NULL == slacks ? 1 : slacks[i],
                                  NULL == infos ? NULL : infos[i], &why);
        binds[i]->req_out_f = NULL == reqs_out_f ? NULL : &reqs_out_f[i];
        if (MPI_SUCCESS != rc) {
            ompi_communicator_t *comm = OMPI_REQUEST_PML == reqs_in[i]->req_type
                ? reqs_in[i]->req_mpi_object.comm : NULL;
            for (int j = 0; j <= i; ++j) {
                free(binds[j]);
            }
            ompix_chan_outputs_null(n, reqs_out);
            free(binds);
            return ompix_chan_error(comm, rc, func, why);
        }
    }
    if (NULL == binds || i < n) {
        for (int j = 0; NULL != binds && j < i; ++j) {
            free(binds[j]);
        }
        ompix_chan_outputs_null(n, reqs_out);
        free(binds);
        return ompix_chan_error(NULL, MPI_ERR_NO_MEM, func, "out of memory");
    }
    OPAL_THREAD_LOCK(&ompix_chan_global.lock);
    opal_atomic_add_fetch_32(&ompix_chan_global.num_binds, n);
    for (i = 0; i < n; ++i) {
        binds[i]->nonblocking = nonblocking;
        if (nonblocking) {
            ompix_chan_bind_pend(binds[i]);
        }
        if (MPI_PROC_NULL == binds[i]->info.peer) {
            ompix_chan_bind_null(binds[i]);
        } else if (OMPI_SUCCESS != ompix_chan_bind_post(binds[i])) {
            binds[i]->rc = MPI_ERR_OTHER;
        }
    }
    OPAL_THREAD_UNLOCK(&ompix_chan_global.lock);
    if (nonblocking) {
        /* Binds to MPI_PROC_NULL are done: no progress call will see them. */
        for (i = 0; i < n; ++i) {
            if (MPI_PROC_NULL == binds[i]->info.peer) {
                ompix_chan_bind_complete(binds[i]);
            }
        }
        free(binds);
        ompix_chan_progress();
        return MPI_SUCCESS;
    }
    return ompix_chan_bind_wait(n, binds, func);
}
