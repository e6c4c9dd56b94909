/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The mapped path: the receiver's ring and control block are mapped here
 * (ucp_rkey_ptr: same node, UCX memory a shared-memory transport maps).
 * The sender copies (or packs) message n into its slot and release-stores
 * n + 1 into the slot's word; credits and "gone" are release stores into
 * the peer's control block.  A standard-mode channel's flow control is the
 * slot's word itself (slot_flow): the receiver stores 0 into it once it
 * took the message, and the sender writes only into a slot whose word is
 * 0.  No UCX call: a message is done when it is
 * written, and the receiver's load of the word sees the data.
 *
 * The hot path of shared-memory channels does not come here: a ready or
 * standard contiguous send's start and such a receive's start, look and wait are
 * inline in pml_chan_request_*.c, for the ends this path's connect()
 * flags fast_send and fast_recv (pml_chan_end.h:mca_pml_chan_ring_write_to
 * is the write they share with this one).
 */
#include "ompi_config.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "pml_chan_path.h"

static int mca_pml_chan_mapped_connect(mca_pml_chan_end_t *end, const mca_pml_chan_blob_t *peer,
                                       const char *keys)
{
    /* No credits: a ready channel, or a standard one, whose flow control
     * is the slot's word (slot_flow: the fast start's one load), not a
     * synchronous one (done only once its receive started) nor
     * pml_chan_debug_ready's check. */
    bool ok = mca_pml_chan_end_shortcut_ok(end) && !end->credits;

    (void) peer;
    (void) keys;
    /* The thread level is fixed by now (MPI_Init is over).  Unbind leaves
     * fast_recv set: its users check bound too. */
    end->fast_send = ok && end->is_send;
    end->fast_recv = ok && !end->is_send;
    end->via_worker = end->uses_worker = false;
    return OMPI_SUCCESS;
}

static int mca_pml_chan_mapped_write(mca_pml_chan_end_t *end, uint64_t n)
{
    char *slot = mca_pml_chan_slot(end->peer_mem, end, n);

    if (end->contiguous) {
        mca_pml_chan_ring_write_to(end, n, slot);
        return OMPI_SUCCESS;
    }
    mca_pml_chan_ring_pack(end, n, slot);
    mca_common_ompix_atomic_store_rel_64((volatile uint64_t *) (slot + end->seq_off), n + 1);
    return OMPI_SUCCESS;
}

/* Written is done: the data is in the peer's slot. */
static void mca_pml_chan_mapped_retire(mca_pml_chan_end_t *end)
{
    end->ndone = end->nwritten;
}

int mca_pml_chan_mapped_signal(mca_pml_chan_end_t *end, uint64_t off, uint64_t value)
{
    mca_common_ompix_atomic_store_rel_64((volatile uint64_t *) (end->peer_mem + off), value);
    return OMPI_SUCCESS;
}

const mca_pml_chan_path_t mca_pml_chan_path_mapped = {
    .name = "mapped ring",
    .connect = mca_pml_chan_mapped_connect,
    .write = mca_pml_chan_mapped_write,
    .retire = mca_pml_chan_mapped_retire,
    .post_recv = NULL,
    .poll_recv = mca_pml_chan_ring_take,
    .signal = mca_pml_chan_mapped_signal,
    .start_now = NULL,
    .release = NULL,
    .carries = false,
    .buffers = false,
    .slot_flow = true,
};
