/*
 * Copyright (c) 2026 The ompix developers.
 *
 * How a channel end moves its messages: a table of operations chosen once,
 * at connect (pml_chan_bind.c:mca_pml_chan_path_choose), that the engine
 * calls through (pml_chan_ring.c), as osc/rdma2's per-peer paths do
 * (osc_rdma2_path.h).  One file per path:
 *   mapped (pml_chan_path_mapped.c): the receiver's ring mapped here
 *          (ucp_rkey_ptr, same node): copies and release stores, no UCX;
 *   am     (pml_chan_path_am.c): one active message per write, which the
 *          receiver's handler copies into the slot before storing its word;
 *   tag    (pml_chan_path_tag.c): one tag message per message, into a
 *          receive posted into the slot, whose completion stores the word;
 *   large  (pml_chan_path_large.c): the data straight into the receiver's
 *          buffer (cma or UCX puts), the words as on the mapped or AM ring.
 *
 * What the shared-memory hot path runs does not go through the table: a
 * mapped ready send's start and a ready receive's start, look and wait
 * (pml_chan_request_*.c) are inline and test the flags the mapped path's
 * connect() set (fast_send, fast_recv).  The AM and TAG paths' fast
 * receive is the same code (am_recv); their fast send is the table's
 * start_now.
 *
 * A new path: its file, defining its table; its extern below; one line in
 * mca_pml_chan_path_choose; the file in Makefile.am.
 */
#ifndef MCA_PML_CHAN_PATH_H
#define MCA_PML_CHAN_PATH_H

#include "pml_chan_end.h"

BEGIN_C_DECLS

/* What an end ships to its peer at prepare (pml_chan_bind.c writes and
 * checks it), followed by its worker address, its rkey and (large) the
 * key of its receive buffer. */
typedef struct mca_pml_chan_blob_t {
    uint32_t magic;
    uint8_t is_send;
    uint8_t credits;            /* sender: wants the receiver's credits */
    uint8_t large;              /* receiver: takes the data in place */
    uint8_t mappable;           /* same-node peers map our UCX memory */
    uint32_t slack;
    uint32_t addr_len;
    uint32_t rkey_len;
    uint32_t large_rkey_len;    /* large: the key of its buffer, after our rkey */
    uint64_t bytes;
    uint64_t base;              /* our control block */
    uint64_t large_base;        /* large: message 0's buffer */
    int64_t large_incr;         /* large: address_base_increment in bytes */
    int32_t pid;                /* large: for cma on one node */
    uint8_t tags;               /* pml_chan_remote allows the TAG path */
    uint8_t pad[3];
    uint64_t mark;              /* large: at our control block's probe word */
    uint64_t tag;               /* receiver: its messages' tag on the TAG path */
    uint32_t ring;              /* receiver: the slots of its ring (slack or 2 * slack) */
    uint32_t pad2;
} mca_pml_chan_blob_t;

struct mca_pml_chan_path_t {
    const char *name;               /* for pml_chan_verbose */
    /* Connect, once the path is chosen (ep, rkey, peer_base and, mapped,
     * peer_mem set): the path's own set-up from the peer's blob (`keys`:
     * what follows its rkey) and the end's flags: the shortcuts
     * (fast_send/fast_recv, am_send/am_recv) and via_worker/uses_worker. */
    int (*connect)(mca_pml_chan_end_t *end, const mca_pml_chan_blob_t *peer, const char *keys);
    /* Sender: message n (the user's data, packed if need be) to the
     * receiver, its sequence word after it. */
    int (*write)(mca_pml_chan_end_t *end, uint64_t n);
    /* Sender: ndone up to the written messages that are done here (their
     * data left; their word too), in order. */
    void (*retire)(mca_pml_chan_end_t *end);
    /* Receiver: posts the receives started and not yet posted, and those
     * `ahead` of them (a message lands only in a posted one); NULL when
     * nothing is posted. */
    void (*post_recv)(mca_pml_chan_end_t *end);
    /* Receiver: takes the messages arrived, in order (ndone); true when
     * some were. */
    bool (*poll_recv)(mca_pml_chan_end_t *end);
    /* `value` into the word at `off` of the peer's control block (credits,
     * gone), release order, on its way when this returns. */
    int (*signal)(mca_pml_chan_end_t *end, uint64_t off, uint64_t value);
    /* The fast start of an idle am_send end: message nstart sent inside
     * the call and the request complete, or false with nothing sent (the
     * general start then sends it).  NULL where no end is am_send. */
    bool (*start_now)(mca_pml_chan_end_t *end);
    /* Unbind, finalize: what the path holds beyond the end's memory;
     * NULL: nothing. */
    void (*release)(mca_pml_chan_end_t *end);
    /* Its writes can carry the reverse channel's credits, and its credits
     * are messages worth carrying (pml_chan_pair.c). */
    bool carries;
    /* A message that arrives before its receive was posted waits where the
     * transport keeps it (UCX's unexpected queue), never in a slot a later
     * message uses: a standard-mode send needs no credits on this path
     * (pml_chan_bind.c:mca_pml_chan_end_flow). */
    bool buffers;
    /* The sender sees the receiver's slot words (mapped): a standard-mode
     * send writes message n once its slot's word is 0, the receiver having
     * taken message n - K (pml_chan_end.h:mca_pml_chan_end_slot_free): no
     * credits, K slots. */
    bool slot_flow;
};

extern const mca_pml_chan_path_t mca_pml_chan_path_mapped;
extern const mca_pml_chan_path_t mca_pml_chan_path_am;
extern const mca_pml_chan_path_t mca_pml_chan_path_tag;
extern const mca_pml_chan_path_t mca_pml_chan_path_large;

/* Receiver: the receives started (and those ahead: pml_chan_pair.c)
 * posted where the path posts them; otherwise nothing, without a call. */
static inline void mca_pml_chan_path_post(mca_pml_chan_end_t *end)
{
    if (NULL != end->path->post_recv && end->nposted < end->nstart + end->ahead) {
        end->path->post_recv(end);
    }
}

/* Carried credits land (the AM handler, a TAG receive): `value` into the
 * credits word at `word` (here), unless 0 or it holds more already (a
 * credit of its own may have overtaken them). */
static inline void mca_pml_chan_credit_store(uint64_t word, uint64_t value)
{
    volatile uint64_t *w = (volatile uint64_t *) (uintptr_t) word;

    if (0 != word && value > mca_common_ompix_atomic_load_acq_64(w)) {
        mca_common_ompix_atomic_store_rel_64(w, value);
    }
}

/* pml_chan_path_mapped.c: a release store into the mapped peer's control
 * block (also the large path's, with a mapped ring). */
int mca_pml_chan_mapped_signal(mca_pml_chan_end_t *end, uint64_t off, uint64_t value);

/* pml_chan_path_am.c */
int mca_pml_chan_am_init(ucp_worker_h worker);
int mca_pml_chan_am_write(mca_pml_chan_end_t *end, const void *src, size_t len,
                          uint64_t data_off, uint64_t word_off, uint64_t value,
                          mca_pml_chan_am_hdr_t *hdr, void **req);
int mca_pml_chan_am_signal(mca_pml_chan_end_t *end, uint64_t off, uint64_t value);
void mca_pml_chan_am_choose(mca_pml_chan_end_t *end);

/* pml_chan_path_tag.c */
bool mca_pml_chan_tag_wanted(const mca_pml_chan_end_t *end, bool peer_mappable,
                             bool peer_tags);

/* pml_chan_path_large.c: chosen by the receiver at prepare */
void mca_pml_chan_large_offer(mca_pml_chan_end_t *end);
uint64_t mca_pml_chan_large_mark(mca_pml_chan_end_t *end);
void mca_pml_chan_large_release(mca_pml_chan_end_t *end);

END_C_DECLS

#endif /* MCA_PML_CHAN_PATH_H */
