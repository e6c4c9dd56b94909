/*
 * Copyright (c) 2026 The ompix developers.
 *
 * prepare / connect / abandon / unbind (pml_chan_api.h): each end maps its
 * memory (pml_chan_end.h), packs its key and its worker address into the
 * blob, and at connect learns the peer's and picks the path once
 * (pml_chan_path.h, mca_pml_chan_path_choose): the large path when the
 * receiver offered it at prepare (pml_chan_path_large.c), tag messages
 * when neither can map the other's memory (pml_chan_path_tag.c), else the
 * peer's memory mapped here (ucp_rkey_ptr, same node:
 * pml_chan_path_mapped.c) or active messages (pml_chan_path_am.c).
 *
 * Unbind is local.  An end's memory may still be written by its peer until
 * the peer unbinds too: each end writes "gone" into the peer's control
 * block when it unbinds, and releases its own memory once it finds the
 * peer's "gone" in it (at a later prepare or unbind) or at MPI_Finalize:
 * small blocks are kept for the next prepare of the same size (spares).
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opal/util/show_help.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "pml_chan_path.h"
#include "pml_chan_request.h"

#define MCA_PML_CHAN_BLOB_MAGIC 0x4e414843u     /* "CHAN" */

/* Memory of an unbound end that its peer may still write (a zombie), or
 * that no peer writes any more, kept for the next prepare (a spare). */
typedef struct mca_pml_chan_zombie_t {
    opal_list_item_t super;
    ucp_mem_h memh;
    char *mem;
    size_t len;
} mca_pml_chan_zombie_t;

static OBJ_CLASS_INSTANCE(mca_pml_chan_zombie_t, opal_list_item_t, NULL, NULL);

/* Spares (c->spares): at most MCA_PML_CHAN_SPARE_MAX blocks of at most
 * MCA_PML_CHAN_SPARE_LEN bytes (a control block and a ring of small
 * messages).  Under the component lock. */
#define MCA_PML_CHAN_SPARE_MAX 16
#define MCA_PML_CHAN_SPARE_LEN (64 * 1024)

static void mca_pml_chan_end_construct(mca_pml_chan_end_t *end)
{
    OBJ_CONSTRUCT(&end->busy_item, opal_list_item_t);
    OBJ_CONSTRUCT(&end->ends_item, opal_list_item_t);
    OBJ_CONSTRUCT(&end->lock, opal_mutex_t);
    OBJ_CONSTRUCT(&end->convertor, opal_convertor_t);
    end->busy = end->listed = end->bound = end->fast_send = end->fast_recv = false;
    end->am_send = end->am_recv = end->via_worker = end->uses_worker = false;
    end->memh = NULL;
    end->mem = NULL;
    end->rkey_buf = NULL;
    end->rkey = NULL;
    end->path = NULL;
    end->nstart = end->nwritten = end->ndone = end->nconsumed = 0;
    end->pending_report = false;
    end->put_reqs = NULL;
    end->am_hdrs = NULL;
    end->carry_iov = NULL;
    end->carrier = end->creditor = NULL;
    end->credit_owed = false;
    end->words = NULL;
    end->stage = NULL;
    end->tag = 0;
    end->nposted = 0;
    end->tag_reqs = NULL;
    end->tag_slots = NULL;
    end->large = false;
    end->large_memh = NULL;
    end->large_rkey_buf = NULL;
    end->large_rkey_len = 0;
    end->peer_large_rkey = NULL;
    end->large_cma = false;
    end->spec.req.type = NULL;
    end->spec.req.comm = NULL;
}

/* Releases what is ours only; the memory is gone or a zombie already. */
static void mca_pml_chan_end_destruct(mca_pml_chan_end_t *end)
{
    OBJ_DESTRUCT(&end->convertor);
    OBJ_DESTRUCT(&end->lock);
    OBJ_DESTRUCT(&end->ends_item);
    OBJ_DESTRUCT(&end->busy_item);
    free(end->put_reqs);
    free(end->am_hdrs);
    free(end->carry_iov);
    free(end->words);
    free(end->stage);
    free(end->tag_reqs);
    free(end->tag_slots);
    if (NULL != end->spec.req.type) {
        OBJ_RELEASE(end->spec.req.type);
    }
    if (NULL != end->spec.req.comm) {
        OBJ_RELEASE(end->spec.req.comm);
    }
}

OBJ_CLASS_INSTANCE(mca_pml_chan_end_t, ompi_request_t, mca_pml_chan_end_construct,
                   mca_pml_chan_end_destruct);

/* ---------------------------------------------------------------------- */
/* Memory                                                                  */

static void mca_pml_chan_unmap(ucp_mem_h memh)
{
    ucp_mem_unmap(mca_pml_chan_component.ucx.context, memh);
}

/* Memory no peer writes any more: kept as a spare when it is small and
 * there is room, else unmapped.  Reusing it spares the next bind and this
 * unbind UCX's allocation and release (a file in /dev/shm, mmap, munmap:
 * the system calls that remain of a bind once the peer's blob arrived).
 * Under c->lock. */
static void mca_pml_chan_memory_put(ucp_mem_h memh, char *mem, size_t len)
{
    opal_list_t *spares = &mca_pml_chan_component.spares;
    mca_pml_chan_zombie_t *z;

    if (len <= MCA_PML_CHAN_SPARE_LEN && opal_list_get_size(spares) < MCA_PML_CHAN_SPARE_MAX &&
        NULL != (z = OBJ_NEW(mca_pml_chan_zombie_t))) {
        z->memh = memh;
        z->mem = mem;
        z->len = len;
        opal_list_append(spares, &z->super);
        return;
    }
    mca_pml_chan_unmap(memh);
}

/* A spare of exactly len bytes (the usual case: the same channel bound
 * again), or false.  Under c->lock. */
static bool mca_pml_chan_memory_get(size_t len, ucp_mem_h *memh, char **mem)
{
    opal_list_t *spares = &mca_pml_chan_component.spares;
    mca_pml_chan_zombie_t *z;

    OPAL_LIST_FOREACH(z, spares, mca_pml_chan_zombie_t) {
        if (z->len == len) {
            opal_list_remove_item(spares, &z->super);
            *memh = z->memh;
            *mem = z->mem;
            OBJ_RELEASE(z);
            return true;
        }
    }
    return false;
}

/* MPI_Finalize: the spares go. */
static void mca_pml_chan_memory_fini(void)
{
    opal_list_item_t *item;

    while (NULL != (item = opal_list_remove_first(&mca_pml_chan_component.spares))) {
        mca_pml_chan_unmap(((mca_pml_chan_zombie_t *) item)->memh);
        OBJ_RELEASE(item);
    }
}

/* Frees the memory of unbound ends whose peers unbound too.  Under c->lock. */
static void mca_pml_chan_reap(bool all)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_chan_zombie_t *z, *next;

    if (c->have_worker_ends) {
        /* On the AM path "gone" lands as the worker progresses. */
        (void) ucp_worker_progress(c->ucx.worker);
    }
    OPAL_LIST_FOREACH_SAFE(z, next, &c->zombies, mca_pml_chan_zombie_t) {
        if (all || 0 != mca_common_ompix_atomic_load_acq_64(
                            (volatile uint64_t *) (z->mem + MCA_PML_CHAN_CTL_GONE))) {
            opal_list_remove_item(&c->zombies, &z->super);
            if (all) {
                mca_pml_chan_unmap(z->memh);
            } else {
                mca_pml_chan_memory_put(z->memh, z->mem, z->len);
            }
            OBJ_RELEASE(z);
        }
    }
}

/* Our memory leaves the end: a spare once the peer is gone, freed now if
 * it never knew it, else kept until it is gone.  Under c->lock when
 * peer_may_write. */
static void mca_pml_chan_end_drop_memory(mca_pml_chan_end_t *end, bool peer_may_write)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_chan_zombie_t *z;

    if (NULL != end->rkey_buf) {
        ucp_rkey_buffer_release(end->rkey_buf);
        end->rkey_buf = NULL;
    }
    if (NULL == end->memh) {
        return;
    }
    if (peer_may_write && 0 == mca_common_ompix_atomic_load_acq_64(
                                   (volatile uint64_t *) (end->mem + MCA_PML_CHAN_CTL_GONE))) {
        z = OBJ_NEW(mca_pml_chan_zombie_t);
        if (NULL != z) {
            z->memh = end->memh;
            z->mem = end->mem;
            z->len = end->mem_len;
            opal_list_append(&c->zombies, &z->super);
            end->memh = NULL;
            return;
        }
        /* No memory for the record: keep it mapped forever rather than
         * let the peer write into freed memory. */
        end->memh = NULL;
        return;
    }
    if (peer_may_write) {
        /* Its "gone" is there: it writes no more. */
        mca_pml_chan_memory_put(end->memh, end->mem, end->mem_len);
    } else {
        /* Never connected, or finalize: a peer whose bind failed after ours
         * may still write, into its own mapping only once this is freed. */
        mca_pml_chan_unmap(end->memh);
    }
    end->memh = NULL;
}

static int mca_pml_chan_end_map(mca_pml_chan_end_t *end)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    void *base = NULL;
    bool spare;

    end->mem_len = MCA_PML_CHAN_CTL + (end->is_send ? 0 : end->ring_slots * end->slot_size);
    OPAL_THREAD_LOCK(&c->lock);
    spare = mca_pml_chan_memory_get(end->mem_len, &end->memh, &end->mem);
    OPAL_THREAD_UNLOCK(&c->lock);
    if (!spare) {
        if (OMPI_SUCCESS != mca_common_ompix_ucx_mem_map(&c->ucx, NULL, end->mem_len, true,
                                                         &end->memh, &base)) {
            end->memh = NULL;
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        end->mem = (char *) base;
    }
    memset(end->mem, 0, end->mem_len);
    if (UCS_OK != ucp_rkey_pack(mca_pml_chan_component.ucx.context, end->memh, &end->rkey_buf,
                                &end->rkey_len)) {
        end->rkey_buf = NULL;
        return OMPI_ERROR;
    }
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* prepare                                                                 */

static int mca_pml_chan_end_plan(mca_pml_chan_end_t *end, const mca_pml_chan_spec_t *spec)
{
    ompi_datatype_t *type = spec->req.type;
    ptrdiff_t lb, extent;

    end->spec = *spec;
    OBJ_RETAIN(spec->req.type);
    OBJ_RETAIN(spec->req.comm);
    end->is_send = !!spec->req.is_send;
    end->slack = (uint32_t) spec->slack;
    end->slot_mask = 0 == (end->slack & (end->slack - 1)) ? end->slack - 1 : 0;
    end->bytes = spec->bytes;
    /* Both ends know the send's mode (a receive's spec names its bound
     * send's).  Standard and buffered mode: a send may start before its
     * receive, so flow control as a synchronous channel's (until
     * mca_pml_chan_end_flow knows the path).  Ready mode: none, but credits
     * for the check of pml_chan_debug_ready. */
    end->standard = !spec->sync && MCA_PML_CHAN_MODE_READY != spec->req.send_mode;
    end->credits = end->is_send &&
                   (spec->sync || end->standard || mca_pml_chan_component.debug_ready);
    /* A synchronous or standard channel's receiver: twice the slots (its
     * sender writes up to K ahead) and room for the credits a TAG message
     * carries (pml_chan_pair.c); the large path takes that back. */
    mca_pml_chan_end_ring(end, !end->is_send && (spec->sync || end->standard) ? 2 * end->slack
                                                                              : end->slack);
    mca_pml_chan_end_layout(end);
    end->contiguous = ompi_datatype_is_contiguous_memory_layout(type, spec->req.count);
    (void) ompi_datatype_get_extent(type, &lb, &extent);
    end->incr_bytes = (ptrdiff_t) spec->increment * extent;
    end->buf = (char *) spec->req.buf + (end->contiguous ? type->super.true_lb : 0);
    end->peer_rank = spec->req.peer;
    end->status_tag = spec->req.tag;
    end->words = calloc(end->slack, sizeof(uint64_t));
    end->put_reqs = calloc(2 * (size_t) end->slack, sizeof(void *));
    end->am_hdrs = calloc(end->slack, sizeof(*end->am_hdrs));
    end->carry_iov = calloc(2 * (size_t) end->slack, sizeof(*end->carry_iov));
    if (end->is_send && !end->contiguous && end->bytes > 0) {
        end->stage = malloc(end->slack * end->bytes);
    }
    if (NULL == end->words || NULL == end->put_reqs || NULL == end->am_hdrs ||
        NULL == end->carry_iov ||
        (end->is_send && !end->contiguous && end->bytes > 0 && NULL == end->stage)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return OMPI_SUCCESS;
}

static size_t mca_pml_chan_blob_write(mca_pml_chan_end_t *end, void *blob)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_chan_blob_t b;
    size_t len = sizeof(b) + c->worker_address_len + end->rkey_len + end->large_rkey_len;
    char *p = (char *) blob;

    if (len > MCA_PML_CHAN_BLOB_MAX) {
        MCA_PML_CHAN_VERBOSE(10, "blob of %zu bytes too big: channel left to the fallback",
                             len);
        return 0;
    }
    memset(&b, 0, sizeof(b));
    b.magic = MCA_PML_CHAN_BLOB_MAGIC;
    b.is_send = end->is_send;
    b.credits = end->credits;
    b.slack = end->slack;
    b.addr_len = (uint32_t) c->worker_address_len;
    b.rkey_len = (uint32_t) end->rkey_len;
    b.bytes = end->bytes;
    b.base = (uint64_t) (uintptr_t) end->mem;
    b.large = end->large;
    b.large_rkey_len = (uint32_t) end->large_rkey_len;
    b.large_base = (uint64_t) (uintptr_t) end->buf;
    b.large_incr = (int64_t) end->incr_bytes;
    b.pid = (int32_t) getpid();
    b.mark = end->large ? mca_pml_chan_large_mark(end) : 0;
    b.mappable = c->mappable;
    b.tags = MCA_PML_CHAN_REMOTE_TAG == c->remote;
    b.tag = end->tag;
    b.ring = end->is_send ? 0 : end->ring_slots;
    memcpy(p, &b, sizeof(b));
    p += sizeof(b);
    memcpy(p, c->worker_address, c->worker_address_len);
    p += c->worker_address_len;
    memcpy(p, end->rkey_buf, end->rkey_len);
    if (end->large) {
        memcpy(p + end->rkey_len, end->large_rkey_buf, end->large_rkey_len);
    }
    return len;
}

/* Releases an end that was never connected: the peer never writes. */
static void mca_pml_chan_end_discard(mca_pml_chan_end_t *end)
{
    if (NULL != end->rkey) {
        ucp_rkey_destroy(end->rkey);
        end->rkey = NULL;
    }
    mca_pml_chan_large_release(end);
    if (NULL != end->memh) {
        mca_pml_chan_end_drop_memory(end, false);
    }
    OBJ_RELEASE(end);
}

int mca_pml_chan_prepare(const mca_pml_chan_spec_t *spec, struct mca_pml_chan_half_t **half,
                         void *blob, size_t *len)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_chan_end_t *end;
    int ret;

    *half = NULL;
    *len = 0;
    if (NULL == spec || spec->slack < 1 || MPI_ANY_SOURCE == spec->req.peer ||
        MPI_ANY_TAG == spec->req.tag) {
        return MPI_ERR_ARG;
    }
    end = OBJ_NEW(mca_pml_chan_end_t);
    if (NULL == end) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    OPAL_THREAD_LOCK(&c->lock);
    ret = mca_pml_chan_ucx_init();
    if (OMPI_SUCCESS == ret) {
        mca_pml_chan_reap(false);
        end->tag = spec->req.is_send ? 0 : ++c->next_tag;
    }
    OPAL_THREAD_UNLOCK(&c->lock);
    if (OMPI_SUCCESS != ret) {
        OBJ_RELEASE(end);
        return OMPI_SUCCESS;            /* *len 0: the fallback serves it */
    }
    end->proc = ompi_comm_peer_lookup(spec->req.comm, spec->req.peer);
    if (OMPI_SUCCESS != mca_pml_chan_end_plan(end, spec) || NULL == end->proc) {
        mca_pml_chan_end_discard(end);
        return OMPI_SUCCESS;
    }
    mca_pml_chan_large_offer(end);
    if (OMPI_SUCCESS != mca_pml_chan_end_map(end)) {
        mca_pml_chan_end_discard(end);
        return OMPI_SUCCESS;
    }
    *len = mca_pml_chan_blob_write(end, blob);
    if (0 == *len) {
        mca_pml_chan_end_discard(end);
        return OMPI_SUCCESS;
    }
    *half = (struct mca_pml_chan_half_t *) end;
    return OMPI_SUCCESS;
}

void mca_pml_chan_abandon(struct mca_pml_chan_half_t *half)
{
    if (NULL != half) {
        mca_pml_chan_end_discard((mca_pml_chan_end_t *) half);
    }
}

/* ---------------------------------------------------------------------- */
/* connect                                                                 */

/* The end's path, once its peer is reached (peer_mem: the peer's memory
 * mapped here, or NULL).  Both ends choose alike from what both blobs say:
 * the receiver alone decides for the large path; the TAG path is a
 * function of both blobs (mca_pml_chan_tag_wanted).  A new path is one
 * line here. */
static const mca_pml_chan_path_t *mca_pml_chan_path_choose(const mca_pml_chan_end_t *end,
                                                           bool large, bool tag)
{
    return large                  ? &mca_pml_chan_path_large
           : tag                  ? &mca_pml_chan_path_tag
           : NULL != end->peer_mem ? &mca_pml_chan_path_mapped
                                  : &mca_pml_chan_path_am;
}

static int mca_pml_chan_end_reach(mca_pml_chan_end_t *end, const mca_pml_chan_blob_t *b,
                                  const char *addr, const char *rkey)
{
    mca_common_ompix_ucx_t *ucx = &mca_pml_chan_component.ucx;
    bool large = end->is_send ? b->large : end->large;
    bool tag;
    void *ptr = NULL;

    if (OMPI_SUCCESS != mca_common_ompix_ucx_proc_set_address(ucx, end->proc, addr,
                                                              b->addr_len) ||
        OMPI_SUCCESS != mca_common_ompix_ucx_proc_ep(ucx, end->proc, &end->ep)) {
        return OMPI_ERR_UNREACH;
    }
    if (UCS_OK != ucp_ep_rkey_unpack(end->ep, rkey, &end->rkey)) {
        end->rkey = NULL;
        return OMPI_ERR_UNREACH;
    }
    end->peer_base = b->base;
    tag = !large && mca_pml_chan_tag_wanted(end, b->mappable, b->tags);
    end->peer_mem = !tag && UCS_OK == ucp_rkey_ptr(end->rkey, b->base, &ptr) ? (char *) ptr
                                                                               : NULL;
    end->path = mca_pml_chan_path_choose(end, large, tag);
    return OMPI_SUCCESS;
}

/* Flow control, once the path is chosen, alike at both ends: a
 * synchronous or standard-mode sender writes ahead into the receiver's
 * slots beyond K (none on the large path: b->ring is K there) as its
 * credits allow; a standard one on a path that buffers what arrives early
 * (TAG) needs no credits and keeps K slots, as a ready one, and so does
 * one on a path whose sender sees the slots' words (MAPPED: slot_flow),
 * writing message n once the receiver took message n - K. */
static void mca_pml_chan_end_flow(mca_pml_chan_end_t *end, const mca_pml_chan_blob_t *b)
{
    bool none = end->standard && (end->path->buffers || end->path->slot_flow);

    end->slot_flow = end->standard && end->path->slot_flow;

    if (!end->is_send) {
        end->credits = b->credits && !none;
        if (none) {
            mca_pml_chan_end_ring(end, end->slack);
            mca_pml_chan_end_layout(end);
        }
        return;
    }
    end->credits = end->credits && !none;
    mca_pml_chan_end_ring(end, (end->spec.sync || end->standard) && !none ? b->ring
                                                                          : end->slack);
    mca_pml_chan_end_layout(end);
}

int mca_pml_chan_connect(struct mca_pml_chan_half_t *half, const void *peer_blob,
                         size_t peer_len, MPI_Request *chan)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) half;
    mca_pml_chan_blob_t b;
    const char *p = (const char *) peer_blob;
    int ret;

    if (NULL == end || NULL == peer_blob || peer_len < sizeof(b)) {
        return MPI_ERR_ARG;
    }
    memcpy(&b, p, sizeof(b));
    if (MCA_PML_CHAN_BLOB_MAGIC != b.magic ||
        peer_len != sizeof(b) + b.addr_len + b.rkey_len + b.large_rkey_len ||
        b.is_send == end->is_send || b.slack != end->slack || b.bytes != end->bytes ||
        (b.large && (b.is_send || 0 == b.large_rkey_len)) ||
        (!b.is_send && b.ring != b.slack && b.ring != 2 * b.slack)) {
        mca_pml_chan_end_discard(end);
        return MPI_ERR_ARG;
    }
    ret = mca_pml_chan_end_reach(end, &b, p + sizeof(b), p + sizeof(b) + b.addr_len);
    if (OMPI_SUCCESS == ret) {
        mca_pml_chan_end_flow(end, &b);
        ret = end->path->connect(end, &b, p + sizeof(b) + b.addr_len + b.rkey_len);
    }
    if (OMPI_SUCCESS != ret) {
        opal_show_help("help-pml-chan.txt", "unreachable", true,
                       ompi_comm_rank(end->spec.req.comm), end->spec.req.peer);
        mca_pml_chan_end_discard(end);
        return MPI_ERR_OTHER;
    }
    mca_pml_chan_request_setup(end);
    end->bound = true;
    OPAL_THREAD_LOCK(&c->lock);
    opal_list_append(&c->ends, &end->ends_item);
    end->listed = true;
    mca_pml_chan_mpit_bound(end);
    if (end->uses_worker) {
        c->have_worker_ends = true;
    }
    mca_pml_chan_pair_find(end);
    OPAL_THREAD_UNLOCK(&c->lock);
    MCA_PML_CHAN_VERBOSE(20, "%s end to rank %d tag %d: %zu bytes, slack %u, %s%s%s%s%s",
                         end->is_send ? "send" : "receive", end->spec.req.peer,
                         end->spec.req.tag, end->bytes, end->slack, end->path->name,
                         !end->large             ? ""
                         : NULL != end->peer_mem ? ", words mapped"
                                                 : ", words by active messages",
                         !end->is_send || !end->large ? ""
                         : end->large_cma             ? ", cma"
                                                      : ", UCX puts",
                         end->contiguous ? "" : ", packed", end->credits ? ", credits" : "");
    *chan = &end->super;
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* unbind and finalize                                                     */

static bool mca_pml_chan_is_end(ompi_request_t *req)
{
    return NULL != req && MPI_REQUEST_NULL != req && OMPI_REQUEST_PML == req->req_type &&
           NULL != req->req_start &&
           OBJ_CLASS(mca_pml_chan_end_t) == ((opal_object_t *) req)->obj_class;
}

/* Under c->lock. */
static void mca_pml_chan_end_release(mca_pml_chan_end_t *end, bool signal)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    mca_pml_chan_end_t *partner = mca_pml_chan_pair_drop(end, signal);

    if (signal) {
        mca_pml_chan_ring_signal_gone(end);
    }
    /* Sends still in flight (finalize) complete without us. */
    for (uint32_t i = 0; NULL != end->put_reqs && i < 2 * end->slack; ++i) {
        if (NULL != end->put_reqs[i]) {
            ucp_request_free(end->put_reqs[i]);
            end->put_reqs[i] = NULL;
        }
    }
    if (NULL != end->rkey) {
        ucp_rkey_destroy(end->rkey);
        end->rkey = NULL;
    }
    if (NULL != end->path->release) {
        end->path->release(end);
    }
    end->fast_send = end->am_send = false;
    end->peer_mem = NULL;
    mca_pml_chan_end_drop_memory(end, signal);
    if (end->listed) {
        mca_pml_chan_mpit_unbound(end);
        opal_list_remove_item(&c->ends, &end->ends_item);
        end->listed = false;
    }
    if (end->busy) {
        opal_list_remove_item(&c->busy, &end->busy_item);
        end->busy = false;
        --c->outstanding;
    }
    end->bound = false;
    if (signal && NULL != partner) {
        mca_pml_chan_pair_find(partner);
    }
}

int mca_pml_chan_unbind(MPI_Request chan)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    mca_pml_chan_end_t *end = (mca_pml_chan_end_t *) chan;

    if (!mca_pml_chan_is_end(chan) || !end->bound ||
        0 != mca_pml_chan_request_outstanding(end)) {
        return MPI_ERR_REQUEST;
    }
    OPAL_THREAD_LOCK(&c->lock);
    mca_pml_chan_end_release(end, true);
    mca_pml_chan_reap(false);
    OPAL_THREAD_UNLOCK(&c->lock);
    MCA_PML_CHAN_VERBOSE(20, "unbound the %s end to rank %d tag %d",
                         end->is_send ? "send" : "receive", end->spec.req.peer,
                         end->spec.req.tag);
    return OMPI_SUCCESS;
}

/* MPI_Finalize: every end still bound and every zombie goes (the peers
 * are in MPI_Finalize too and write no more).  The requests of bound ends
 * are the user's; they are released with the rest of Open MPI's. */
void mca_pml_chan_bind_fini(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    opal_list_item_t *item;

    if (!c->ucx_ready) {
        OBJ_DESTRUCT(&c->busy);
        OBJ_DESTRUCT(&c->ends);
        OBJ_DESTRUCT(&c->zombies);
        OBJ_DESTRUCT(&c->spares);
        return;
    }
    while (NULL != (item = opal_list_get_first(&c->ends)) &&
           item != opal_list_get_end(&c->ends)) {
        mca_pml_chan_end_t *end = (mca_pml_chan_end_t *)
            ((char *) item - offsetof(mca_pml_chan_end_t, ends_item));
        mca_pml_chan_end_release(end, false);
    }
    mca_pml_chan_reap(true);
    mca_pml_chan_memory_fini();
    OBJ_DESTRUCT(&c->busy);
    OBJ_DESTRUCT(&c->ends);
    OBJ_DESTRUCT(&c->zombies);
    OBJ_DESTRUCT(&c->spares);
}
