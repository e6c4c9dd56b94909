/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The AM path: where the peer's memory is not mapped here (another node,
 * or UCX_TLS without shared memory), each write into it is one active
 * message on pml/chan's worker whose header says where the data goes and
 * which word to release-store afterwards.  The receiver's handler copies
 * the data and stores the word, so the word lands after the data by
 * construction: one message per channel message, no fence, no second
 * put, no acknowledgement (UCX 1.13 emulates puts over TCP with an active
 * message and a reply each).  Sends complete when the message left
 * (eager: usually inside ucp_am_send_nbx).  A ready contiguous send's
 * fast start (mca_pml_chan_am_send_now) sends it inside the call or not
 * at all, and up to MCA_PML_CHAN_AM_SHORT bytes in a short form without
 * a UCX header (the word's address and value lead the data).  The handler runs inside
 * ucp_worker_progress (pml/chan's progress, or a Wait/Test's look), under
 * whatever lock the caller of progress holds; it touches nothing but the
 * target memory.
 *
 * The addresses are the receiving end's ring and control block, which it
 * shipped in its blob; that memory stays mapped until the end's peer said
 * "gone" (pml_chan_bind.c: zombies), and "gone" travels as the last
 * message on the same endpoint, after every message the peer sent.
 */
#include "ompi_config.h"

#include <string.h>

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "pml_chan_path.h"
#include "pml_chan_request.h"

/* mca_pml_chan_am_send_now's short form carries messages up to this size. */
#define MCA_PML_CHAN_AM_SHORT 64

/* The short form (mca_pml_chan_am_send_now): no header; the data is
 * the word's address, the value, then the message, which goes right
 * before the word (a slot's data is its bytes rounded up to 8, then the
 * word: pml_chan_end.h). */
static ucs_status_t mca_pml_chan_am_recv_short(const char *data, size_t length)
{
    uint64_t w[2];

    memcpy(w, data, sizeof(w));
    length -= sizeof(w);
    if (length > 0) {
        memcpy((void *) (uintptr_t) (w[0] - mca_pml_chan_round(length, 8)), data + sizeof(w),
               length);
    }
    mca_common_ompix_atomic_store_rel_64((volatile uint64_t *) (uintptr_t) w[0], w[1]);
    return UCS_OK;
}

static ucs_status_t mca_pml_chan_am_recv(void *arg, const void *header, size_t header_length,
                                         void *data, size_t length,
                                         const ucp_am_recv_param_t *param)
{
    mca_pml_chan_am_hdr_t h;

    (void) arg;
    if (OPAL_UNLIKELY((0 != header_length || length < 2 * sizeof(uint64_t)) &&
                      MCA_PML_CHAN_AM_HDR_PLAIN != header_length &&
                      sizeof(h) != header_length) ||
        OPAL_UNLIKELY(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        /* Never: every sender forces eager and sends one of our forms. */
        MCA_PML_CHAN_VERBOSE(1, "active message dropped (header %zu bytes, attr 0x%llx)",
                             header_length, (unsigned long long) param->recv_attr);
        return UCS_OK;
    }
    if (0 == header_length) {
        return mca_pml_chan_am_recv_short((const char *) data, length);
    }
    memcpy(&h, header, header_length);
    if (length > 0) {
        memcpy((void *) (uintptr_t) h.data, data, length);
    }
    if (sizeof(h) == header_length) {
        mca_pml_chan_credit_store(h.cword, h.cvalue);
    }
    mca_common_ompix_atomic_store_rel_64((volatile uint64_t *) (uintptr_t) h.word, h.value);
    return UCS_OK;
}

/* Once, after the worker is created. */
int mca_pml_chan_am_init(ucp_worker_h worker)
{
    ucp_am_handler_param_t p;

    memset(&p, 0, sizeof(p));
    p.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_FLAGS |
                   UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG;
    p.id = MCA_PML_CHAN_AM_ID;
    p.flags = UCP_AM_FLAG_WHOLE_MSG;
    p.cb = mca_pml_chan_am_recv;
    p.arg = NULL;
    return UCS_OK == ucp_worker_set_am_recv_handler(worker, &p) ? OMPI_SUCCESS : OMPI_ERROR;
}

/* `len` bytes of `src` to the peer's `data_off`, then `value` into its
 * word at `word_off` (offsets from its control block); with `carry`, the
 * carrying form (hdr->cword, cvalue set).  `*hdr` must stay until `*req`
 * completed (NULL: done already). */
static int mca_pml_chan_am_send_hdr(mca_pml_chan_end_t *end, const void *src, size_t len,
                                    uint64_t data_off, uint64_t word_off, uint64_t value,
                                    bool carry, mca_pml_chan_am_hdr_t *hdr, void **req)
{
    ucp_request_param_t param;

    hdr->data = end->peer_base + data_off;
    hdr->word = end->peer_base + word_off;
    hdr->value = value;
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_AM_SEND_FLAG_EAGER;
    return mca_pml_chan_keep_request(ucp_am_send_nbx(end->ep, MCA_PML_CHAN_AM_ID, hdr,
                                                     carry ? sizeof(*hdr)
                                                           : MCA_PML_CHAN_AM_HDR_PLAIN,
                                                     src, len, &param),
                                     "ucp_am_send_nbx", req);
}

int mca_pml_chan_am_write(mca_pml_chan_end_t *end, const void *src, size_t len,
                          uint64_t data_off, uint64_t word_off, uint64_t value,
                          mca_pml_chan_am_hdr_t *hdr, void **req)
{
    return mca_pml_chan_am_send_hdr(end, src, len, data_off, word_off, value, false, hdr, req);
}

/* The fast send of a ready contiguous send on the AM path (am_send):
 * message n in one ucp_am_send_nbx that must complete inside
 * the call (UCP_OP_ATTR_FLAG_FORCE_IMM_CMPL: an eager short message, the
 * usual case), so what it sends lives on the stack and there is no
 * request to keep or retire.  Up to MCA_PML_CHAN_AM_SHORT bytes in the
 * short form: no UCX header, the word's address, the value and a copy of
 * the message as the data, one iov element less for UCX (ucp_am_send_nbx
 * 482 instead of 544 instructions for 8 bytes over TCP, callgrind);
 * larger ones with the header and the user's buffer.  False when UCX
 * could not send it at once (no resources, an error): nothing left, and
 * the caller takes the general path (start_one), which sends with a
 * request and reports errors. */
static inline bool mca_pml_chan_am_send_now(mca_pml_chan_end_t *end, uint64_t n)
{
    uint64_t slot = end->peer_base + MCA_PML_CHAN_CTL + (n & end->slot_mask) * end->slot_size;
    uint64_t msg[2 + MCA_PML_CHAN_AM_SHORT / sizeof(uint64_t)];
    ucp_request_param_t param;

    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FLAG_FORCE_IMM_CMPL;
    param.flags = UCP_AM_SEND_FLAG_EAGER;
    if (OPAL_UNLIKELY(end->bytes > MCA_PML_CHAN_AM_SHORT)) {
        mca_pml_chan_am_hdr_t hdr = {.data = slot, .word = slot + end->seq_off, .value = n + 1};
        return NULL == ucp_am_send_nbx(end->ep, MCA_PML_CHAN_AM_ID, &hdr, MCA_PML_CHAN_AM_HDR_PLAIN,
                                       mca_pml_chan_user_buf(end, n), end->bytes, &param);
    }
    msg[0] = slot + end->seq_off;
    msg[1] = n + 1;
    mca_pml_chan_copy((char *) &msg[2], mca_pml_chan_user_buf(end, n), end->bytes);
    return NULL == ucp_am_send_nbx(end->ep, MCA_PML_CHAN_AM_ID, NULL, 0, msg,
                                   2 * sizeof(uint64_t) + end->bytes, &param);
}

/* start_now: the fast start of an idle am_send end, done when it returns
 * as on the mapped path. */
static bool mca_pml_chan_am_start_now(mca_pml_chan_end_t *end)
{
    uint64_t n = end->nstart;

    if (OPAL_UNLIKELY(!mca_pml_chan_am_send_now(end, n))) {
        return false;
    }
    mca_pml_chan_request_done_now(end, n);
    return true;
}

/* connect, TAG path too: the AM and TAG paths' counterparts of fast_send
 * and fast_recv (a ready contiguous send, a contiguous ring receive
 * without credits to report; slack a power of two, no threads): am_send
 * ends start with the path's start_now, am_recv ends as fast_recv ends
 * do, their Wait/Test progressing pml/chan's worker, after posting the
 * receives started (TAG path: pml_chan_request_wait.c).  Messages and words
 * land only as the worker progresses. */
void mca_pml_chan_am_choose(mca_pml_chan_end_t *end)
{
    bool ok = mca_pml_chan_end_shortcut_ok(end) && !end->credits;

    end->am_send = ok && end->is_send;
    end->am_recv = ok && !end->is_send;
    end->via_worker = end->uses_worker = true;
}

static int mca_pml_chan_am_connect(mca_pml_chan_end_t *end, const mca_pml_chan_blob_t *peer,
                                   const char *keys)
{
    (void) peer;
    (void) keys;
    mca_pml_chan_am_choose(end);
    return OMPI_SUCCESS;
}

/* The general send of message n: one active message from the user's
 * buffer or its packed copy, with the header naming the slot and its
 * word, and the reverse channel's credits when it owes some
 * (pml_chan_pair.c); the header and the request kept per slot until it
 * left. */
static int mca_pml_chan_am_write_msg(mca_pml_chan_end_t *end, uint64_t n)
{
    uint64_t k = mca_pml_chan_slot_index(end, n);
    uint64_t slot = mca_pml_chan_slot_offset(end, n);
    mca_pml_chan_am_hdr_t *hdr = &end->am_hdrs[k];
    bool carry = mca_pml_chan_ring_carry(end, &hdr->cword, &hdr->cvalue);

    return mca_pml_chan_am_send_hdr(end, mca_pml_chan_ring_source(end, n), end->bytes, slot,
                                    slot + end->seq_off, n + 1, carry, hdr,
                                    &end->put_reqs[2 * k]);
}

/* A word that must have left before we go on (credits, gone; the TAG
 * path's too). */
int mca_pml_chan_am_signal(mca_pml_chan_end_t *end, uint64_t off, uint64_t value)
{
    mca_pml_chan_am_hdr_t hdr;
    void *req;

    if (OMPI_SUCCESS != mca_pml_chan_am_write(end, NULL, 0, 0, off, value, &hdr, &req)) {
        return OMPI_ERROR;
    }
    return mca_common_ompix_ucx_wait(&mca_pml_chan_component.ucx, req, "ucp_am_send_nbx");
}

const mca_pml_chan_path_t mca_pml_chan_path_am = {
    .name = "ring by active messages",
    .connect = mca_pml_chan_am_connect,
    .write = mca_pml_chan_am_write_msg,
    .retire = mca_pml_chan_ring_retire_sent,
    .post_recv = NULL,
    .poll_recv = mca_pml_chan_ring_take,
    .signal = mca_pml_chan_am_signal,
    .start_now = mca_pml_chan_am_start_now,
    .release = NULL,
    .carries = true,
    .buffers = false,
    .slot_flow = false,
};
