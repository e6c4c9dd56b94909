/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Accumulates by active messages (osc_rdma2_am.h).  Where UCX only
 * emulates the target's accumulate lock (TCP), the lock path costs a
 * compare-and-swap, a get, a put and a release, each an active-message
 * exchange UCX runs at the target.  Here the origin sends one message
 * (target address, op, predefined element type, packed elements) and the
 * target applies it under its own accumulate lock, taken with a local CPU
 * compare-and-swap on its process state block: atomic against origins that
 * take that lock directly (same-node peers, other windows), since every
 * accumulate of a location still runs under the same lock.
 *
 * The target's handler runs inside its worker progress (its MPI calls or
 * the progress thread) and makes no UCX call there: it only copies the
 * operation to a FIFO queue.  Top-level progress (the progress callback,
 * the progress thread's poll, our waits: the same progress call that ran
 * the handler) drains the queue in arrival order, under the lock, and
 * replies through our own endpoint to the origin, named in the request.
 * A send from inside the handler could connect an endpoint while UCX
 * still parses that connection's receive buffer (uct_tcp_ep_connect may
 * move it away, UCX 1.13), and re-entering UCX from its callbacks is what
 * Open MPI #13064 froze on.  The lock is never waited for either (the holder
 * may need this very progress to release it): while it is held the queue
 * waits.  One endpoint and eager messages keep the operations of one
 * origin in the order it sent them, the queue keeps that order, as MPI's
 * accumulate ordering requires.  The reply carries the old elements
 * (fetching operations, waited for in the call) or acknowledges a plain
 * accumulate, which completion (flush, unlock, fence, complete, free)
 * waits for by counting.
 *
 * The same messages carry PSCW notifications (mca_osc_rdma2_am_notify)
 * and notified RMA's notifications (mca_osc_rdma2_am_note: one-way, a
 * small put's data included, completed by a flush request; and
 * mca_osc_rdma2_am_note_queued: accumulate_notify's add, queued behind
 * the accumulates).
 */
#include "ompi_config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "opal/runtime/opal_progress.h"
#include "opal/sys/atomic.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"
#include "ompi/proc/proc.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"
#include "ompi/mca/common/ompix/common_ompix_datatype.h"

#include "osc_rdma2_am.h"
#include "osc_rdma2_completion.h"
#include "osc_rdma2_exposed.h"
#include "osc_rdma2_peer.h"

#define MCA_OSC_RDMA2_AM_REQUEST 1
#define MCA_OSC_RDMA2_AM_REPLY 2
#define MCA_OSC_RDMA2_AM_NOTIFY 3
#define MCA_OSC_RDMA2_AM_NOTE 4
/* Larger operations take the lock path: an eager message of this size
 * is still one round trip, and the target copies it when it defers. */
#define MCA_OSC_RDMA2_AM_MAX_BYTES 65536
#define MCA_OSC_RDMA2_AM_LOST 16

enum {
    MCA_OSC_RDMA2_AM_ACC = 0,       /* acknowledged, counted per peer */
    MCA_OSC_RDMA2_AM_FETCH = 1,     /* old elements come back to a waiting caller */
    MCA_OSC_RDMA2_AM_CAS = 2,       /* compare, then origin; the old element comes back */
    MCA_OSC_RDMA2_AM_NOTE_ACC = 3,  /* no elements; adds 1 to the slot at addr; as ACC */
};

typedef struct {
    uint64_t addr;                  /* target address of the first element */
    uint64_t token;                 /* ACC: the origin's peer; else its waiting record */
    opal_process_name_t origin;     /* whom to answer (through our endpoint to it) */
    uint32_t count;                 /* elements */
    uint16_t dt;                    /* predefined type, by Fortran index (same in every process) */
    uint8_t op;                     /* predefined op, by Fortran index */
    uint8_t kind;                   /* MCA_OSC_RDMA2_AM_* */
} mca_osc_rdma2_am_req_t;

typedef struct {
    uint64_t token;
    int32_t status;                 /* OMPI_SUCCESS or an error */
    uint32_t kind;
} mca_osc_rdma2_am_reply_t;

/* A fetching operation waiting for its reply, on the caller's stack. */
typedef struct {
    volatile int32_t done;
    int32_t status;
    void *result;
    size_t len;
} mca_osc_rdma2_am_wait_t;

/* An operation queued by the handler: the request and its data, copied. */
typedef struct mca_osc_rdma2_am_item_t {
    struct mca_osc_rdma2_am_item_t *next;
    char *reply;                    /* built when applied */
    size_t reply_len;
    size_t len;
    mca_osc_rdma2_am_req_t req;
    char data[];
} mca_osc_rdma2_am_item_t;

static struct {
    bool ready;                     /* handlers set */
    opal_mutex_t lock;              /* the queue; held for CPU work only, never across UCX */
    mca_osc_rdma2_am_item_t **tail;
    /* Requests the handler had no memory to queue: answered with an error
     * by the drain (what does not fit here leaves its origin waiting). */
    mca_osc_rdma2_am_req_t lost[MCA_OSC_RDMA2_AM_LOST];
    uint64_t deferred;              /* drains that found the lock held (verbose) */
    uint64_t applied;
} mca_osc_rdma2_am;

volatile void *mca_osc_rdma2_am_queue_head = NULL;
volatile int32_t mca_osc_rdma2_am_nlost = 0;

#define MCA_OSC_RDMA2_AM_HEAD (*(mca_osc_rdma2_am_item_t **) &mca_osc_rdma2_am_queue_head)

/* ---------------------------------------------------------------------- */
/* Target: applying                                                         */

static bool mca_osc_rdma2_am_trylock(void)
{
    uint64_t expected = 0;

    return mca_common_ompix_atomic_cswap_acq_64(&mca_osc_rdma2_component.pstate->acc_lock,
                                                &expected, 1);
}

static void mca_osc_rdma2_am_unlock(void)
{
    mca_common_ompix_atomic_add_rel_64(&mca_osc_rdma2_component.pstate->acc_lock, (uint64_t) -1);
}

/* Never trust the wire: a request is applied only with a predefined
 * datatype and op, the data its kind needs (compare and origin for CAS,
 * the origin elements unless the op is MPI_NO_OP), and a target range
 * inside memory this process exposes (osc_rdma2_exposed.h).  An origin
 * whose own range check failed, or a corrupted message, gets an error
 * reply instead of a write to an arbitrary address. */
static int mca_osc_rdma2_am_valid(const mca_osc_rdma2_am_req_t *req, ompi_datatype_t *dt,
                                  ompi_op_t *op, size_t esize, size_t len, size_t data_len)
{
    if (MCA_OSC_RDMA2_AM_NOTE_ACC == req->kind) {
        return mca_osc_rdma2_exposed_holds(req->addr, sizeof(uint64_t)) ? OMPI_SUCCESS
                                                                         : OMPI_ERR_RMA_RANGE;
    }
    if (NULL == dt || NULL == op || !ompi_datatype_is_predefined(dt) ||
        !ompi_op_is_intrinsic(op) || req->kind > MCA_OSC_RDMA2_AM_NOTE_ACC) {
        return OMPI_ERR_BAD_PARAM;
    }
    if ((MCA_OSC_RDMA2_AM_CAS == req->kind && data_len < 2 * esize) ||
        (MCA_OSC_RDMA2_AM_CAS != req->kind && op != &ompi_mpi_op_no_op.op && data_len < len)) {
        return OMPI_ERR_BAD_PARAM;
    }
    len = MCA_OSC_RDMA2_AM_CAS == req->kind ? esize : len;
    /* no elements (a completion's empty request): nothing addressed */
    return 0 == len || mca_osc_rdma2_exposed_holds(req->addr, len) ? OMPI_SUCCESS
                                                                   : OMPI_ERR_RMA_RANGE;
}

/* Applies one request (the accumulate lock is held) and builds its reply:
 * a header, then the old elements for the fetching kinds. */
static char *mca_osc_rdma2_am_apply(const mca_osc_rdma2_am_req_t *req, const char *data,
                                    size_t data_len, size_t *reply_len)
{
    ompi_datatype_t *dt = opal_pointer_array_get_item(&ompi_datatype_f_to_c_table, req->dt);
    ompi_op_t *op = opal_pointer_array_get_item(ompi_op_f_to_c_table, req->op);
    char *target = (char *) (uintptr_t) req->addr, *reply, *old;
    mca_osc_rdma2_am_reply_t *rh;
    size_t esize = 0, len, olen;

    if (NULL != dt) {
        ompi_datatype_type_size(dt, &esize);
    }
    len = esize * req->count;
    olen = MCA_OSC_RDMA2_AM_ACC == req->kind || MCA_OSC_RDMA2_AM_NOTE_ACC == req->kind ? 0 : len;
    reply = malloc(sizeof(*rh) + olen);
    if (NULL == reply) {
        return NULL;
    }
    rh = (mca_osc_rdma2_am_reply_t *) reply;
    rh->token = req->token;
    rh->kind = req->kind;
    rh->status = mca_osc_rdma2_am_valid(req, dt, op, esize, len, data_len);
    *reply_len = sizeof(*rh) + olen;
    if (OMPI_SUCCESS != rh->status) {
        MCA_OSC_RDMA2_VERBOSE(1, "refused an active message: kind %d, %zu bytes at 0x%" PRIx64,
                              (int) req->kind, len, req->addr);
        *reply_len = sizeof(*rh);
        return reply;
    }
    old = reply + sizeof(*rh);
    if (0 != olen) {
        memcpy(old, target, olen);
    }
    if (MCA_OSC_RDMA2_AM_CAS == req->kind) {
        if (0 == memcmp(target, data, esize)) {
            memcpy(target, data + esize, esize);
        }
    } else if (op == &ompi_mpi_op_replace.op) {
        memcpy(target, data, len);
    } else if (op != &ompi_mpi_op_no_op.op && MCA_OSC_RDMA2_AM_NOTE_ACC != req->kind) {
        ompi_op_reduce(op, (void *) data, target, (int) req->count, dt);
    }
    if (MCA_OSC_RDMA2_AM_NOTE_ACC == req->kind) {
        /* after the accumulates queued before it: released with them */
        mca_common_ompix_atomic_add_rel_64((volatile uint64_t *) target, 1);
    }
    ++mca_osc_rdma2_am.applied;
    return reply;
}

static void mca_osc_rdma2_am_free_cb(void *request, ucs_status_t status, void *user_data)
{
    (void) status;
    free(user_data);
    ucp_request_free(request);
}

/* Top level only.  A reply that can not be sent leaves its origin
 * waiting: say so. */
static void mca_osc_rdma2_am_reply(opal_process_name_t origin, char *reply, size_t len)
{
    ompi_proc_t *proc = (ompi_proc_t *) ompi_proc_for_name(origin);
    ucp_request_param_t param;
    ucs_status_ptr_t sp;
    ucp_ep_h ep = NULL;

    if (NULL == reply) {
        MCA_OSC_RDMA2_VERBOSE(1, "no memory for an accumulate's reply");
        return;
    }
    if (NULL == proc || OMPI_SUCCESS != mca_common_ompix_ucx_proc_ep(MCA_OSC_RDMA2_UCX, proc, &ep)) {
        MCA_OSC_RDMA2_VERBOSE(1, "no endpoint to answer an accumulate's origin");
        free(reply);
        return;
    }
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                         UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_AM_SEND_FLAG_EAGER;
    param.cb.send = mca_osc_rdma2_am_free_cb;
    param.user_data = reply;
    sp = ucp_am_send_nbx(ep, MCA_OSC_RDMA2_AM_REPLY, reply, sizeof(mca_osc_rdma2_am_reply_t),
                         reply + sizeof(mca_osc_rdma2_am_reply_t),
                         len - sizeof(mca_osc_rdma2_am_reply_t), &param);
    if (UCS_PTR_IS_ERR(sp)) {
        MCA_OSC_RDMA2_VERBOSE(1, "sending an accumulate's reply failed: %s",
                              ucs_status_string(UCS_PTR_STATUS(sp)));
    }
    if (!UCS_PTR_IS_PTR(sp)) {
        free(reply);
    }
}

/* Queues a request (queue lock held); out of memory, keeps its header
 * for an error reply. */
static void mca_osc_rdma2_am_queue(const mca_osc_rdma2_am_req_t *req, const void *data,
                                   size_t len)
{
    mca_osc_rdma2_am_item_t *item = malloc(sizeof(*item) + len);

    if (NULL == item) {
        if (mca_osc_rdma2_am_nlost < MCA_OSC_RDMA2_AM_LOST) {
            mca_osc_rdma2_am.lost[mca_osc_rdma2_am_nlost++] = *req;
        } else {
            MCA_OSC_RDMA2_VERBOSE(1, "no memory for an accumulate: its origin waits");
        }
        return;
    }
    item->next = NULL;
    item->req = *req;
    item->len = len;
    memcpy(item->data, data, len);
    *mca_osc_rdma2_am.tail = item;
    mca_osc_rdma2_am.tail = &item->next;
}

/* The request handler, inside the worker's progress: only queues (no UCX
 * call from a UCX callback, see above); the drain that follows this
 * progress call applies and replies. */
static ucs_status_t mca_osc_rdma2_am_request_cb(void *arg, const void *header,
                                                size_t header_length, void *data, size_t length,
                                                const ucp_am_recv_param_t *param)
{
    mca_osc_rdma2_am_req_t req;

    (void) arg; (void) param;
    if (header_length != sizeof(req)) {
        return UCS_OK;              /* not ours to answer */
    }
    memcpy(&req, header, sizeof(req));
    opal_mutex_lock(&mca_osc_rdma2_am.lock);
    mca_osc_rdma2_am_queue(&req, data, length);
    opal_mutex_unlock(&mca_osc_rdma2_am.lock);
    return UCS_OK;
}

/* Error replies for requests the handler could not queue. */
static void mca_osc_rdma2_am_answer_lost(void)
{
    mca_osc_rdma2_am_req_t lost[MCA_OSC_RDMA2_AM_LOST];
    int i, n;

    opal_mutex_lock(&mca_osc_rdma2_am.lock);
    n = mca_osc_rdma2_am_nlost;
    memcpy(lost, mca_osc_rdma2_am.lost, n * sizeof(lost[0]));
    mca_osc_rdma2_am_nlost = 0;
    opal_mutex_unlock(&mca_osc_rdma2_am.lock);
    for (i = 0; i < n; ++i) {
        mca_osc_rdma2_am_reply_t *rh = malloc(sizeof(*rh));
        if (NULL != rh) {
            rh->token = lost[i].token;
            rh->kind = lost[i].kind;
            rh->status = OMPI_ERR_OUT_OF_RESOURCE;
        }
        mca_osc_rdma2_am_reply(lost[i].origin, (char *) rh, sizeof(*rh));
    }
}

int mca_osc_rdma2_am_drain_queue(void)
{
    mca_osc_rdma2_am_item_t *list, *item;
    int n = 0;

    if (OPAL_UNLIKELY(0 != mca_osc_rdma2_am_nlost)) {
        mca_osc_rdma2_am_answer_lost();
    }
    opal_mutex_lock(&mca_osc_rdma2_am.lock);
    list = MCA_OSC_RDMA2_AM_HEAD;
    if (NULL == list) {
        opal_mutex_unlock(&mca_osc_rdma2_am.lock);
        return 0;
    }
    if (!mca_osc_rdma2_am_trylock()) {
        ++mca_osc_rdma2_am.deferred;
        opal_mutex_unlock(&mca_osc_rdma2_am.lock);
        return 0;
    }
    for (item = list; NULL != item; item = item->next) {
        item->reply = mca_osc_rdma2_am_apply(&item->req, item->data, item->len,
                                             &item->reply_len);
    }
    mca_osc_rdma2_am_unlock();
    MCA_OSC_RDMA2_AM_HEAD = NULL;
    mca_osc_rdma2_am.tail = (mca_osc_rdma2_am_item_t **) &mca_osc_rdma2_am_queue_head;
    opal_mutex_unlock(&mca_osc_rdma2_am.lock);
    /* Replies outside the queue lock: a handler on another thread may
     * hold the worker and wait for that lock. */
    while (NULL != list) {
        item = list;
        list = item->next;
        mca_osc_rdma2_am_reply(item->req.origin, item->reply, item->reply_len);
        free(item);
        ++n;
    }
    return n;
}

/* ---------------------------------------------------------------------- */
/* Origin: replies                                                          */

static void mca_osc_rdma2_am_acked(mca_osc_rdma2_peer_t *peer, int status)
{
    if (OMPI_SUCCESS != status) {
        peer->am_failed = 1;
    }
    opal_atomic_wmb();
    opal_atomic_add_fetch_64(&peer->am_done, 1);
    opal_atomic_add_fetch_64(&peer->module->sync.am_done, 1);
}

static void mca_osc_rdma2_am_finish(uint32_t kind, uint64_t token, int status, const void *data,
                                    size_t len)
{
    mca_osc_rdma2_am_wait_t *w;

    if (MCA_OSC_RDMA2_AM_ACC == kind || MCA_OSC_RDMA2_AM_NOTE_ACC == kind) {
        mca_osc_rdma2_am_acked((mca_osc_rdma2_peer_t *) (uintptr_t) token, status);
        return;
    }
    w = (mca_osc_rdma2_am_wait_t *) (uintptr_t) token;
    if (OMPI_SUCCESS == status && len != w->len) {
        status = OMPI_ERROR;
    }
    if (OMPI_SUCCESS == status && 0 != len) {
        memcpy(w->result, data, len);
    }
    w->status = status;
    opal_atomic_wmb();
    w->done = 1;
}

static ucs_status_t mca_osc_rdma2_am_reply_cb(void *arg, const void *header, size_t header_length,
                                              void *data, size_t length,
                                              const ucp_am_recv_param_t *param)
{
    mca_osc_rdma2_am_reply_t rh;

    (void) arg; (void) param;
    if (header_length == sizeof(rh)) {
        memcpy(&rh, header, sizeof(rh));
        mca_osc_rdma2_am_finish(rh.kind, rh.token, rh.status, data, length);
    }
    return UCS_OK;
}

/* A request that could not be sent is answered here, with an error. */
static void mca_osc_rdma2_am_sent_cb(void *request, ucs_status_t status, void *user_data)
{
    mca_osc_rdma2_am_req_t *req = user_data;

    if (UCS_OK != status) {
        MCA_OSC_RDMA2_VERBOSE(1, "sending an accumulate failed: %s", ucs_status_string(status));
        mca_osc_rdma2_am_finish(req->kind, req->token, OMPI_ERROR, NULL, 0);
    }
    free(user_data);
    ucp_request_free(request);
}

/* ---------------------------------------------------------------------- */
/* Origin: sending                                                          */

/* One request: header and data in one buffer that lives until UCX has
 * sent it (UCX 1.13 keeps a pointer to the header too). */
static int mca_osc_rdma2_am_send(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_am_req_t *req,
                                 const void *d1, size_t l1, const void *d2, size_t l2)
{
    ucp_request_param_t param;
    ucs_status_ptr_t sp;
    char *msg = malloc(sizeof(*req) + l1 + l2);

    if (NULL == msg) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    memcpy(msg, req, sizeof(*req));
    if (0 != l1) memcpy(msg + sizeof(*req), d1, l1);
    if (0 != l2) memcpy(msg + sizeof(*req) + l1, d2, l2);
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                         UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_AM_SEND_FLAG_EAGER;
    param.cb.send = mca_osc_rdma2_am_sent_cb;
    param.user_data = msg;
    sp = ucp_am_send_nbx(peer->ep, MCA_OSC_RDMA2_AM_REQUEST, msg, sizeof(*req),
                         msg + sizeof(*req), l1 + l2, &param);
    if (UCS_PTR_IS_PTR(sp)) {
        return OMPI_SUCCESS;        /* the callback frees it */
    }
    free(msg);
    return UCS_PTR_IS_ERR(sp) ? OMPI_ERROR : OMPI_SUCCESS;
}

/* One turn of a wait: our worker (replies), operations deferred on us
 * (someone else's reply may depend on them), and now and then the rest of
 * MPI, as opal_common_ucx_wait_request does. */
static void mca_osc_rdma2_am_progress(int *turn)
{
    if (0 == (++*turn & 63)) {
        opal_progress();
        return;
    }
    ucp_worker_progress(MCA_OSC_RDMA2_UCX->worker);
    mca_osc_rdma2_am_drain();
}

static int mca_osc_rdma2_am_fetch(mca_osc_rdma2_peer_t *peer, mca_osc_rdma2_am_req_t *req,
                                  const void *d1, size_t l1, const void *d2, size_t l2,
                                  void *result, size_t rlen)
{
    mca_osc_rdma2_am_wait_t w = { .done = 0, .status = OMPI_SUCCESS, .result = result,
                                  .len = rlen };
    int ret, turn = 0;

    req->token = (uint64_t) (uintptr_t) &w;
    ret = mca_osc_rdma2_am_send(peer, req, d1, l1, d2, l2);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    while (!w.done) {
        mca_osc_rdma2_am_progress(&turn);
    }
    opal_atomic_rmb();
    return w.status;
}


/* An acknowledged request with no elements (MPI_BYTE, MPI_NO_OP) of kind
 * `kind` at `addr`, counted as sent: the target's drain applies it in
 * arrival order and answers it. */
static void mca_osc_rdma2_am_empty_req(mca_osc_rdma2_peer_t *peer, uint8_t kind, uint64_t addr,
                                       mca_osc_rdma2_am_req_t *req)
{
    memset(req, 0, sizeof(*req));
    req->addr = addr;
    req->origin = *OMPI_PROC_MY_NAME;
    req->dt = (uint16_t) ompi_mpi_byte.dt.d_f_to_c_index;
    req->op = (uint8_t) ompi_mpi_op_no_op.op.o_f_to_c_index;
    req->kind = kind;
    req->token = (uint64_t) (uintptr_t) peer;
    opal_atomic_add_fetch_64(&peer->am_sent, 1);
    opal_atomic_add_fetch_64(&peer->module->sync.am_sent, 1);
}

/* Target-notified operations (mca_osc_rdma2_am_note) are applied by the
 * target's handler and never answered; a completion makes them complete
 * at the target by sending, behind them on the same endpoint, an empty
 * accumulate (no elements, MPI_NO_OP), which the target acknowledges once
 * its handler queued it and the drain applied it, i.e. after the handler
 * ran for everything before it.  Counted like any accumulate, so the wait
 * that follows covers it.  The count is read before this send and raised
 * after each note's send, so a note this request might miss keeps the
 * counts apart for the next completion. */
static void mca_osc_rdma2_am_note_flush(mca_osc_rdma2_peer_t *peer)
{
    mca_osc_rdma2_am_req_t req;
    int64_t notes = peer->am_notes;

    if (OPAL_LIKELY(notes == peer->am_notes_flushed)) {
        return;
    }
    peer->am_notes_flushed = notes;
    mca_osc_rdma2_am_empty_req(peer, MCA_OSC_RDMA2_AM_ACC, 0, &req);
    if (OMPI_SUCCESS != mca_osc_rdma2_am_send(peer, &req, NULL, 0, NULL, 0)) {
        mca_osc_rdma2_am_acked(peer, OMPI_ERROR);   /* reported by this completion */
    }
}

/* accumulate_notify's notification: an acknowledged request with no
 * elements that the target's drain applies in arrival order, i.e. after
 * the accumulates this rank sent before it (and after lock-path ones,
 * complete when their call returned), by adding 1 to the slot at `slot`.
 * The call waits for nothing; completion waits for its acknowledgement
 * as for any accumulate's. */
int mca_osc_rdma2_am_note_queued(mca_osc_rdma2_peer_t *peer, uint64_t slot)
{
    mca_osc_rdma2_am_req_t req;
    int ret;

    mca_osc_rdma2_am_empty_req(peer, MCA_OSC_RDMA2_AM_NOTE_ACC, slot, &req);
    mca_osc_rdma2_completion_am_issued(peer);
    peer->module->sync.posts_pending = true;
    ret = mca_osc_rdma2_am_send(peer, &req, NULL, 0, NULL, 0);
    if (OMPI_SUCCESS != ret) {
        mca_osc_rdma2_am_acked(peer, OMPI_SUCCESS);     /* nothing will answer it */
    }
    return ret;
}

static int mca_osc_rdma2_am_complete(mca_osc_rdma2_peer_t *peer)
{
    int turn = 0;

    mca_osc_rdma2_am_note_flush(peer);
    while (peer->am_done < peer->am_sent) {
        mca_osc_rdma2_am_progress(&turn);
    }
    opal_atomic_rmb();
    if (peer->am_failed) {
        peer->am_failed = 0;
        return OMPI_ERROR;
    }
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_am_complete_all(mca_osc_rdma2_module_t *module)
{
    int turn = 0, i, ret = OMPI_SUCCESS;

    for (i = 0; i < module->size_comm; ++i) {
        if (NULL != module->peers[i]) {
            mca_osc_rdma2_am_note_flush(module->peers[i]);
        }
    }
    while (module->sync.am_done < module->sync.am_sent) {
        mca_osc_rdma2_am_progress(&turn);
    }
    opal_atomic_rmb();
    for (i = 0; i < module->size_comm; ++i) {
        mca_osc_rdma2_peer_t *peer = module->peers[i];
        if (NULL != peer && peer->am_failed) {
            peer->am_failed = 0;
            ret = OMPI_ERROR;
        }
    }
    return ret;
}

static bool mca_osc_rdma2_am_fits(ompi_datatype_t *dt, size_t n)
{
    ptrdiff_t lb, extent;
    size_t size;

    ompi_datatype_type_size(dt, &size);
    ompi_datatype_get_extent(dt, &lb, &extent);
    return (size_t) extent == size && n * size <= MCA_OSC_RDMA2_AM_MAX_BYTES &&
           dt->d_f_to_c_index >= 0 && dt->d_f_to_c_index <= UINT16_MAX;
}

/* Padded element types (MPI_DOUBLE_INT, ...) and scattered target
 * layouts stay with the lock path and the datatype engine. */
static bool mca_osc_rdma2_am_accepts(int tcount, ompi_datatype_t *tdt, ompi_datatype_t *prim,
                                     size_t n, ompi_op_t *op)
{
    return ompi_datatype_is_contiguous_memory_layout(tdt, tcount) && mca_osc_rdma2_am_fits(prim, n) &&
           op->o_f_to_c_index >= 0 && op->o_f_to_c_index <= UINT8_MAX;
}

static int mca_osc_rdma2_am_update(mca_osc_rdma2_peer_t *peer, uint64_t raddr, int tcount,
                                   ompi_datatype_t *tdt, ompi_datatype_t *prim, size_t n,
                                   ompi_op_t *op, const void *origin, void *result)
{
    mca_osc_rdma2_am_req_t req;
    ptrdiff_t lb, extent;
    size_t len;
    int ret;

    if (!mca_osc_rdma2_am_accepts(tcount, tdt, prim, n, op)) {
        ret = mca_osc_rdma2_am_complete(peer);
        return OMPI_SUCCESS == ret ? OMPI_ERR_NOT_SUPPORTED : ret;
    }
    ompi_datatype_get_true_extent(tdt, &lb, &extent);
    ompi_datatype_type_size(prim, &len);
    len *= n;
    req.addr = raddr + lb;
    req.origin = *OMPI_PROC_MY_NAME;
    req.count = (uint32_t) n;
    req.dt = (uint16_t) prim->d_f_to_c_index;
    req.op = (uint8_t) op->o_f_to_c_index;
    if (NULL != result) {
        req.kind = MCA_OSC_RDMA2_AM_FETCH;
        return mca_osc_rdma2_am_fetch(peer, &req, origin, NULL != origin ? len : 0, NULL, 0,
                                      result, len);
    }
    req.kind = MCA_OSC_RDMA2_AM_ACC;
    req.token = (uint64_t) (uintptr_t) peer;
    /* Counted before it can be answered. */
    opal_atomic_add_fetch_64(&peer->am_sent, 1);
    opal_atomic_add_fetch_64(&peer->module->sync.am_sent, 1);
    mca_osc_rdma2_completion_am_issued(peer);
    ret = mca_osc_rdma2_am_send(peer, &req, origin, NULL != origin ? len : 0, NULL, 0);
    if (OMPI_SUCCESS != ret) {
        mca_osc_rdma2_am_acked(peer, OMPI_SUCCESS);     /* nothing will answer it */
    }
    return ret;
}

static int mca_osc_rdma2_am_cas(mca_osc_rdma2_peer_t *peer, uint64_t raddr, ompi_datatype_t *dt,
                                const void *origin, const void *compare, void *result)
{
    mca_osc_rdma2_am_req_t req;
    size_t esize;

    if (!mca_osc_rdma2_am_fits(dt, 1)) {
        int ret = mca_osc_rdma2_am_complete(peer);
        return OMPI_SUCCESS == ret ? OMPI_ERR_NOT_SUPPORTED : ret;
    }
    ompi_datatype_type_size(dt, &esize);
    req.addr = raddr;
    req.origin = *OMPI_PROC_MY_NAME;
    req.count = 1;
    req.dt = (uint16_t) dt->d_f_to_c_index;
    req.op = (uint8_t) ompi_mpi_op_replace.op.o_f_to_c_index;
    req.kind = MCA_OSC_RDMA2_AM_CAS;
    return mca_osc_rdma2_am_fetch(peer, &req, compare, esize, origin, esize, result, esize);
}

static const mca_osc_rdma2_acc_path_t mca_osc_rdma2_acc_path_am = {
    .name = "by active messages",
    .update = mca_osc_rdma2_am_update,
    .accepts = mca_osc_rdma2_am_accepts,
    .cas = mca_osc_rdma2_am_cas,
    .complete = mca_osc_rdma2_am_complete,
};

/* ---------------------------------------------------------------------- */
/* PSCW notifications                                                       */

/* The target's handler: the header is the address of one of its state
 * words (posted[origin] or complete), which it raises here, a CPU atomic
 * and no UCX call, so no queue is needed.  Everything the origin issued
 * to us before it (puts, ordered by the fence that precedes complete)
 * arrived earlier on the same endpoint and has landed; the release order
 * publishes it to the waiter, on this thread or another.  Only counters
 * a start or wait consumes are raised, so none is on its way when the
 * window is freed. */
static ucs_status_t mca_osc_rdma2_am_notify_cb(void *arg, const void *header,
                                               size_t header_length, void *data, size_t length,
                                               const ucp_am_recv_param_t *param)
{
    uint64_t addr;

    (void) arg; (void) data; (void) length; (void) param;
    if (header_length == sizeof(addr)) {
        memcpy(&addr, header, sizeof(addr));
        if (!mca_osc_rdma2_exposed_holds(addr, sizeof(uint64_t))) {
            MCA_OSC_RDMA2_VERBOSE(1, "refused a PSCW notification to 0x%" PRIx64, addr);
            return UCS_OK;
        }
        mca_common_ompix_atomic_add_rel_64((volatile uint64_t *) (uintptr_t) addr, 1);
    }
    return UCS_OK;
}

/* One-way and eager: no answer, nothing to wait for, no buffer to free
 * (the header is in the peer, which lives until MPI_Win_free has flushed
 * the worker: posts_pending). */
int mca_osc_rdma2_am_notify(mca_osc_rdma2_peer_t *peer, int which)
{
    ucp_request_param_t param;

    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_AM_SEND_FLAG_EAGER;
    peer->module->sync.posts_pending = true;
    return mca_common_ompix_ucx_release(ucp_am_send_nbx(peer->ep, MCA_OSC_RDMA2_AM_NOTIFY,
                                                        &peer->notify_addr[which],
                                                        sizeof(peer->notify_addr[which]),
                                                        NULL, 0, &param));
}

/* Where UCX only emulates the state words' atomics (their block does not
 * map: TCP), an add is an active message and a reply UCX exchanges for us;
 * our own message is one way and goes after our puts without a flush.
 * Mapped state words keep CPU atomics. */
void mca_osc_rdma2_am_notify_path(mca_osc_rdma2_peer_t *peer)
{
    mca_osc_rdma2_module_t *module = peer->module;

    peer->notify_addr[0] = peer->notify_addr[1] = 0;
    if (!mca_osc_rdma2_am.ready || NULL == peer->ep || !peer->state.path->ucx) {
        return;
    }
    peer->notify_addr[MCA_OSC_RDMA2_AM_NOTIFY_POSTED] =
        peer->state.base + module->layout.posted + module->my_rank * sizeof(uint64_t);
    peer->notify_addr[MCA_OSC_RDMA2_AM_NOTIFY_COMPLETE] =
        peer->state.base + offsetof(mca_osc_rdma2_state_t, complete);
}

/* ---------------------------------------------------------------------- */
/* Target-notified operations                                               */

/* A note's header: the target's slot, and where its data (the message's
 * payload, if any) goes. */
typedef struct {
    uint64_t slot;
    uint64_t addr;
} mca_osc_rdma2_am_note_t;

/* The target's handler: copies the payload into the window, then raises
 * the slot with release order, so whoever sees the count sees the data.
 * A note without payload follows data the origin put before it on the
 * same endpoint (behind a worker fence) or had completed (gets, CMA):
 * that has landed when this runs.  CPU work only, no UCX call, no queue:
 * it runs wherever the worker progresses, the progress thread included,
 * so a target outside MPI gets data and notification.  One message, one
 * add: exactly once. */
static ucs_status_t mca_osc_rdma2_am_note_cb(void *arg, const void *header, size_t header_length,
                                             void *data, size_t length,
                                             const ucp_am_recv_param_t *param)
{
    mca_osc_rdma2_am_note_t note;

    (void) arg; (void) param;
    if (header_length != sizeof(note)) {
        return UCS_OK;
    }
    memcpy(&note, header, sizeof(note));
    if (!mca_osc_rdma2_exposed_holds(note.slot, sizeof(uint64_t)) ||
        (0 != length && !mca_osc_rdma2_exposed_holds(note.addr, length))) {
        /* nothing to answer (one-way): the origin's checks make this a
         * corrupted message */
        MCA_OSC_RDMA2_VERBOSE(1, "refused a notified operation: %zu bytes at 0x%" PRIx64,
                              length, note.addr);
        return UCS_OK;
    }
    if (0 != length) {
        memcpy((void *) (uintptr_t) note.addr, data, length);
    }
    mca_common_ompix_atomic_add_rel_64((volatile uint64_t *) (uintptr_t) note.slot, 1);
    return UCS_OK;
}

static void mca_osc_rdma2_am_note_sent_cb(void *request, ucs_status_t status, void *user_data)
{
    if (UCS_OK != status) {
        MCA_OSC_RDMA2_VERBOSE(1, "sending a notification failed: %s", ucs_status_string(status));
    }
    free(user_data);
    ucp_request_free(request);
}

bool mca_osc_rdma2_am_note_path(const mca_osc_rdma2_peer_t *peer)
{
    /* Completion reaches mca_osc_rdma2_am_complete only through the
     * peer's accumulate path. */
    return peer->acc == &mca_osc_rdma2_acc_path_am;
}

/* Header and payload in one buffer that lives until UCX has sent it
 * (UCX 1.13 keeps pointers to both), freed by the send callback or here
 * when the send completed in the call. */
int mca_osc_rdma2_am_note(mca_osc_rdma2_peer_t *peer, uint64_t slot, uint64_t addr,
                          const void *data, int count, ompi_datatype_t *dt, size_t len)
{
    mca_osc_rdma2_am_note_t *note = malloc(sizeof(*note) + len);
    ucp_request_param_t param;
    ucs_status_ptr_t sp;
    int ret;

    if (NULL == note) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    note->slot = slot;
    note->addr = addr;
    if (0 != len) {
        ret = mca_common_ompix_datatype_copy(data, count, dt, note + 1, (int) len,
                                             &ompi_mpi_byte.dt);
        if (OMPI_SUCCESS != ret) {
            free(note);
            return ret;
        }
    }
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                         UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_AM_SEND_FLAG_EAGER;
    param.cb.send = mca_osc_rdma2_am_note_sent_cb;
    param.user_data = note;
    /* The completion that follows must make it land (flush request). */
    mca_osc_rdma2_completion_am_issued(peer);
    peer->module->sync.posts_pending = true;
    sp = ucp_am_send_nbx(peer->ep, MCA_OSC_RDMA2_AM_NOTE, note, sizeof(*note), note + 1, len,
                         &param);
    if (!UCS_PTR_IS_PTR(sp)) {
        free(note);
    }
    if (UCS_PTR_IS_ERR(sp)) {
        MCA_OSC_RDMA2_VERBOSE(1, "sending a notification failed: %s",
                              ucs_status_string(UCS_PTR_STATUS(sp)));
        return OMPI_ERROR;
    }
    opal_atomic_wmb();
    opal_atomic_add_fetch_64(&peer->am_notes, 1);
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Set-up                                                                   */

uint64_t mca_osc_rdma2_am_features(void)
{
    return MCA_OSC_RDMA2_ACC_PATH_LOCK == mca_osc_rdma2_component.acc_path ? 0 : UCP_FEATURE_AM;
}

static int mca_osc_rdma2_am_handler(unsigned id, ucp_am_recv_callback_t cb)
{
    ucp_am_handler_param_t param;

    param.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                       UCP_AM_HANDLER_PARAM_FIELD_ARG;
    param.id = id;
    param.cb = cb;
    param.arg = NULL;
    return UCS_OK == ucp_worker_set_am_recv_handler(MCA_OSC_RDMA2_UCX->worker, &param)
        ? OMPI_SUCCESS : OMPI_ERROR;
}

int mca_osc_rdma2_am_init(void)
{
    mca_osc_rdma2_am.ready = false;
    if (0 == mca_osc_rdma2_am_features()) {
        return OMPI_SUCCESS;
    }
    OBJ_CONSTRUCT(&mca_osc_rdma2_am.lock, opal_mutex_t);
    MCA_OSC_RDMA2_AM_HEAD = NULL;
    mca_osc_rdma2_am.tail = (mca_osc_rdma2_am_item_t **) &mca_osc_rdma2_am_queue_head;
    mca_osc_rdma2_am.deferred = mca_osc_rdma2_am.applied = 0;
    mca_osc_rdma2_am_nlost = 0;
    if (OMPI_SUCCESS != mca_osc_rdma2_am_handler(MCA_OSC_RDMA2_AM_REQUEST,
                                                 mca_osc_rdma2_am_request_cb) ||
        OMPI_SUCCESS != mca_osc_rdma2_am_handler(MCA_OSC_RDMA2_AM_REPLY,
                                                 mca_osc_rdma2_am_reply_cb) ||
        OMPI_SUCCESS != mca_osc_rdma2_am_handler(MCA_OSC_RDMA2_AM_NOTIFY,
                                                 mca_osc_rdma2_am_notify_cb) ||
        OMPI_SUCCESS != mca_osc_rdma2_am_handler(MCA_OSC_RDMA2_AM_NOTE,
                                                 mca_osc_rdma2_am_note_cb)) {
        MCA_OSC_RDMA2_VERBOSE(1, "no UCX active messages: accumulates take the lock, PSCW "
                              "notifications are atomics");
        OBJ_DESTRUCT(&mca_osc_rdma2_am.lock);
        return OMPI_SUCCESS;
    }
    mca_osc_rdma2_am.ready = true;
    return OMPI_SUCCESS;
}

void mca_osc_rdma2_am_fini(void)
{
    if (!mca_osc_rdma2_am.ready) {
        return;
    }
    MCA_OSC_RDMA2_VERBOSE(10, "accumulates applied for active messages: %" PRIu64
                          ", drains that found the lock held: %" PRIu64,
                          mca_osc_rdma2_am.applied, mca_osc_rdma2_am.deferred);
    mca_osc_rdma2_am.ready = false;
    OBJ_DESTRUCT(&mca_osc_rdma2_am.lock);
}

const mca_osc_rdma2_acc_path_t *mca_osc_rdma2_am_path(const mca_osc_rdma2_peer_t *peer)
{
    if (!mca_osc_rdma2_am.ready || NULL == peer->ep) {
        return NULL;                /* ourselves: the lock is a CPU atomic */
    }
    switch (mca_osc_rdma2_component.acc_path) {
    case MCA_OSC_RDMA2_ACC_PATH_AM:
        return &mca_osc_rdma2_acc_path_am;
    case MCA_OSC_RDMA2_ACC_PATH_LOCK:
        return NULL;
    default:
        /* Only where the lock word is UCX's emulation: a mapped one is a
         * CPU atomic here, and needs nothing from the target. */
        return peer->pstate.path->ucx ? &mca_osc_rdma2_acc_path_am : NULL;
    }
}
