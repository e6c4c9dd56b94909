/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Small collectives on a communicator that lives on one node: a shared
 * segment per persistent collective, mapped at init, so that a start is a
 * copy into a slot plus a store of a sequence word, and completion is
 * reading the other ranks' sequence words.  No point-to-point request,
 * no matching, no PML on the start path.
 *
 * Every rank owns one line for done (the last broadcast it copied out)
 * and nslots slots, unless the ranks meet on the meeting line below.
 * Start g uses slot g % nslots: a sequence word (the start that last
 * wrote the slot) followed by the data, so that a reader gets both with
 * one cache-line transfer for small messages.
 *  - barrier: publish seq = g; complete when every seq >= g.
 *  - allreduce: copy the contribution into my slot, publish; once every
 *    seq >= g, every rank reduces all slots in rank order (so the result
 *    is the same everywhere and non-commutative operations are right).
 *    Two slots suffice without acknowledgements: a rank starts g + 2 only
 *    after completing g + 1, which needs everybody to have started g + 1,
 *    which they do only after completing g, i.e. after reading slot g % 2.
 *  - barrier, and allreduce when every contribution fits twice in one
 *    cache line next to a word per rank: the meeting line holds each
 *    rank's start word (32 bits, compared modulo 2^32) and then, for each
 *    rank, two contribution places (start parity g % 2).  A rank stores
 *    its contribution in place g % 2, then its word = g; complete when
 *    every word has reached g.  The slots' reuse argument makes two places
 *    enough.  Measured on 2 ranks with bare processes, one line against a
 *    line per rank: 0.21-0.22 against 0.30-0.34 us per meeting (a rank
 *    sees everybody with one transfer); plain stores against an atomic
 *    counter in the line: equal when cross-core traffic is slow, 0.064
 *    against 0.073 us when fast (no locked instruction waits for the
 *    line).  One line, not one per parity: a rank that sees the meeting
 *    complete already holds the line its next start writes (two lines
 *    alternating cost one more transfer a start: 0.33 against 0.23 us).
 *  - bcast: the root copies into its slot and publishes; the others copy
 *    out and publish done = g.  The root completes at once, so it may run
 *    ahead: it reuses a slot only when every done >= g - nslots.
 */
#include "ompi_config.h"

#include <string.h>

#include "opal/align.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"
#include "ompi/mca/common/ompix/common_ompix_shm.h"
#include "ompi/mca/op/base/functions.h"

#include "coll_persist.h"

#define SHM_LINE MCA_COMMON_OMPIX_SHM_LINE

typedef struct {
    volatile uint64_t done;
    char pad[SHM_LINE - sizeof(uint64_t)];
} shm_ctl_t;

typedef struct {
    volatile uint64_t seq;
    uint64_t pad;                         /* data 16-byte aligned, as for long double */
    char data[];
} shm_slot_t;

struct mca_coll_persist_shm_t {
    mca_coll_persist_shm_kind_t kind;
    int rank, size, root, nslots;
    uint64_t gen;                         /* starts so far */
    int cur;                              /* gen % nslots, kept without a division */
    bool published;                       /* this start's data is out */
    bool use_meet;                        /* meeting lines instead of slots */
    int waiting;                          /* first rank not yet seen at gen */
    size_t bytes, slot_bytes;
    const char *src;                      /* contribution, contiguous bytes */
    const char *own;                      /* the same in private memory, for reducing */
    char *own_copy;                       /* in place: where publishing keeps it */
    char *dst;                            /* result, contiguous bytes */
    void *rbuf;                           /* result as the user's datatype sees it */
    int count;
    ompi_datatype_t *dtype;
    ompi_op_t *op;
    ompi_op_base_handler_fn_t scalar;     /* Open MPI's C loop for op and dtype, or NULL */
    ptrdiff_t true_lb;
    shm_ctl_t *ctl;
    uint64_t *seen_done;                  /* bcast root: last done read per rank */
    char *meet;                           /* the meeting line, or NULL (slots) */
    size_t meet_data;                     /* where its contribution places begin */
    size_t meet_stride;                   /* between contributions, 8-byte aligned */
    char *data;
    mca_common_ompix_shm_t seg;
};

static shm_slot_t *mca_coll_persist_shm_slot(mca_coll_persist_shm_t *s, int rank, int idx)
{
    return (shm_slot_t *) (s->data + ((size_t) rank * s->nslots + (size_t) idx) * s->slot_bytes);
}

/* Has rank published this start?  (A slot holds start gen - nslots or
 * gen; the protocol keeps a writer from getting further ahead.) */
static bool mca_coll_persist_shm_arrived(mca_coll_persist_shm_t *s, int rank)
{
    return mca_common_ompix_atomic_load_acq_64(&mca_coll_persist_shm_slot(s, rank, s->cur)->seq)
           >= s->gen;
}

/* In place, the result overwrites the contribution before it is reduced:
 * keep it where mca_coll_persist_shm_contribution() finds it. */
static void mca_coll_persist_shm_keep_own(mca_coll_persist_shm_t *s)
{
    if (NULL != s->own_copy) {
        memcpy(s->own_copy, s->src, s->bytes);
    }
}

static void mca_coll_persist_shm_publish(mca_coll_persist_shm_t *s)
{
    shm_slot_t *mine = mca_coll_persist_shm_slot(s, s->rank, s->cur);
    if (s->bytes > 0 && NULL != s->src) {
        memcpy(mine->data, s->src, s->bytes);
        mca_coll_persist_shm_keep_own(s);
    }
    mca_common_ompix_atomic_store_rel_64(&mine->seq, s->gen);
    s->published = true;
}

/* True once every rank has published this start; data they published is
 * then visible. */
static bool mca_coll_persist_shm_all_arrived(mca_coll_persist_shm_t *s)
{
    for (; s->waiting < s->size; ++s->waiting) {
        if (!mca_coll_persist_shm_arrived(s, s->waiting)) {
            return false;
        }
    }
    return true;
}

static volatile uint32_t *mca_coll_persist_shm_meet_word(mca_coll_persist_shm_t *s, int j)
{
    return (volatile uint32_t *) s->meet + j;
}

/* Where rank j's contribution to this start sits in the meeting line. */
static char *mca_coll_persist_shm_meet_place(mca_coll_persist_shm_t *s, int j)
{
    return s->meet + s->meet_data + ((size_t) j * 2 + s->gen % 2) * s->meet_stride;
}

/* Rank j's contribution to this start.  Our own is read from private
 * memory: reading our slot back while the others read it too costs a
 * cache-line round trip (2 ranks here: 0.37 against 0.31 us per exchange). */
static const char *mca_coll_persist_shm_contribution(mca_coll_persist_shm_t *s, int j)
{
    if (j == s->rank) {
        return s->own;
    }
    return NULL != s->meet ? mca_coll_persist_shm_meet_place(s, j)
                           : mca_coll_persist_shm_slot(s, j, s->cur)->data;
}

static void mca_coll_persist_shm_meet_publish(mca_coll_persist_shm_t *s)
{
    if (s->bytes > 0) {
        memcpy(mca_coll_persist_shm_meet_place(s, s->rank), s->src, s->bytes);
        mca_coll_persist_shm_keep_own(s);
    }
    mca_common_ompix_atomic_store_rel_32(mca_coll_persist_shm_meet_word(s, s->rank),
                                         (uint32_t) s->gen);
    s->published = true;
}

/* A word is at most one start ahead of ours, so the difference modulo
 * 2^32 tells ahead from behind. */
static bool mca_coll_persist_shm_meet_all_arrived(mca_coll_persist_shm_t *s)
{
    for (; s->waiting < s->size; ++s->waiting) {
        uint32_t seen =
            mca_common_ompix_atomic_load_acq_32(mca_coll_persist_shm_meet_word(s, s->waiting));
        if ((int32_t) (seen - (uint32_t) s->gen) < 0) {
            return false;
        }
    }
    return true;
}

/* result = x0 op (x1 op (... op x(p-1))) */
static void mca_coll_persist_shm_reduce_in_rank_order(mca_coll_persist_shm_t *s)
{
    if (0 == s->bytes) {
        return;
    }
    memcpy(s->dst, mca_coll_persist_shm_contribution(s, s->size - 1), s->bytes);
    for (int j = s->size - 2; j >= 0; --j) {
        char *src = (char *) mca_coll_persist_shm_contribution(s, j) - s->true_lb;
        if (NULL != s->scalar) {
            int count = s->count;
            s->scalar(src, s->rbuf, &count, &s->dtype, NULL);
        } else {
            ompi_op_reduce(s->op, src, s->rbuf, s->count, s->dtype);
        }
    }
}

/* The C loop Open MPI's base op module has for (op, dtype), used instead of
 * ompi_op_reduce (which dispatches to the selected op module, op/avx for
 * doubles here) for a few elements: a start that reduces one double
 * through op/avx takes 0.41-0.43 us on 2 ranks, through the C loop
 * 0.36 us, although either call alone costs 4 ns in a tight loop (the
 * vector code slows the code around it).  Above a cache line the vector
 * code is the faster one. */
#define SHM_SCALAR_OP_BYTES SHM_LINE

static ompi_op_base_handler_fn_t
mca_coll_persist_shm_scalar_fn(ompi_op_t *op, ompi_datatype_t *dtype, size_t bytes)
{
    int t;

    if (NULL == op || NULL == dtype || bytes > SHM_SCALAR_OP_BYTES || !ompi_op_is_intrinsic(op) ||
        !ompi_datatype_is_predefined(dtype) || op->o_f_to_c_index < 0 ||
        op->o_f_to_c_index >= OMPI_OP_BASE_FORTRAN_OP_MAX) {
        return NULL;
    }
    t = ompi_op_ddt_map[dtype->id];
    return t < 0 ? NULL : ompi_op_base_functions[op->o_f_to_c_index][t];
}

/* The root reads a rank's done line only when the value it saw last is
 * too old: every read of a line the reader keeps writing is a cross-core
 * transfer, and one per start would bound the root's rate by it. */
static bool mca_coll_persist_shm_bcast_root_may_write(mca_coll_persist_shm_t *s)
{
    if (s->gen <= (uint64_t) s->nslots) {
        return true;
    }
    for (; s->waiting < s->size; ++s->waiting) {
        if (s->waiting == s->root || s->seen_done[s->waiting] >= s->gen - s->nslots) {
            continue;
        }
        /* acquire: their reads of the old data are over before we write */
        s->seen_done[s->waiting] = mca_common_ompix_atomic_load_acq_64(&s->ctl[s->waiting].done);
        if (s->seen_done[s->waiting] < s->gen - s->nslots) {
            return false;
        }
    }
    return true;
}

static bool mca_coll_persist_shm_bcast_advance(mca_coll_persist_shm_t *s)
{
    if (s->rank == s->root) {
        if (!s->published && mca_coll_persist_shm_bcast_root_may_write(s)) {
            mca_coll_persist_shm_publish(s);
        }
        return s->published;
    }
    if (!mca_coll_persist_shm_arrived(s, s->root)) {
        return false;
    }
    if (s->bytes > 0) {
        memcpy(s->dst, mca_coll_persist_shm_slot(s, s->root, s->cur)->data, s->bytes);
    }
    /* release: the copy is over before the root may reuse the slot */
    mca_common_ompix_atomic_store_rel_64(&s->ctl[s->rank].done, s->gen);
    /* The root may be ahead: start fetching the next slot now, so that
     * its transfer overlaps the return to the application.  (Fetching
     * three ahead takes lines the root is about to write from it: 0.18
     * against 0.09 us per start on 2 ranks.) */
    __builtin_prefetch(
        mca_coll_persist_shm_slot(s, s->root, s->cur + 1 == s->nslots ? 0 : s->cur + 1));
    return true;
}

bool mca_coll_persist_shm_advance(mca_coll_persist_shm_t *s)
{
    switch (s->kind) {
    case MCA_COLL_PERSIST_SHM_BCAST:
        return mca_coll_persist_shm_bcast_advance(s);
    case MCA_COLL_PERSIST_SHM_BARRIER:
    case MCA_COLL_PERSIST_SHM_ALLREDUCE:      /* a barrier is an allreduce of nothing */
        if (!s->published) {
            NULL != s->meet ? mca_coll_persist_shm_meet_publish(s)
                            : mca_coll_persist_shm_publish(s);
        }
        if (!(NULL != s->meet ? mca_coll_persist_shm_meet_all_arrived(s)
                              : mca_coll_persist_shm_all_arrived(s))) {
            return false;
        }
        mca_coll_persist_shm_reduce_in_rank_order(s);
        return true;
    }
    return true;
}

bool mca_coll_persist_shm_start(mca_coll_persist_shm_t *s)
{
    s->gen++;
    s->cur = s->cur + 1 == s->nslots ? 0 : s->cur + 1;
    s->published = false;
    s->waiting = 0;
    return mca_coll_persist_shm_advance(s);
}

uint64_t mca_coll_persist_shm_starts(const mca_coll_persist_shm_t *s)
{
    return s->gen;
}

void mca_coll_persist_shm_release(mca_coll_persist_shm_t *s)
{
    if (NULL != s) {
        mca_common_ompix_shm_unmap(&s->seg);
        free(s->own_copy);
        free(s->seen_done);
        free(s);
    }
}

/* Whether the plan can be served from shared memory: decided from facts
 * that are the same on every rank, so all of them take the same path. */
static bool mca_coll_persist_shm_eligible(ompi_communicator_t *comm, size_t bytes)
{
    mca_coll_persist_component_t *c = &mca_coll_persist_component;
    int size = ompi_comm_size(comm);

    if (c->shm_max_bytes <= 0 || size < 2 || size > c->shm_max_ranks
        || bytes > (size_t) c->shm_max_bytes) {
        return false;
    }
    return mca_common_ompix_shm_comm_on_node(comm);
}

/* The segment (common/ompix maps it on every rank or on none) holds the
 * done lines, then the meeting line or the slots. */
static void mca_coll_persist_shm_layout(mca_coll_persist_shm_t *s)
{
    s->ctl = (shm_ctl_t *) s->seg.base;
    s->data = (char *) (s->ctl + s->size);
    if (s->use_meet) {
        s->meet = s->data;
        s->data += SHM_LINE;
    }
}

int mca_coll_persist_shm_try(ompi_communicator_t *comm, mca_coll_persist_shm_kind_t kind,
                             const void *sbuf, void *rbuf, int count, ompi_datatype_t *dtype,
                             ompi_op_t *op, int root, ompi_request_t **request)
{
    mca_coll_persist_builder_t b;
    mca_coll_persist_shm_t *s;
    size_t bytes = 0;
    ptrdiff_t true_lb = 0;
    bool contiguous = true, all_ok = false;
    int rc;

    if (NULL != dtype) {
        ompi_datatype_type_size(dtype, &bytes);
        bytes *= (size_t) count;
        (void) mca_coll_persist_span(count, dtype, &true_lb);
        contiguous = ompi_datatype_is_contiguous_memory_layout(dtype, count);
    }
    if (!mca_coll_persist_shm_eligible(comm, bytes)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    s = calloc(1, sizeof(*s));
    if (NULL == s) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    s->kind = kind;
    s->rank = ompi_comm_rank(comm);
    s->size = ompi_comm_size(comm);
    s->root = root;
    s->nslots = MCA_COLL_PERSIST_SHM_BCAST == kind ? mca_coll_persist_component.shm_bcast_depth : 2;
    /* 8-byte places: types that want more alignment (long double) use slots */
    s->meet_data = OPAL_ALIGN((size_t) s->size * sizeof(uint32_t), 8, size_t);
    s->meet_stride = OPAL_ALIGN(bytes, 8, size_t);
    s->use_meet = MCA_COLL_PERSIST_SHM_BCAST != kind && (NULL == dtype || dtype->super.align <= 8)
                  && s->meet_data + 2 * (size_t) s->size * s->meet_stride <= SHM_LINE;
    s->bytes = bytes;
    s->slot_bytes = OPAL_ALIGN(sizeof(shm_slot_t) + bytes, SHM_LINE, size_t);
    s->count = count;
    s->dtype = dtype;
    s->op = op;
    s->scalar = mca_coll_persist_shm_scalar_fn(op, dtype, bytes);
    s->true_lb = true_lb;
    s->rbuf = rbuf;
    s->dst = (char *) rbuf + true_lb;
    s->src = (const char *) (MPI_IN_PLACE == sbuf ? rbuf : sbuf) + true_lb;
    s->own = s->src;
    if (MCA_COLL_PERSIST_SHM_BCAST == kind) {
        s->seen_done = calloc((size_t) s->size, sizeof(uint64_t));
        if (NULL == s->seen_done) {
            free(s);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    if (MCA_COLL_PERSIST_SHM_ALLREDUCE == kind && MPI_IN_PLACE == sbuf && bytes > 0) {
        /* the result overwrites the contribution before it is reduced */
        s->own = s->own_copy = malloc(bytes);
        if (NULL == s->own_copy) {
            free(s);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }

    rc = mca_coll_persist_request_new(comm, op, dtype, 0, &b);
    if (OMPI_SUCCESS == rc) {
        /* done lines, then the meeting line or the slots */
        size_t meet_or_slots = s->use_meet ? SHM_LINE : (size_t) s->size * s->nslots * s->slot_bytes;
        size_t len = (size_t) s->size * sizeof(shm_ctl_t) + meet_or_slots;
        rc = mca_common_ompix_shm_map(comm, "coll_persist", b.req->tag, len, contiguous, &s->seg,
                                      &all_ok);
        if (all_ok) {
            mca_coll_persist_shm_layout(s);
        }
    }
    if (OMPI_SUCCESS != rc || !all_ok) {
        free(s->own_copy);
        free(s->seen_done);
        free(s);
        mca_coll_persist_abandon(&b);
        return OMPI_SUCCESS != rc ? rc : OMPI_ERR_NOT_AVAILABLE;
    }
    b.req->shm = s;
    b.req->algorithm = MCA_COLL_PERSIST_SHM_BARRIER == kind ? MCA_COLL_PERSIST_ALG_BARRIER_SHM
                       : MCA_COLL_PERSIST_SHM_BCAST == kind ? MCA_COLL_PERSIST_ALG_BCAST_SHM
                                                            : MCA_COLL_PERSIST_ALG_ALLREDUCE_SHM;
    return mca_coll_persist_finish(&b, request);
}
