/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The large path: a receive of at least pml_chan_large_min bytes (0: off),
 * whose buffer is contiguous and whose peer is on this node, takes its
 * messages in place.  The receive's buffer is fixed at MPI_Recv_init, so
 * the range its K messages use (base + k x address_base_increment, k < K)
 * is known at prepare: the receiver maps it with ucp_mem_map, ships its
 * key, its pid and a mark it put in its control block, and its ring
 * shrinks to the sequence words.  The sender writes message n from its
 * buffer (or, not contiguous, from its packed staging area) straight into
 * the receiver's buffer for n, then the word as the ring does; the
 * receiver completes on the word, with no copy.  The sender writes
 *   with process_vm_writev (cma: one copy, by the kernel, done when the
 *     call returns) when its probe at connect, process_vm_readv of the
 *     mark from the receiver's pid, saw the mark (cma allowed, the right
 *     process);
 *   otherwise with ucp_put_nbx and a flush, the word after the flush
 *     completed (whatever transport carried the data).  UCX 1.13 gives RMA
 *     lanes only to transports with put_short/bcopy, never to cma
 *     (zero-copy only), so on one node such a put into a user buffer is
 *     emulated with active messages over the shared-memory FIFO (two
 *     copies, and the receiver's worker must run: progress runs it).
 *
 * Writing into the user's buffer is legal: a ready channel's send starts
 * only after its receive did (MPI ready mode), and a synchronous or
 * standard one writes once the credits say so (no slots ahead).
 *
 * The receiver alone chooses (it is the one that knows its buffer); a
 * mapping that fails leaves it on the ring, never fails the bind.  The
 * words (sequence words, credits, gone) go as on the ring the pair would
 * otherwise use: stored through the mapping (peer_mem) or, not mapped, by
 * active message.  The
 * sender without cma maps its own range too, so that UCX may skip
 * registering it per put; if that fails it puts from unmapped memory.
 */
#include "ompi_config.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/uio.h>
#endif

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "pml_chan_path.h"

/* The user memory the end's K messages touch (contiguous: from buf). */
static void mca_pml_chan_large_range(const mca_pml_chan_end_t *end, char **lo, size_t *len)
{
    ptrdiff_t last = (ptrdiff_t) (end->slack - 1) * end->incr_bytes;

    *lo = end->buf + (last < 0 ? last : 0);
    *len = (size_t) (last < 0 ? -last : last) + end->bytes;
}

static int mca_pml_chan_large_map(mca_pml_chan_end_t *end, char *lo, size_t len)
{
    void *base = NULL;

    if (OMPI_SUCCESS != mca_common_ompix_ucx_mem_map(&mca_pml_chan_component.ucx, lo, len,
                                                     false, &end->large_memh, &base)) {
        end->large_memh = NULL;
        return OMPI_ERROR;
    }
    return OMPI_SUCCESS;
}

/* The smallest message this end takes in place (0: never): a
 * synchronous channel's is the lower of pml_chan_large_min and
 * pml_chan_large_sync_min (0: not lower); pml_chan_large_min 0 turns the
 * path off for every channel. */
static size_t mca_pml_chan_large_threshold(const mca_pml_chan_end_t *end)
{
    const mca_pml_chan_component_t *c = &mca_pml_chan_component;

    if (end->spec.sync && 0 != c->large_min && 0 != c->large_sync_min &&
        c->large_sync_min < c->large_min) {
        return c->large_sync_min;
    }
    return c->large_min;
}

/* Prepare, receiver, before its ring is mapped: whether it takes this
 * end's messages in place; the slot is then the sequence word alone. */
void mca_pml_chan_large_offer(mca_pml_chan_end_t *end)
{
    size_t min = mca_pml_chan_large_threshold(end);
    char *lo;
    size_t len;

    if (end->is_send || !end->contiguous || 0 == end->bytes || 0 == min || end->bytes < min ||
        !OPAL_PROC_ON_LOCAL_NODE(end->proc->super.proc_flags)) {
        return;
    }
    mca_pml_chan_large_range(end, &lo, &len);
    if (OMPI_SUCCESS != mca_pml_chan_large_map(end, lo, len)) {
        MCA_PML_CHAN_VERBOSE(10, "ucp_mem_map of a %zu-byte receive buffer failed: ring", len);
        return;
    }
    if (UCS_OK != ucp_rkey_pack(mca_pml_chan_component.ucx.context, end->large_memh,
                                &end->large_rkey_buf, &end->large_rkey_len)) {
        MCA_PML_CHAN_VERBOSE(10, "ucp_rkey_pack of a receive buffer failed: ring");
        end->large_rkey_buf = NULL;
        mca_pml_chan_large_release(end);
        return;
    }
    end->large = true;
    end->seq_off = 0;
    end->slot_size = 64;
    /* The data goes into the user's buffer: no send may write before its
     * receive started, so no slots ahead (pml_chan_pair.c). */
    mca_pml_chan_end_ring(end, end->slack);
}

/* len bytes from src here to dst in the receiver; false when cma failed. */
static bool mca_pml_chan_large_cma(const mca_pml_chan_end_t *end, uint64_t dst,
                                   const char *src, size_t len)
{
#if defined(__linux__)
    while (len > 0) {
        struct iovec local = { .iov_base = (void *) src, .iov_len = len };
        struct iovec remote = { .iov_base = (void *) (uintptr_t) dst, .iov_len = len };
        ssize_t done = process_vm_writev((pid_t) end->peer_pid, &local, 1, &remote, 1, 0);
        if (done <= 0) {
            if (done < 0 && EINTR == errno) {
                continue;
            }
            return false;
        }
        src += done;
        dst += (uint64_t) done;
        len -= (size_t) done;
    }
    return true;
#else
    (void) end, (void) dst, (void) src, (void) len;
    return false;
#endif
}

/* Whether cma reaches the receiver: its pid, read with process_vm_readv
 * at its control block's probe word, shows the mark it put there. */
static bool mca_pml_chan_large_cma_probe(mca_pml_chan_end_t *end, uint64_t mark)
{
#if defined(__linux__)
    uint64_t seen = 0;
    struct iovec local = { .iov_base = &seen, .iov_len = sizeof(seen) };
    struct iovec remote = {
        .iov_base = (void *) (uintptr_t) (end->peer_base + MCA_PML_CHAN_CTL_PROBE),
        .iov_len = sizeof(seen)
    };

    return 0 < end->peer_pid && 0 != mark &&
           (ssize_t) sizeof(seen) == process_vm_readv((pid_t) end->peer_pid, &local, 1,
                                                      &remote, 1, 0) &&
           seen == mark;
#else
    (void) end, (void) mark;
    return false;
#endif
}

/* Prepare, receiver, once its control block is mapped: the mark the
 * sender's probe looks for (unlikely at that address in another process). */
uint64_t mca_pml_chan_large_mark(mca_pml_chan_end_t *end)
{
    static uint64_t count;
    uint64_t mark = ((uint64_t) getpid() << 32) ^ (uint64_t) (uintptr_t) end->mem ^
                    ((uint64_t) time(NULL) * 0x9e3779b97f4a7c15ull) ^ ++count;

    mark |= 1;
    *(volatile uint64_t *) (end->mem + MCA_PML_CHAN_CTL_PROBE) = mark;
    return mark;
}

/* Connect, sender, when the receiver offered: its key, where its message
 * 0 is, its increment in bytes and its pid. */
static int mca_pml_chan_large_accept(mca_pml_chan_end_t *end, const void *rkey, uint64_t base,
                                     int64_t incr, int32_t pid, uint64_t mark)
{
    char *lo;
    size_t len;

    if (UCS_OK != ucp_ep_rkey_unpack(end->ep, rkey, &end->peer_large_rkey)) {
        end->peer_large_rkey = NULL;
        return OMPI_ERR_UNREACH;
    }
    end->large = true;
    end->peer_large_base = base;
    end->peer_large_incr = incr;
    end->peer_pid = pid;
    end->seq_off = 0;
    end->slot_size = 64;
    end->large_cma = mca_pml_chan_component.large_cma && mca_pml_chan_large_cma_probe(end, mark);
    if (end->large_cma) {
        return OMPI_SUCCESS;            /* nothing for UCX to register */
    }
    if (end->contiguous) {
        mca_pml_chan_large_range(end, &lo, &len);
    } else {
        lo = end->stage;
        len = end->slack * end->bytes;
    }
    if (OMPI_SUCCESS != mca_pml_chan_large_map(end, lo, len)) {
        MCA_PML_CHAN_VERBOSE(10, "ucp_mem_map of a %zu-byte send buffer failed: puts from "
                             "unmapped memory", len);
    }
    return OMPI_SUCCESS;
}

/* Unbind, finalize, or a bind that did not happen. */
void mca_pml_chan_large_release(mca_pml_chan_end_t *end)
{
    if (NULL != end->peer_large_rkey) {
        ucp_rkey_destroy(end->peer_large_rkey);
        end->peer_large_rkey = NULL;
    }
    if (NULL != end->large_rkey_buf) {
        ucp_rkey_buffer_release(end->large_rkey_buf);
        end->large_rkey_buf = NULL;
    }
    if (NULL != end->large_memh) {
        ucp_mem_unmap(mca_pml_chan_component.ucx.context, end->large_memh);
        end->large_memh = NULL;
    }
    end->large = end->large_cma = false;
}

/* Message n's data into the receiver's buffer for n: cma, done on
 * return (a failure moves the end to UCX for good), or a put and then a
 * flush whose completion lets retire() write the word.  The put's own
 * request is released at once: the flush completes after it. */
static int mca_pml_chan_large_write(mca_pml_chan_end_t *end, uint64_t n)
{
    uint64_t k = mca_pml_chan_slot_index(end, n);
    uint64_t dst = end->peer_large_base + (uint64_t) ((int64_t) k * end->peer_large_incr);
    const char *src = mca_pml_chan_ring_source(end, n);
    ucp_request_param_t param;
    ucs_status_ptr_t sp;

    end->put_reqs[2 * k] = end->put_reqs[2 * k + 1] = NULL;
    if (end->large_cma) {
        if (mca_pml_chan_large_cma(end, dst, src, end->bytes)) {
            return OMPI_SUCCESS;
        }
        MCA_PML_CHAN_VERBOSE(1, "process_vm_writev to pid %d failed (%s): UCX puts from now",
                             (int) end->peer_pid, strerror(errno));
        end->large_cma = false;
    }
    memset(&param, 0, sizeof(param));
    if (NULL != end->large_memh) {
        param.op_attr_mask = UCP_OP_ATTR_FIELD_MEMH;
        param.memh = end->large_memh;
    }
    sp = ucp_put_nbx(end->ep, src, end->bytes, dst, end->peer_large_rkey, &param);
    if (UCS_PTR_IS_ERR(sp)) {
        MCA_PML_CHAN_VERBOSE(1, "ucp_put_nbx failed: %s", ucs_status_string(UCS_PTR_STATUS(sp)));
        return OMPI_ERROR;
    }
    if (NULL != sp) {
        ucp_request_free(sp);
    }
    memset(&param, 0, sizeof(param));
    sp = ucp_ep_flush_nbx(end->ep, &param);
    if (UCS_PTR_IS_ERR(sp)) {
        MCA_PML_CHAN_VERBOSE(1, "ucp_ep_flush_nbx failed: %s",
                             ucs_status_string(UCS_PTR_STATUS(sp)));
        return OMPI_ERROR;
    }
    end->put_reqs[2 * k] = sp;
    return OMPI_SUCCESS;
}

/* Message n's data arrived: its word, stored (mapped ring) or sent by
 * active message (after the data, which completed).  words[k] remembers
 * that it was. */
static int mca_pml_chan_large_signal(mca_pml_chan_end_t *end, uint64_t n)
{
    uint64_t k = mca_pml_chan_slot_index(end, n);
    uint64_t slot = mca_pml_chan_slot_offset(end, n);

    end->words[k] = n + 1;
    if (NULL != end->peer_mem) {
        mca_common_ompix_atomic_store_rel_64((volatile uint64_t *) (end->peer_mem + slot), n + 1);
        return OMPI_SUCCESS;
    }
    return mca_pml_chan_am_write(end, NULL, 0, 0, slot, n + 1, &end->am_hdrs[k],
                                 &end->put_reqs[2 * k + 1]);
}

/* Retires, in order, the messages whose data arrived and whose word left. */
static void mca_pml_chan_large_retire(mca_pml_chan_end_t *end)
{
    while (end->ndone < end->nwritten) {
        uint64_t n = end->ndone, k = mca_pml_chan_slot_index(end, n);
        void **reqs = &end->put_reqs[2 * k];
        if (!mca_pml_chan_ring_req_done(&reqs[0])) {
            break;
        }
        if (n + 1 != end->words[k] && OMPI_SUCCESS != mca_pml_chan_large_signal(end, n)) {
            end->super.req_status.MPI_ERROR = MPI_ERR_OTHER;
        }
        if (!mca_pml_chan_ring_req_done(&reqs[1])) {
            break;
        }
        ++end->ndone;
    }
}

/* The receiver's take: the data is in place, the word says it arrived. */
static bool mca_pml_chan_large_poll_recv(mca_pml_chan_end_t *end)
{
    uint64_t before = end->ndone;

    while (NULL != mca_pml_chan_ring_arrived(end)) {
        ++end->ndone;
    }
    return end->ndone != before;
}

/* Credits and "gone": through the mapping or by active message. */
static int mca_pml_chan_large_signal_word(mca_pml_chan_end_t *end, uint64_t off, uint64_t value)
{
    return NULL != end->peer_mem ? mca_pml_chan_mapped_signal(end, off, value)
                                 : mca_pml_chan_am_signal(end, off, value);
}

/* The sender accepts what the receiver offered at prepare (its blob's
 * keys: the rkey of its buffer).  No shortcut (the end is large); the
 * worker runs for words by active message and, without cma, for the
 * sender's flushes and the receiver (which can not tell) in case UCX
 * emulates the puts with messages. */
static int mca_pml_chan_large_connect(mca_pml_chan_end_t *end, const mca_pml_chan_blob_t *peer,
                                      const char *keys)
{
    int ret = OMPI_SUCCESS;

    if (end->is_send) {
        ret = mca_pml_chan_large_accept(end, keys, peer->large_base, peer->large_incr,
                                        peer->pid, peer->mark);
    }
    end->via_worker = NULL == end->peer_mem;
    end->uses_worker = end->via_worker || !end->large_cma;
    return ret;
}

const mca_pml_chan_path_t mca_pml_chan_path_large = {
    .name = "large (in place)",
    .connect = mca_pml_chan_large_connect,
    .write = mca_pml_chan_large_write,
    .retire = mca_pml_chan_large_retire,
    .post_recv = NULL,
    .poll_recv = mca_pml_chan_large_poll_recv,
    .signal = mca_pml_chan_large_signal_word,
    .start_now = NULL,
    .release = mca_pml_chan_large_release,
    .carries = false,
    .buffers = false,
    .slot_flow = false,
};
