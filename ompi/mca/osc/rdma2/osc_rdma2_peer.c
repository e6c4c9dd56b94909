/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Per-peer state, built on first access to a target: its endpoint, its
 * three remote keys unpacked from the blob exchanged at window creation,
 * direct pointers when UCX can map its memory (ucp_rkey_ptr, which works
 * on UCX-allocated memory of same-node peers), and from these the paths
 * to its window memory and state words.  A window on p ranks that talks
 * to k of them unpacks k key sets, not p.
 */
#include "ompi_config.h"

#include <string.h>

#include "osc_rdma2_am.h"
#include "osc_rdma2_dynamic.h"
#include "osc_rdma2_peer.h"

/* Mapped when UCX maps it (or it is ours); else CMA on one node when the
 * probe allowed it; else UCX. */
const mca_osc_rdma2_win_path_t *mca_osc_rdma2_peer_win_path(const mca_osc_rdma2_peer_t *peer,
                                                            const void *ptr)
{
    if (NULL != ptr || peer->rank == peer->module->my_rank) {
        return &mca_osc_rdma2_win_path_mapped;
    }
    return peer->cma ? &mca_osc_rdma2_win_path_cma : &mca_osc_rdma2_win_path_ucx;
}

const mca_osc_rdma2_state_path_t *mca_osc_rdma2_peer_state_path(const void *ptr)
{
    return NULL != ptr ? &mca_osc_rdma2_state_path_mapped : &mca_osc_rdma2_state_path_ucx;
}

int mca_osc_rdma2_peer_unpack(mca_osc_rdma2_peer_t *peer, const void *packed, size_t len,
                              uint64_t raddr, ucp_rkey_h *rkey, char **ptr)
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
        *ptr = (char *) p;
    }
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_setup_remote(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                      const mca_osc_rdma2_wire_t *w)
{
    ompi_proc_t *proc = ompi_comm_peer_lookup(module->comm, peer->rank);
    const char *keys = (const char *) (w + 1);
    int ret;

    ret = mca_common_ompix_ucx_proc_ep(MCA_OSC_RDMA2_UCX, proc, &peer->ep);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    /* Worker addresses, if present, precede the keys (see window.c). */
    keys += w->address_len;
    ret = mca_osc_rdma2_peer_unpack(peer, keys, w->win_rkey_len, peer->win.base, &peer->win.rkey,
                               &peer->win.ptr);
    keys += w->win_rkey_len;
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_peer_unpack(peer, keys, w->state_rkey_len, peer->state.base,
                                   &peer->state.rkey, &peer->state.ptr);
    }
    keys += w->state_rkey_len;
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_peer_unpack(peer, keys, w->pstate_rkey_len, peer->pstate.base,
                                   &peer->pstate.rkey, &peer->pstate.ptr);
    }
    /* Memory UCX can not map (MPI_Win_create buffers, attached regions) of
     * a same-node peer: copy with process_vm_readv/writev, which needs
     * nothing from the target (truly passive), instead of UCX's emulation
     * with active messages. */
    if (OMPI_SUCCESS == ret && NULL == peer->win.ptr && mca_osc_rdma2_component.use_cma &&
        OPAL_PROC_ON_LOCAL_NODE(proc->super.proc_flags)) {
        peer->cma = mca_osc_rdma2_cma_probe(peer);
    }
    return ret;
}

static void mca_osc_rdma2_setup_self(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
{
    /* Our own memory: plain pointers, no endpoint, no keys. */
    peer->win.ptr = (char *) module->base;
    peer->state.ptr = (char *) module->state;
    peer->pstate.ptr = (char *) mca_osc_rdma2_component.pstate;
}

static void mca_osc_rdma2_peer_destroy(mca_osc_rdma2_peer_t *peer)
{
    if (NULL != peer->win.rkey) ucp_rkey_destroy(peer->win.rkey);
    if (NULL != peer->state.rkey) ucp_rkey_destroy(peer->state.rkey);
    if (NULL != peer->pstate.rkey) ucp_rkey_destroy(peer->pstate.rkey);
    free(peer);
}

static mca_osc_rdma2_peer_t *mca_osc_rdma2_peer_new(mca_osc_rdma2_module_t *module, int rank,
                                                    const mca_osc_rdma2_wire_t *w)
{
    mca_osc_rdma2_peer_t *peer = calloc(1, sizeof(*peer));

    if (NULL != peer) {
        peer->module = module;
        peer->sync = &module->sync.target[rank];
        peer->rank = rank;
        peer->win.base = w->base;
        peer->win.size = w->size;
        peer->disp_unit = w->disp_unit;
        peer->state.base = w->state;
        peer->pstate.base = w->pstate;
        peer->pid = w->pid;
    }
    return peer;
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
    peer = mca_osc_rdma2_peer_new(module, rank, w);
    if (NULL == peer) {
        OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (rank == module->my_rank) {
        mca_osc_rdma2_setup_self(module, peer);
    } else {
        ret = mca_osc_rdma2_setup_remote(module, peer, w);
    }
    if (OMPI_SUCCESS != ret) {
        mca_osc_rdma2_peer_destroy(peer);
        OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
        MCA_OSC_RDMA2_VERBOSE(1, "cannot reach rank %d of the window", rank);
        return ret;
    }
    peer->win.path = mca_osc_rdma2_peer_win_path(peer, peer->win.ptr);
    peer->state.path = mca_osc_rdma2_peer_state_path(peer->state.ptr);
    peer->pstate.path = mca_osc_rdma2_peer_state_path(peer->pstate.ptr);
    peer->acc = mca_osc_rdma2_am_path(peer);
    mca_osc_rdma2_am_notify_path(peer);
    MCA_OSC_RDMA2_VERBOSE(20, "peer %d: window %s, state %s, accumulates %s, PSCW "
                          "notifications %s", rank, peer->win.path->name, peer->state.path->name,
                          NULL != peer->acc ? peer->acc->name : "under its lock",
                          0 != peer->notify_addr[0] ? "by active messages" : "by posted adds");
    opal_atomic_wmb();
    module->peers[rank] = peer;
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    *peer_out = peer;
    return OMPI_SUCCESS;
}

void mca_osc_rdma2_peer_release(mca_osc_rdma2_peer_t *peer)
{
    mca_osc_rdma2_dyn_release_peer(peer);
    mca_osc_rdma2_peer_destroy(peer);
}
