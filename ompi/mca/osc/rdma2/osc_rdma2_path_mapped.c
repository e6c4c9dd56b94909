/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The mapped path: memory of ourselves, or of a same-node peer that
 * ucp_rkey_ptr mapped (UCX-allocated memory, with a shared-memory
 * transport).  Puts and gets are copies, atomics CPU atomics; everything
 * is complete on return and needs nothing from the target.
 */
#include "ompi_config.h"

#include "osc_rdma2_path_mapped.h"

static int mca_osc_rdma2_mapped_put(struct mca_osc_rdma2_peer_t *peer,
                                    const mca_osc_rdma2_win_mem_t *mem,
                                    struct mca_osc_rdma2_request_t *req, const void *local,
                                    uint64_t raddr, size_t len)
{
    (void) peer; (void) req;
    mca_osc_rdma2_mapped_copy(mca_osc_rdma2_mapped_addr(mem, raddr), local, len);
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_mapped_get(struct mca_osc_rdma2_peer_t *peer,
                                    const mca_osc_rdma2_win_mem_t *mem,
                                    struct mca_osc_rdma2_request_t *req, void *local,
                                    uint64_t raddr, size_t len)
{
    (void) peer; (void) req;
    mca_osc_rdma2_mapped_copy(local, mca_osc_rdma2_mapped_addr(mem, raddr), len);
    return OMPI_SUCCESS;
}

static char *mca_osc_rdma2_mapped_direct(const mca_osc_rdma2_win_mem_t *mem, uint64_t raddr)
{
    return mca_osc_rdma2_mapped_addr(mem, raddr);
}

const mca_osc_rdma2_win_path_t mca_osc_rdma2_win_path_mapped = {
    .name = "mapped",
    .put = mca_osc_rdma2_mapped_put,
    .get = mca_osc_rdma2_mapped_get,
    .fetch_op = mca_osc_rdma2_mapped_fetch_op,
    .load = mca_osc_rdma2_mapped_load,
    .cswap = mca_osc_rdma2_mapped_cswap,
    .direct = mca_osc_rdma2_mapped_direct,
};

/* ---------------------------------------------------------------------- */
/* State words                                                             */

static int mca_osc_rdma2_mapped_state_fadd(struct mca_osc_rdma2_peer_t *peer,
                                           const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                           uint64_t value, uint64_t *old)
{
    uint64_t prev = mca_common_ompix_atomic_fetch_add_64(mca_osc_rdma2_mapped_word(mem, off),
                                                         value);
    (void) peer;
    if (NULL != old) {
        *old = prev;
    }
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_mapped_state_post(struct mca_osc_rdma2_peer_t *peer,
                                           const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                           uint64_t value)
{
    (void) peer;
    mca_common_ompix_atomic_add_rel_64(mca_osc_rdma2_mapped_word(mem, off), value);
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_mapped_state_cswap(struct mca_osc_rdma2_peer_t *peer,
                                            const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                            uint64_t compare, uint64_t swap, uint64_t *old)
{
    (void) peer;
    *old = compare;
    (void) mca_common_ompix_atomic_cswap_64(mca_osc_rdma2_mapped_word(mem, off), old, swap);
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_mapped_state_load(struct mca_osc_rdma2_peer_t *peer,
                                           const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                           uint64_t *value)
{
    (void) peer;
    *value = mca_common_ompix_atomic_load_acq_64(mca_osc_rdma2_mapped_word(mem, off));
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_mapped_state_read(struct mca_osc_rdma2_peer_t *peer,
                                           const mca_osc_rdma2_state_mem_t *mem, size_t off,
                                           void *buf, size_t len)
{
    (void) peer;
    memcpy(buf, mem->ptr + off, len);
    return OMPI_SUCCESS;
}

const mca_osc_rdma2_state_path_t mca_osc_rdma2_state_path_mapped = {
    .name = "mapped",
    .ucx = false,
    .fadd = mca_osc_rdma2_mapped_state_fadd,
    .post = mca_osc_rdma2_mapped_state_post,
    .cswap = mca_osc_rdma2_mapped_state_cswap,
    .load = mca_osc_rdma2_mapped_state_load,
    .read = mca_osc_rdma2_mapped_state_read,
};
