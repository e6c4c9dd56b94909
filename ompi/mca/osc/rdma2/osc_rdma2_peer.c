/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Per-peer state, built on first access to a target: its endpoint, its
 * three remote keys unpacked from the blob exchanged at window creation,
 * and direct pointers when UCX can map its memory (ucp_rkey_ptr, which
 * works on UCX-allocated memory of same-node peers).  A window on p ranks
 * that talks to k of them unpacks k key sets, not p.
 */
#include "ompi_config.h"

#include <string.h>

#include "osc_rdma2_peer.h"
#include "osc_rdma2_comm.h"

/* Unpacks one key and, when the transport allows, maps the remote range. */
static int mca_osc_rdma2_unpack(mca_osc_rdma2_peer_t *peer, const void *packed, size_t len,
                        uint64_t raddr, ucp_rkey_h *rkey, void **ptr)
{
    void *p = NULL;

    *ptr = NULL;
    if (0 == len) {
        return OMPI_SUCCESS;
    }
    if (UCS_OK != ucp_ep_rkey_unpack(peer->ep, packed, rkey)) {
        *rkey = NULL;
        return OMPI_ERROR;
    }
    if (UCS_OK == ucp_rkey_ptr(*rkey, raddr, &p)) {
        *ptr = p;
    }
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_setup_remote(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                              const mca_osc_rdma2_wire_t *w)
{
    const char *keys = (const char *) (w + 1);
    void *ptr;
    int ret;

    ret = mca_common_ompix_ucx_proc_ep(MCA_OSC_RDMA2_UCX, ompi_comm_peer_lookup(module->comm, peer->rank), &peer->ep);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    /* Worker addresses, if present, precede the keys (see window.c). */
    keys += w->address_len;
    ret = mca_osc_rdma2_unpack(peer, keys, w->win_rkey_len, peer->base, &peer->win_rkey, &ptr);
    peer->win_ptr = (char *) ptr;
    keys += w->win_rkey_len;
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_unpack(peer, keys, w->state_rkey_len, peer->state, &peer->state_rkey, &ptr);
        peer->state_ptr = (mca_osc_rdma2_state_t *) ptr;
    }
    keys += w->state_rkey_len;
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_unpack(peer, keys, w->pstate_rkey_len, peer->pstate, &peer->pstate_rkey,
                           &ptr);
        peer->pstate_ptr = (mca_osc_rdma2_pstate_t *) ptr;
    }
    /* Memory UCX can not map (MPI_Win_create buffers, attached regions) of
     * a same-node peer: copy with process_vm_readv/writev, which needs
     * nothing from the target (truly passive), instead of UCX's emulation
     * with active messages. */
    if (OMPI_SUCCESS == ret && NULL == peer->win_ptr && mca_osc_rdma2_component.use_cma &&
        OPAL_PROC_ON_LOCAL_NODE(ompi_comm_peer_lookup(module->comm, peer->rank)->super.proc_flags)) {
        peer->cma = mca_osc_rdma2_cma_probe(peer);
    }
    return ret;
}

static void mca_osc_rdma2_setup_self(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
{
    /* Our own memory: plain pointers, no endpoint, no keys. */
    peer->win_ptr = (char *) module->base;
    peer->state_ptr = module->state;
    peer->pstate_ptr = mca_osc_rdma2_component.pstate;
}

int mca_osc_rdma2_peer_setup(mca_osc_rdma2_module_t *module, int rank,
                             mca_osc_rdma2_peer_t **peer_out)
{
    const mca_osc_rdma2_wire_t *w =
        (const mca_osc_rdma2_wire_t *) (module->blob + module->blob_disps[rank]);
    mca_osc_rdma2_peer_t *peer;
    int ret = OMPI_SUCCESS;

    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    if (NULL != module->peers[rank]) {      /* another thread won */
        *peer_out = module->peers[rank];
        OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
        return OMPI_SUCCESS;
    }
    peer = calloc(1, sizeof(*peer));
    if (NULL == peer) {
        OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    peer->rank = rank;
    peer->base = w->base;
    peer->size = w->size;
    peer->disp_unit = w->disp_unit;
    peer->state = w->state;
    peer->pstate = w->pstate;
    peer->pid = w->pid;
    if (rank == module->my_rank) {
        mca_osc_rdma2_setup_self(module, peer);
    } else {
        ret = mca_osc_rdma2_setup_remote(module, peer, w);
    }
    if (OMPI_SUCCESS != ret) {
        if (NULL != peer->win_rkey) ucp_rkey_destroy(peer->win_rkey);
        if (NULL != peer->state_rkey) ucp_rkey_destroy(peer->state_rkey);
        free(peer);
        OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
        MCA_OSC_RDMA2_VERBOSE(1, "cannot reach rank %d of the window", rank);
        return ret;
    }
    MCA_OSC_RDMA2_VERBOSE(20, "peer %d: window %s, state %s", rank,
                  NULL != peer->win_ptr ? "mapped" : peer->cma ? "through CMA" : "through UCX",
                  NULL != peer->state_ptr ? "mapped" : "through UCX");
    opal_atomic_wmb();
    module->peers[rank] = peer;
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    *peer_out = peer;
    return OMPI_SUCCESS;
}
