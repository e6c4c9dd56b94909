/*
 * Copyright (c) 2026 The ompix developers.
 *
 * One end of a channel: between prepare() and connect() the "half", after
 * connect() the channel request itself.
 *
 * Memory each end maps with UCX (allocated, so that a same-node peer can
 * reach it with ucp_rkey_ptr) and the peer writes:
 *   control block (both ends, MCA_PML_CHAN_CTL bytes):
 *     credits (word 0): receives started, written by the receiver into the
 *                       sender's block (synchronous channels, standard-mode
 *                       ones on the AM and large paths, ready ones under
 *                       debug_ready),
 *                       or by a message of the reverse channel carrying
 *                       them (pml_chan_pair.c)
 *     probe (word 8):   receiver, large path: a mark the sender's cma
 *                       probe reads (pml_chan_path_large.c)
 *     gone (word 64):   the peer unbound and writes no more
 *   ring (receiver only, after its control block): R slots of slot_size
 *     bytes, each the data (bytes, rounded up to 8) then a sequence word:
 *     message n (from 0) is in slot n % R and complete when the slot's
 *     sequence word is n + 1; the receiver stores 0 into the word once it
 *     took the message (copied it out), so that a mapped standard-mode
 *     sender sees the slot free (slot_flow).  R is the slack K, or 2K for
 *     the receiver of a synchronous channel or a standard-mode one on the
 *     AM path, whose sender writes up to K messages ahead of their
 *     receives' starts (pml_chan_pair.c); there a slot's data is
 *     followed by 16 bytes where a TAG message may carry credits.  Small
 *     messages share a cache line with their sequence word.  On the TAG path (pml_chan_path_tag.c) the receiver
 *     posts its receives into the slots and their completion stores the
 *     word.  On the large path (pml_chan_path_large.c) the data
 *     goes straight into the receiver's buffer and a slot is its sequence
 *     word alone (64 bytes).
 */
#ifndef MCA_PML_CHAN_END_H
#define MCA_PML_CHAN_END_H

#include "ompi_config.h"

#include <string.h>

#include "opal/datatype/opal_convertor.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"
#include "ompi/mca/common/ompix/common_ompix_compat_request.h"
#include "ompi/request/request.h"

#include "pml_chan.h"

BEGIN_C_DECLS

#define MCA_PML_CHAN_CTL 128
#define MCA_PML_CHAN_CTL_CREDITS 0
#define MCA_PML_CHAN_CTL_PROBE 8    /* receiver's: the sender's cma probe */
#define MCA_PML_CHAN_CTL_GONE 64

struct mca_pml_chan_end_t;
/* How the end moves its messages (pml_chan_path.h), chosen at connect. */
typedef struct mca_pml_chan_path_t mca_pml_chan_path_t;

/* TAG path, receiver: what a posted receive's completion stores. */
typedef struct mca_pml_chan_tag_slot_t {
    struct mca_pml_chan_end_t *end;
    volatile uint64_t *word;        /* the slot's sequence word */
    uint64_t value;                 /* n + 1 */
    volatile bool posted;           /* in UCX's queue, not completed */
} mca_pml_chan_tag_slot_t;

/* pml/chan's active message on its own worker: the data goes to `data`,
 * then `value` is release-stored at `word` (addresses in the receiver). */
#define MCA_PML_CHAN_AM_ID 0
typedef struct mca_pml_chan_am_hdr_t {
    uint64_t data;
    uint64_t word;
    uint64_t value;
    /* Only in the carrying form (the whole struct; the plain form is
     * MCA_PML_CHAN_AM_HDR_PLAIN bytes): `cvalue` into the credits word at
     * `cword`, unless it holds more (pml_chan_pair.c). */
    uint64_t cword;
    uint64_t cvalue;
} mca_pml_chan_am_hdr_t;
#define MCA_PML_CHAN_AM_HDR_PLAIN (3 * sizeof(uint64_t))

typedef struct mca_pml_chan_end_t {
    ompi_request_t super;
    opal_list_item_t busy_item;     /* in the component's busy list */
    opal_list_item_t ends_item;     /* in its ends or zombies list */
    bool busy, listed, bound;
    opal_mutex_t lock;              /* MPI_THREAD_MULTIPLE: start against progress */

    mca_pml_chan_spec_t spec;
    bool is_send, credits;          /* credits: the receiver reports receive starts */
    bool standard;                  /* bound from Send_init or Bsend_init (both ends):
                                     * flow control by credits unless the path buffers
                                     * or has slot_flow, a send done once written
                                     * (pml_chan_bind.c:mca_pml_chan_end_flow) */
    bool slot_flow;                 /* standard mode on the mapped path: message n is
                                     * written once its slot's word is 0 (the receiver
                                     * took message n - K), no credits, K slots */
    bool contiguous;
    bool fast_send;                 /* bound mapped contiguous send without credits
                                     * (ready, or standard: slot_flow), no threads:
                                     * mca_pml_chan_request_start_fast serves its starts
                                     * while the slot is free (mca_pml_chan_end_slot_free) */
    bool fast_recv;                 /* mapped contiguous ring receive (not large), no
                                     * credits, slack a power of two, no threads:
                                     * start_recv, look and wait serve it (while bound);
                                     * its ring has K slots (slot_mask) */
    bool am_send, am_recv;          /* the same on the AM and TAG paths (pml_chan_path_am.c:
                                     * mca_pml_chan_am_choose) */
    bool via_worker;                /* its messages or words land only as pml/chan's
                                     * worker progresses (AM, TAG; large with AM words) */
    bool uses_worker;               /* progress must run the worker for it (the same, and
                                     * the large path's puts) */
    uint32_t slack;
    uint32_t slot_mask;             /* slack - 1 when slack is a power of two, else 0 */
    uint32_t ring_slots;            /* the receiver's ring: slack, or 2 * slack (sync) */
    uint32_t ring_mask;             /* ring_slots - 1 when a power of two, else 0 */
    uint32_t ahead;                 /* ring_slots - slack: a sync send's writes ahead of
                                     * the credits, a receiver's receives posted ahead */
    size_t bytes, slot_size, seq_off;
    char *buf;                      /* first element (contiguous: true lower bound) */
    ptrdiff_t incr_bytes;           /* address_base_increment in bytes */
    opal_convertor_t convertor;     /* non-contiguous data */
    int peer_rank;                  /* status: MPI_SOURCE */
    int status_tag;

    /* Our memory */
    ucp_mem_h memh;
    char *mem;                      /* control block, then (receiver) the ring */
    size_t mem_len;
    void *rkey_buf;
    size_t rkey_len;

    /* The peer's */
    const mca_pml_chan_path_t *path;  /* NULL until connect */
    ompi_proc_t *proc;
    ucp_ep_h ep;
    ucp_rkey_h rkey;
    uint64_t peer_base;             /* its control block (remote address) */
    char *peer_mem;                 /* MAPPED: the same, mapped here */

    /* Credits carried by the reverse channel's data (pml_chan_pair.c) */
    struct mca_pml_chan_end_t *carrier;   /* receiver: the send end carrying its credits */
    struct mca_pml_chan_end_t *creditor;  /* sender: the receive end whose credits it carries */
    bool credit_owed;               /* receiver: starts not yet told to the sender */

    /* Progress: message numbers */
    uint64_t nstart;                /* starts */
    uint64_t nwritten;              /* sends: data written or (PUT) its puts issued */
    uint64_t ndone;                 /* finished here (data moved), in order */
    uint64_t nconsumed;             /* completions Wait/Test reported */
    bool pending_report;            /* ompi_request_complete()d, not yet consumed */
    mca_common_ompix_request_show_t show;  /* how req_state shows (5.0: parked while
                                     * armed with room; common_ompix_compat_request.h) */

    /* The large path (pml_chan_path_large.c): chosen by the receiver at prepare */
    bool large;
    ucp_mem_h large_memh;           /* our buffer's range (receiver: the peer puts there) */
    void *large_rkey_buf;           /* receiver: its key, for the blob */
    size_t large_rkey_len;
    ucp_rkey_h peer_large_rkey;     /* sender: the receiver's buffer */
    uint64_t peer_large_base;       /* its message 0 */
    int64_t peer_large_incr;        /* its address_base_increment in bytes */
    bool large_cma;                 /* sender: process_vm_writev into the receiver */
    int32_t peer_pid;

    /* AM path, and the large path's puts */
    void **put_reqs;                /* 2 per slot: a send's message (AM) or its data and
                                     * word (large path, puts) */
    mca_pml_chan_am_hdr_t *am_hdrs; /* per slot: a send's AM header, until it left (TAG:
                                     * the credits it carries) */
    ucp_dt_iov_t *carry_iov;        /* TAG, per slot: a send carrying credits, 2 parts */
    uint64_t *words;                /* per slot: sequence words (large send) */
    char *stage;                    /* non-contiguous sends: K packed messages */

    /* TAG path (pml_chan_path_tag.c) */
    uint64_t tag;                   /* the receiving end's number: the messages' tag */
    uint64_t nposted;               /* receiver: receives posted */
    size_t tag_stride;
    char *tag_reqs;                 /* receiver: a UCX request block per slot */
    mca_pml_chan_tag_slot_t *tag_slots;
} mca_pml_chan_end_t;

OBJ_CLASS_DECLARATION(mca_pml_chan_end_t);

/* pml_chan_pair.c: which receive end's credits a send end's data carries */
void mca_pml_chan_pair_find(mca_pml_chan_end_t *end);
struct mca_pml_chan_end_t *mca_pml_chan_pair_drop(struct mca_pml_chan_end_t *end, bool flush);

/* pml_chan_ring.c: one message through the receiver's ring, over the end's
 * path; what the paths share */
int mca_pml_chan_ring_send(mca_pml_chan_end_t *end);
bool mca_pml_chan_ring_send_poll(mca_pml_chan_end_t *end);
void mca_pml_chan_ring_recv_post(mca_pml_chan_end_t *end);
bool mca_pml_chan_ring_recv_take(mca_pml_chan_end_t *end);
bool mca_pml_chan_ring_recv_poll(mca_pml_chan_end_t *end);
void mca_pml_chan_ring_credit_send(mca_pml_chan_end_t *end);
bool mca_pml_chan_ring_carry(mca_pml_chan_end_t *end, uint64_t *word, uint64_t *value);
void mca_pml_chan_ring_signal_gone(mca_pml_chan_end_t *end);
bool mca_pml_chan_ring_credit_ok(mca_pml_chan_end_t *end, uint64_t n);
bool mca_pml_chan_ring_req_done(void **req);
void mca_pml_chan_ring_pack(mca_pml_chan_end_t *end, uint64_t n, char *dst);
void mca_pml_chan_ring_retire_sent(mca_pml_chan_end_t *end);
const char *mca_pml_chan_ring_source(mca_pml_chan_end_t *end, uint64_t n);
char *mca_pml_chan_ring_arrived(mca_pml_chan_end_t *end);
bool mca_pml_chan_ring_take(mca_pml_chan_end_t *end);

/* A send's status pointer (ucp_*_nbx): its request kept in *req until it
 * completes (NULL: done already), or OMPI_ERROR with a message naming
 * `what`. */
static inline int mca_pml_chan_keep_request(ucs_status_ptr_t sp, const char *what, void **req)
{
    if (OPAL_UNLIKELY(UCS_PTR_IS_ERR(sp))) {
        MCA_PML_CHAN_VERBOSE(1, "%s failed: %s", what, ucs_status_string(UCS_PTR_STATUS(sp)));
        *req = NULL;
        return OMPI_ERROR;
    }
    *req = sp;
    return OMPI_SUCCESS;
}

/* Whether an end may take the shortcuts (fast_send and fast_recv on the
 * MAPPED path, am_send and am_recv on the AM and TAG paths): contiguous,
 * not large, slack a power of two (a mask), and no threads (no lock).  The
 * thread level is fixed once MPI_Init is over.  Which credits each path's
 * shortcuts handle, its connect says. */
static inline bool mca_pml_chan_end_shortcut_ok(const mca_pml_chan_end_t *end)
{
    return end->contiguous && !end->large && !opal_using_threads() &&
           0 == (end->slack & (end->slack - 1));
}

/* The credits word of a send end: receives started, written by the peer. */
static inline uint64_t mca_pml_chan_end_credits(const mca_pml_chan_end_t *end)
{
    return mca_common_ompix_atomic_load_acq_64(
        (volatile uint64_t *) (end->mem + MCA_PML_CHAN_CTL_CREDITS));
}

/* n rounded up to a multiple of `to` (slot layout: the data rounded to 8,
 * the slot to 64). */
static inline size_t mca_pml_chan_round(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* n % slack; a mask for the usual power-of-two slack (1 included). */
static inline uint64_t mca_pml_chan_slot_index(const mca_pml_chan_end_t *end, uint64_t n)
{
    return (0 != end->slot_mask || 1 == end->slack) ? (n & end->slot_mask) : n % end->slack;
}

/* The receiver's ring has `slots` slots (slack, or twice it: a
 * synchronous channel's sender writes ahead of the credits). */
static inline void mca_pml_chan_end_ring(mca_pml_chan_end_t *end, uint32_t slots)
{
    end->ring_slots = slots;
    end->ring_mask = 0 == (slots & (slots - 1)) ? slots - 1 : 0;
    end->ahead = slots - end->slack;
}

/* The ring's slot layout, the same at both ends: the data, on a ring with
 * slots ahead 16 bytes for the credits a TAG message carries
 * (pml_chan_pair.c), rounded to 8; the word; the slot rounded to 64 (the
 * large path sets its own). */
static inline void mca_pml_chan_end_layout(mca_pml_chan_end_t *end)
{
    end->seq_off = mca_pml_chan_round(end->bytes + (end->ahead ? 2 * sizeof(uint64_t) : 0), 8);
    end->slot_size = mca_pml_chan_round(end->seq_off + sizeof(uint64_t), 64);
}

/* n % ring_slots: message n's slot in the receiver's ring. */
static inline uint64_t mca_pml_chan_ring_index(const mca_pml_chan_end_t *end, uint64_t n)
{
    return (0 != end->ring_mask || 1 == end->ring_slots) ? (n & end->ring_mask)
                                                         : n % end->ring_slots;
}

static inline size_t mca_pml_chan_slot_offset(const mca_pml_chan_end_t *end, uint64_t n)
{
    return MCA_PML_CHAN_CTL + (size_t) mca_pml_chan_ring_index(end, n) * end->slot_size;
}

static inline char *mca_pml_chan_slot(char *ring_base, const mca_pml_chan_end_t *end, uint64_t n)
{
    return ring_base + mca_pml_chan_slot_offset(end, n);
}

/* Sequence-word flow control (a mapped end: the receiver's slot words
 * are mapped here): the slot `word` of message n is free once the receiver
 * took the slot's previous message and stored 0 (mca_pml_chan_slot_taken);
 * a word never written is 0 too.  The load is acquire: the receiver's
 * copy out was over before it stored the 0.  A ready channel's slot is
 * always free (its receive n started only once receive n - K's completion
 * was reported, its message taken); a
 * standard one's may still hold message n - K, whose receive did not
 * start or was not looked at yet (pml_chan_bind.c:mca_pml_chan_end_flow). */
static inline bool mca_pml_chan_word_free(volatile uint64_t *word)
{
    return 0 == mca_common_ompix_atomic_load_acq_64(word);
}

/* Message n's slot in the peer's ring is free (a mapped send end). */
static inline bool mca_pml_chan_end_slot_free(const mca_pml_chan_end_t *end, uint64_t n)
{
    return mca_pml_chan_word_free(
        (volatile uint64_t *) (end->peer_mem + mca_pml_chan_slot_offset(end, n) + end->seq_off));
}

/* The receiver took the message of the slot whose word this is (copied it
 * out): the slot is free for message n + K (release: the copy out is over
 * before a sender sees it). */
static inline void mca_pml_chan_slot_taken(volatile uint64_t *word)
{
    mca_common_ompix_atomic_store_rel_64(word, 0);
}

/* The user's buffer for message n (address_base_increment). */
static inline char *mca_pml_chan_user_buf(const mca_pml_chan_end_t *end, uint64_t n)
{
    return end->buf + (ptrdiff_t) mca_pml_chan_slot_index(end, n) * end->incr_bytes;
}

/* The sizes channels are made for, which mca_pml_chan_copy_small copies. */
static inline bool mca_pml_chan_small(size_t len)
{
    return 8 == len || 4 == len || 16 == len;
}

/* The sizes channels are made for, copied with plain loads and stores (no
 * call into libc); false for any other size, which is left uncopied.
 * Keep its cases those of mca_pml_chan_small. */
static inline bool mca_pml_chan_copy_small(char *dst, const char *src, size_t len)
{
    switch (len) {
    case 8:
        memcpy(dst, src, 8);
        return true;
    case 4:
        memcpy(dst, src, 4);
        return true;
    case 16:
        memcpy(dst, src, 16);
        return true;
    default:
        return false;
    }
}

static inline void mca_pml_chan_copy(char *dst, const char *src, size_t len)
{
    if (!mca_pml_chan_copy_small(dst, src, len)) {
        memcpy(dst, src, len);
    }
}

/* MAPPED, contiguous: message n into the peer's slot `slot`, then its
 * sequence word (release: the receiver that sees the word sees the data). */
static inline void mca_pml_chan_ring_write_to(mca_pml_chan_end_t *end, uint64_t n, char *slot)
{
    mca_pml_chan_copy(slot, mca_pml_chan_user_buf(end, n), end->bytes);
    mca_common_ompix_atomic_store_rel_64((volatile uint64_t *) (slot + end->seq_off), n + 1);
}

/* The same for a fast_send end: its receiver's ring has K slots (no
 * credits: nobody writes ahead), a power of two (slot_mask). */
static inline void mca_pml_chan_ring_write_contig(mca_pml_chan_end_t *end, uint64_t n)
{
    mca_pml_chan_ring_write_to(end, n,
                               end->peer_mem + MCA_PML_CHAN_CTL +
                                   (size_t) (n & end->slot_mask) * end->slot_size);
}

END_C_DECLS

#endif /* MCA_PML_CHAN_END_H */
