/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Moving one message through the receiver's ring (layout in
 * pml_chan_end.h), on the path connect() chose for the channel:
 *   MAPPED: the sender copies (or packs) into the slot and release-stores
 *           the sequence word; no UCX call.
 *   AM:     one active message (pml_chan_am.c): the receiver's handler
 *           copies the data into the slot and release-stores the word.
 *   TAG:    one tag message (pml_chan_tag.c) into a receive the receiver
 *           posted into the slot; its completion release-stores the word.
 * The receiver's test is one acquire load of the slot's word (after
 * progressing the worker on the AM path, done by the progress function),
 * then a copy (or unpack) into the user's buffer.  Nothing allocates.
 * Large contiguous receives (pml_chan_large.c) take the data in place:
 * the sender puts it into the user's buffer, the slot holds only the word.
 */
#include "ompi_config.h"

#include <string.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "pml_chan_end.h"

/* A put whose source is free once it returns or its request completes. */
int mca_pml_chan_ring_put(mca_pml_chan_end_t *end, const void *src, size_t len,
                                 uint64_t offset, void **req)
{
    ucp_request_param_t param;

    memset(&param, 0, sizeof(param));
    return mca_pml_chan_keep_request(ucp_put_nbx(end->ep, src, len, end->peer_base + offset,
                                                 end->rkey, &param),
                                     "ucp_put_nbx", req);
}

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
    return mca_common_ompix_atomic_load_acq_64(
               (volatile uint64_t *) (end->mem + MCA_PML_CHAN_CTL_CREDITS)) > n;
}

static int mca_pml_chan_ring_write_mapped(mca_pml_chan_end_t *end, uint64_t n)
{
    char *slot;

    if (end->contiguous) {
        mca_pml_chan_ring_write_contig(end, n);
        return OMPI_SUCCESS;
    }
    slot = mca_pml_chan_slot(end->peer_mem, end, n);
    mca_pml_chan_ring_pack(end, n, slot);
    mca_common_ompix_atomic_store_rel_64((volatile uint64_t *) (slot + end->seq_off), n + 1);
    return OMPI_SUCCESS;
}

/* AM and TAG: one message through the worker, from the user's buffer or
 * its packed copy; its request kept per slot until it left. */
static int mca_pml_chan_ring_write_msg(mca_pml_chan_end_t *end, uint64_t n)
{
    uint64_t k = mca_pml_chan_slot_index(end, n);
    uint64_t slot = mca_pml_chan_slot_offset(end, n);
    const char *src = mca_pml_chan_user_buf(end, n);

    if (!end->contiguous) {
        src = end->stage + k * end->bytes;
        mca_pml_chan_ring_pack(end, n, (char *) src);
    }
    if (MCA_PML_CHAN_PATH_TAG == end->path) {
        return mca_pml_chan_tag_write(end, src, &end->put_reqs[2 * k]);
    }
    return mca_pml_chan_am_write(end, src, end->bytes, slot, slot + end->seq_off, n + 1,
                                 &end->am_hdrs[k], &end->put_reqs[2 * k]);
}

/* Writes every started message the receiver may take (synchronous
 * channels: whose receive was started), then retires those whose data has
 * left.  OMPI_SUCCESS or the error of a failed write. */
int mca_pml_chan_ring_send(mca_pml_chan_end_t *end)
{
    while (end->nwritten < end->nstart) {
        int ret;
        if (end->spec.sync && !mca_pml_chan_ring_credit_ok(end, end->nwritten)) {
            break;
        }
        ret = end->large ? mca_pml_chan_large_write(end, end->nwritten)
              : MCA_PML_CHAN_PATH_MAPPED == end->path
                  ? mca_pml_chan_ring_write_mapped(end, end->nwritten)
                  : mca_pml_chan_ring_write_msg(end, end->nwritten);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        ++end->nwritten;
    }
    if (end->large) {
        mca_pml_chan_large_retire(end);
        return OMPI_SUCCESS;
    }
    if (MCA_PML_CHAN_PATH_MAPPED == end->path) {
        end->ndone = end->nwritten;
        return OMPI_SUCCESS;
    }
    while (end->ndone < end->nwritten) {
        void **reqs = &end->put_reqs[2 * mca_pml_chan_slot_index(end, end->ndone)];
        if (!mca_pml_chan_ring_req_done(&reqs[0]) || !mca_pml_chan_ring_req_done(&reqs[1])) {
            break;
        }
        ++end->ndone;
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

/* Receive n = nstart - 1 was started: post it (TAG path), then tell the
 * sender if it counts, so that the send it lets go finds it posted. */
void mca_pml_chan_ring_recv_post(mca_pml_chan_end_t *end)
{
    uint64_t started = end->nstart;

    mca_pml_chan_tag_post_started(end);
    if (!end->credits) {
        return;
    }
    if (MCA_PML_CHAN_PATH_MAPPED == end->path) {
        mca_common_ompix_atomic_store_rel_64(
            (volatile uint64_t *) (end->peer_mem + MCA_PML_CHAN_CTL_CREDITS), started);
        return;
    }
    if (OMPI_SUCCESS != mca_pml_chan_am_write_word(end, MCA_PML_CHAN_CTL_CREDITS, started)) {
        end->super.req_status.MPI_ERROR = MPI_ERR_OTHER;
    }
}

bool mca_pml_chan_ring_recv_poll(mca_pml_chan_end_t *end)
{
    uint64_t before = end->ndone;

    mca_pml_chan_tag_post_started(end);
    while (end->ndone < end->nstart) {
        uint64_t n = end->ndone;
        char *slot = mca_pml_chan_slot(end->mem, end, n);
        if (mca_common_ompix_atomic_load_acq_64((volatile uint64_t *) (slot + end->seq_off)) !=
            n + 1) {
            break;
        }
        if (end->large) {
            /* the data is in place */
        } else if (end->contiguous) {
            mca_pml_chan_copy(mca_pml_chan_user_buf(end, n), slot, end->bytes);
        } else {
            mca_pml_chan_ring_unpack(end, n, slot);
        }
        ++end->ndone;
    }
    return end->ndone != before;
}

void mca_pml_chan_ring_signal_gone(mca_pml_chan_end_t *end)
{
    if (MCA_PML_CHAN_PATH_MAPPED == end->path) {
        mca_common_ompix_atomic_store_rel_64(
            (volatile uint64_t *) (end->peer_mem + MCA_PML_CHAN_CTL_GONE), 1);
    } else if (mca_pml_chan_end_via_worker(end)) {
        (void) mca_pml_chan_am_write_word(end, MCA_PML_CHAN_CTL_GONE, 1);
    }
}
