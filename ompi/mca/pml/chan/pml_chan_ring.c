/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Moving one message through the receiver's ring (layout in
 * pml_chan_end.h) on the path connect() chose for the end
 * (pml_chan_path.h): the sender writes every started message the
 * receiver may take (synchronous channels: whose receive was started)
 * and retires those done; the receiver posts its receives where the path
 * posts them, reports starts to a sender that asked for credits, and
 * takes what arrived.  Also what the paths share: packing, the load of an
 * arrived message's word, the copy out, the retirement of kept UCX
 * requests.  Nothing allocates.
 */
#include "ompi_config.h"

#include <string.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "pml_chan_path.h"

bool mca_pml_chan_ring_req_done(void **req)
{
    if (NULL != *req) {
        if (UCS_INPROGRESS == ucp_request_check_status(*req)) {
            return false;
        }
        ucp_request_free(*req);
        *req = NULL;
    }
    return true;
}

void mca_pml_chan_ring_pack(mca_pml_chan_end_t *end, uint64_t n, char *dst)
{
    struct iovec iov = { .iov_base = dst, .iov_len = end->bytes };
    uint32_t iov_count = 1;
    size_t max = end->bytes;

    opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor,
                                             &end->spec.req.type->super, end->spec.req.count,
                                             mca_pml_chan_user_buf(end, n), 0, &end->convertor);
    (void) opal_convertor_pack(&end->convertor, &iov, &iov_count, &max);
    opal_convertor_cleanup(&end->convertor);
}

static void mca_pml_chan_ring_unpack(mca_pml_chan_end_t *end, uint64_t n, const char *src)
{
    struct iovec iov = { .iov_base = (void *) src, .iov_len = end->bytes };
    uint32_t iov_count = 1;
    size_t max = end->bytes;

    opal_convertor_copy_and_prepare_for_recv(ompi_mpi_local_convertor,
                                             &end->spec.req.type->super, end->spec.req.count,
                                             mca_pml_chan_user_buf(end, n), 0, &end->convertor);
    (void) opal_convertor_unpack(&end->convertor, &iov, &iov_count, &max);
    opal_convertor_cleanup(&end->convertor);
}

bool mca_pml_chan_ring_credit_ok(mca_pml_chan_end_t *end, uint64_t n)
{
    return mca_pml_chan_end_credits(end) > n;
}

/* AM, TAG, large: message n's data as it leaves, the user's buffer or
 * (not contiguous) its copy packed into the slot's staging area. */
const char *mca_pml_chan_ring_source(mca_pml_chan_end_t *end, uint64_t n)
{
    char *stage;

    if (end->contiguous) {
        return mca_pml_chan_user_buf(end, n);
    }
    stage = end->stage + mca_pml_chan_slot_index(end, n) * end->bytes;
    mca_pml_chan_ring_pack(end, n, stage);
    return stage;
}

/* AM, TAG: the written messages whose requests (two per slot, kept until
 * they left) completed are done, in order. */
void mca_pml_chan_ring_retire_sent(mca_pml_chan_end_t *end)
{
    while (end->ndone < end->nwritten) {
        void **reqs = &end->put_reqs[2 * mca_pml_chan_slot_index(end, end->ndone)];
        if (!mca_pml_chan_ring_req_done(&reqs[0]) || !mca_pml_chan_ring_req_done(&reqs[1])) {
            break;
        }
        ++end->ndone;
    }
}

/* Writes every started message the receiver may take, then retires
 * those done.  Ends with credits (synchronous and standard-mode channels,
 * ready ones under debug_ready, whose start checked them already):
 * message n once credits + ahead > n (receive n - ahead started, so its
 * slot's previous message was taken: ahead is 0, or K when the receiver's
 * ring has 2K slots); synchronous: done once its receive started
 * (credits > n), standard: done once written.  A mapped standard-mode
 * end (slot_flow): message n once its slot's word says message n - K was
 * taken.  OMPI_SUCCESS or the error
 * of a failed write. */
int mca_pml_chan_ring_send(mca_pml_chan_end_t *end)
{
    while (end->nwritten < end->nstart) {
        int ret;
        if (end->credits) {
            if (end->nwritten >= end->ahead &&
                !mca_pml_chan_ring_credit_ok(end, end->nwritten - end->ahead)) {
                break;
            }
        } else if (end->slot_flow && !mca_pml_chan_end_slot_free(end, end->nwritten)) {
            break;                      /* message n - K not taken yet */
        }
        ret = end->path->write(end, end->nwritten);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        ++end->nwritten;
    }
    end->path->retire(end);
    if (end->spec.sync && end->ahead) {
        /* Written ahead is not done (synchronous: only once its receive
         * started; standard mode: written is done): a retire counts again
         * from there. */
        uint64_t credits = mca_pml_chan_end_credits(end);
        end->ndone = end->ndone < credits ? end->ndone : credits;
    }
    return OMPI_SUCCESS;
}

/* True when some message got done. */
bool mca_pml_chan_ring_send_poll(mca_pml_chan_end_t *end)
{
    uint64_t before = end->ndone;

    if (OMPI_SUCCESS != mca_pml_chan_ring_send(end)) {
        end->super.req_status.MPI_ERROR = MPI_ERR_OTHER;
        end->ndone = end->nstart;
    }
    return end->ndone != before;
}

/* The starts not yet told to the sender, now, by a credit of their own. */
void mca_pml_chan_ring_credit_send(mca_pml_chan_end_t *end)
{
    end->credit_owed = false;
    if (OMPI_SUCCESS != end->path->signal(end, MCA_PML_CHAN_CTL_CREDITS, end->nstart)) {
        end->super.req_status.MPI_ERROR = MPI_ERR_OTHER;
    }
}

/* Send end: the credits its next message carries (the credits word in
 * the peer, the count), when its creditor owes some; false: none. */
bool mca_pml_chan_ring_carry(mca_pml_chan_end_t *end, uint64_t *word, uint64_t *value)
{
    mca_pml_chan_end_t *r = end->creditor;

    if (NULL == r || !r->credit_owed) {
        return false;
    }
    r->credit_owed = false;
    *word = r->peer_base + MCA_PML_CHAN_CTL_CREDITS;
    *value = r->nstart;
    return true;
}

/* Receive n = nstart - 1 was started: post it (TAG path), then tell the
 * sender if it counts, so that the send it lets go finds it posted: by a
 * credit now, or (paired: pml_chan_pair.c) on the reverse channel's next
 * message, unless the next look or progress finds it still owed. */
void mca_pml_chan_ring_recv_post(mca_pml_chan_end_t *end)
{
    mca_pml_chan_path_post(end);
    if (!end->credits) {
        return;
    }
    if (NULL != end->carrier) {
        end->credit_owed = true;
    } else {
        mca_pml_chan_ring_credit_send(end);
    }
}

/* The messages arrived, without sending owed credits (the start's look). */
bool mca_pml_chan_ring_recv_take(mca_pml_chan_end_t *end)
{
    mca_pml_chan_path_post(end);
    return end->path->poll_recv(end);
}

/* A look or progress: credits still owed go now, then the messages. */
bool mca_pml_chan_ring_recv_poll(mca_pml_chan_end_t *end)
{
    if (OPAL_UNLIKELY(end->credit_owed)) {
        mca_pml_chan_ring_credit_send(end);
    }
    return mca_pml_chan_ring_recv_take(end);
}

/* The slot of message ndone when its word says it arrived, else NULL. */
char *mca_pml_chan_ring_arrived(mca_pml_chan_end_t *end)
{
    uint64_t n = end->ndone;
    char *slot;

    if (n >= end->nstart) {
        return NULL;
    }
    slot = mca_pml_chan_slot(end->mem, end, n);
    return mca_common_ompix_atomic_load_acq_64((volatile uint64_t *) (slot + end->seq_off)) ==
                   n + 1 ? slot : NULL;
}

/* The ring's receive (mapped, AM, TAG: poll_recv): each message arrived
 * copied (or unpacked) out of its slot, in order, and its word zeroed (a
 * mapped sender's slot_flow; harmless elsewhere: the slot's next message
 * stores its own word). */
bool mca_pml_chan_ring_take(mca_pml_chan_end_t *end)
{
    uint64_t before = end->ndone;
    char *slot;

    while (NULL != (slot = mca_pml_chan_ring_arrived(end))) {
        if (end->contiguous) {
            mca_pml_chan_copy(mca_pml_chan_user_buf(end, end->ndone), slot, end->bytes);
        } else {
            mca_pml_chan_ring_unpack(end, end->ndone, slot);
        }
        mca_pml_chan_slot_taken((volatile uint64_t *) (slot + end->seq_off));
        ++end->ndone;
    }
    return end->ndone != before;
}

/* Credits owed go first: the sender may be waiting for them. */
void mca_pml_chan_ring_signal_gone(mca_pml_chan_end_t *end)
{
    if (end->credit_owed) {
        mca_pml_chan_ring_credit_send(end);
    }
    (void) end->path->signal(end, MCA_PML_CHAN_CTL_GONE, 1);
}
