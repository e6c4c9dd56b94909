/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The TAG path: where neither end can map the other's memory (another
 * node, or a UCX without shared memory), each message is one tag-matched
 * send on pml/chan's worker, tagged with a number the receiving end chose
 * at prepare (unique in its process, never reused), into a receive the
 * receiving end posted into its slot.  The receive's completion callback
 * release-stores the slot's sequence word, so from there on the ring's
 * receive (a load of the word, then the copy out) serves it unchanged.
 *
 * Why tags and not the AM path's active messages: UCX 1.13 sends an
 * active message with uct_ep_am_short_iov (sendmsg with three iovecs over
 * TCP), a tag message with uct_ep_am_short (copied once, send); on this
 * machine's loopback TCP a sendmsg of three iovecs costs 120-170 ns more
 * than a send of the same 32 bytes (3.3 µs each: the kernel runs the
 * receive side inside the call), and ucp_tag_send_nbx 269 instructions
 * against ucp_am_send_nbx's 480.  The receive costs more than an active
 * message (posting it, ucp_tag_recv_nbx, 158 instructions; the eager
 * handler's matching, 158 against 116): a ready receive end's fast start only counts
 * the start and its Wait/Test or progress posts the receives started
 * (mca_pml_chan_tag_post), before looking, which a ping-pong's replying
 * rank reaches while its answer is still on the way.  A message that
 * arrives before its receive is posted (a start not yet waited for, or an
 * erroneous ready send) waits in UCX's unexpected queue and completes the
 * receive when it is posted.
 *
 * Posted receives use request memory of the end's own (one block per
 * slot: UCP_OP_ATTR_FIELD_REQUEST), so nothing allocates per message;
 * receive n reuses slot n % K's block, whose receive n - K was taken
 * before start n (slack).  Sends complete when they left (eager: inside
 * the call), as on the AM path.  Both ends choose the path at connect
 * from what both blobs say (mca_pml_chan_tag_wanted), so they agree.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "pml_chan_path.h"
#include "pml_chan_request.h"

/* A receive matches its end's tag exactly. */
#define MCA_PML_CHAN_TAG_MASK (~(ucp_tag_t) 0)

/* A receive got its message: the credits it carries (a synchronous
 * channel's ring, pml_chan_pair.c: the 16 bytes after the data, zero when
 * it carries none), then the word, as the AM path's handler stores it. */
static void mca_pml_chan_tag_landed(mca_pml_chan_tag_slot_t *s)
{
    const mca_pml_chan_end_t *end = s->end;

    if (end->ahead) {
        uint64_t c[2];
        memcpy(c, (const char *) s->word - end->seq_off + end->bytes, sizeof(c));
        mca_pml_chan_credit_store(c[0], c[1]);
    }
    mca_common_ompix_atomic_store_rel_64(s->word, s->value);
}

/* Receive completion: mca_pml_chan_tag_landed.
 * Cancelled (release, with the receive still posted): nothing.  Another
 * error (the peer failed): MPI_ERR_OTHER in the status and the word all
 * the same, so that the start completes with the error instead of leaving
 * its waiter hanging. */
static void mca_pml_chan_tag_recv_cb(void *request, ucs_status_t status,
                                     const ucp_tag_recv_info_t *info, void *user_data)
{
    mca_pml_chan_tag_slot_t *s = (mca_pml_chan_tag_slot_t *) user_data;

    (void) request;
    (void) info;
    s->posted = false;
    if (UCS_ERR_CANCELED == status) {
        return;
    }
    if (OPAL_UNLIKELY(UCS_OK != status)) {
        MCA_PML_CHAN_VERBOSE(1, "tag receive failed: %s", ucs_status_string(status));
        s->end->super.req_status.MPI_ERROR = MPI_ERR_OTHER;
    }
    mca_pml_chan_tag_landed(s);
}

/* Connect, receiver: one request block and one record per slot; the
 * receives ahead posted (a synchronous channel's ring: the sender writes
 * up to K ahead, and the credits its messages carry must land when they
 * arrive, not when a later start posts their receive). */
static int mca_pml_chan_tag_setup(mca_pml_chan_end_t *end)
{
    size_t stride = (mca_pml_chan_component.request_size + 63) & ~(size_t) 63;

    end->nposted = 0;
    end->tag_stride = stride;
    end->tag_reqs = calloc(end->ring_slots, stride);
    end->tag_slots = calloc(end->ring_slots, sizeof(*end->tag_slots));
    if (NULL == end->tag_reqs || NULL == end->tag_slots) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (uint32_t k = 0; k < end->ring_slots; ++k) {
        end->tag_slots[k].end = end;
    }
    mca_pml_chan_path_post(end);
    return OMPI_SUCCESS;
}

/* Posts every receive started (and `ahead` more) not yet posted, each
 * into its slot; on a synchronous channel's ring with room for the
 * credits a message may carry, zeroed first.  Under the end's lock (or
 * no threads).  A receive UCX refuses completes at once with
 * MPI_ERR_OTHER in the status, rather than never. */
static void mca_pml_chan_tag_post(mca_pml_chan_end_t *end)
{
    ucp_request_param_t param;

    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                         UCP_OP_ATTR_FIELD_REQUEST;
    param.cb.recv = mca_pml_chan_tag_recv_cb;
    while (end->nposted < end->nstart + end->ahead) {
        uint64_t n = end->nposted, k = mca_pml_chan_ring_index(end, n);
        char *slot = mca_pml_chan_slot(end->mem, end, n);
        size_t len = end->bytes + (end->ahead ? 2 * sizeof(uint64_t) : 0);
        mca_pml_chan_tag_slot_t *s = &end->tag_slots[k];
        ucs_status_ptr_t sp;

        s->word = (volatile uint64_t *) (slot + end->seq_off);
        s->value = n + 1;
        s->posted = true;
        param.user_data = s;
        param.request = end->tag_reqs + k * end->tag_stride + mca_pml_chan_component.request_size;
        memset(slot + end->bytes, 0, len - end->bytes);
        sp = ucp_tag_recv_nbx(mca_pml_chan_component.ucx.worker, slot, len, end->tag,
                              MCA_PML_CHAN_TAG_MASK, &param);
        if (OPAL_UNLIKELY(UCS_PTR_IS_ERR(sp))) {
            MCA_PML_CHAN_VERBOSE(1, "ucp_tag_recv_nbx failed: %s",
                                 ucs_status_string(UCS_PTR_STATUS(sp)));
            end->super.req_status.MPI_ERROR = MPI_ERR_OTHER;
            sp = NULL;
        }
        if (NULL == sp) {
            /* It was there already (unexpected): done inside the call,
             * without the callback. */
            s->posted = false;
            mca_pml_chan_tag_landed(s);
        }
        ++end->nposted;
    }
}

/* Release: receives still posted (MPI_Finalize with starts outstanding)
 * leave UCX's queue before their memory goes. */
static void mca_pml_chan_tag_release(mca_pml_chan_end_t *end)
{
    for (uint32_t k = 0; NULL != end->tag_slots && k < end->ring_slots; ++k) {
        if (end->tag_slots[k].posted) {
            ucp_request_cancel(mca_pml_chan_component.ucx.worker,
                               end->tag_reqs + k * end->tag_stride +
                                   mca_pml_chan_component.request_size);
        }
    }
}

/* The general send of message n from the user's buffer or its packed
 * copy, followed by the reverse channel's credits when it owes some
 * (pml_chan_pair.c: the credits word and the count, kept in the slot's AM
 * header with the iov until the send left); its request kept per slot
 * until it left. */
static int mca_pml_chan_tag_write(mca_pml_chan_end_t *end, uint64_t n)
{
    uint64_t k = mca_pml_chan_slot_index(end, n);
    mca_pml_chan_am_hdr_t *hdr = &end->am_hdrs[k];
    ucp_dt_iov_t *iov = &end->carry_iov[2 * k];
    const void *buf = mca_pml_chan_ring_source(end, n);
    size_t count = end->bytes;
    ucp_request_param_t param;

    param.op_attr_mask = 0;
    if (mca_pml_chan_ring_carry(end, &hdr->cword, &hdr->cvalue)) {
        iov[0].buffer = (void *) buf;
        iov[0].length = end->bytes;
        iov[1].buffer = &hdr->cword;
        iov[1].length = 2 * sizeof(uint64_t);
        param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE;
        param.datatype = ucp_dt_make_iov();
        buf = iov;
        count = 2;
    }
    return mca_pml_chan_keep_request(ucp_tag_send_nbx(end->ep, buf, count, end->tag, &param),
                                     "ucp_tag_send_nbx", &end->put_reqs[2 * k]);
}

/* start_now: the fast start of an idle am_send end, one ucp_tag_send_nbx
 * that sends inside the call (an eager short message: UCX's inline send)
 * or not at all (UCP_OP_ATTR_FLAG_FORCE_IMM_CMPL), so there is no request
 * to keep and the message is done when it returns, as on the mapped
 * path.  False: nothing sent; the general start sends it.  UCX's is its
 * only call but the completion's, which is rare. */
static bool mca_pml_chan_tag_start_now(mca_pml_chan_end_t *end)
{
    uint64_t n = end->nstart;
    ucp_request_param_t param;

    param.op_attr_mask = UCP_OP_ATTR_FLAG_FORCE_IMM_CMPL;
    if (OPAL_UNLIKELY(NULL != ucp_tag_send_nbx(end->ep, mca_pml_chan_user_buf(end, n),
                                               end->bytes, end->tag, &param))) {
        return false;
    }
    mca_pml_chan_request_done_now(end, n);
    return true;
}

/* The sender learns the receiving end's tag, the receiver sets up its
 * receives; the shortcuts as on the AM path, whose active messages carry
 * the credits and "gone". */
static int mca_pml_chan_tag_connect(mca_pml_chan_end_t *end, const mca_pml_chan_blob_t *peer,
                                    const char *keys)
{
    (void) keys;
    mca_pml_chan_am_choose(end);
    if (end->is_send) {
        end->tag = peer->tag;
        return OMPI_SUCCESS;
    }
    return mca_pml_chan_tag_setup(end);
}

const mca_pml_chan_path_t mca_pml_chan_path_tag = {
    .name = "ring by tag messages",
    .connect = mca_pml_chan_tag_connect,
    .write = mca_pml_chan_tag_write,
    .retire = mca_pml_chan_ring_retire_sent,
    .post_recv = mca_pml_chan_tag_post,
    .poll_recv = mca_pml_chan_ring_take,
    .signal = mca_pml_chan_am_signal,
    .start_now = mca_pml_chan_tag_start_now,
    .release = mca_pml_chan_tag_release,
    .carries = true,
    .buffers = true,
    .slot_flow = false,
};

/* Connect, when the receiver did not take the large path: the TAG path
 * when no end can map the other's memory as far as both blobs tell (not
 * on one node, or one of the two processes' UCX has no memory a peer
 * maps) and both allow it (pml_chan_remote): a function of what both ends
 * know, so they agree.  A pair that could map each other but whose
 * ucp_rkey_ptr fails keeps the AM path (the receiver then posts nothing
 * and reads its slots). */
bool mca_pml_chan_tag_wanted(const mca_pml_chan_end_t *end, bool peer_mappable,
                             bool peer_tags)
{
    const mca_pml_chan_component_t *c = &mca_pml_chan_component;

    return peer_tags && MCA_PML_CHAN_REMOTE_TAG == c->remote &&
           !(OPAL_PROC_ON_LOCAL_NODE(end->proc->super.proc_flags) && c->mappable &&
             peer_mappable);
}
