/*
 * Copyright (c) 2026 The ompix developers.
 *
 * One target as seen from this rank in one window, set up on first access.
 */
#ifndef MCA_OSC_RDMA2_PEER_H
#define MCA_OSC_RDMA2_PEER_H

#include "ompi_config.h"

#include "osc_rdma2_module.h"

BEGIN_C_DECLS

struct mca_osc_rdma2_dyn_cache_t;

enum {
    MCA_OSC_RDMA2_LOCK_NONE = 0,
    MCA_OSC_RDMA2_LOCK_SHARED,
    MCA_OSC_RDMA2_LOCK_EXCLUSIVE,
    MCA_OSC_RDMA2_LOCK_NOCHECK
};

typedef struct mca_osc_rdma2_peer_t {
    int rank;
    ucp_ep_h ep;                    /* NULL for self */
    uint64_t base;                  /* remote address of window memory */
    uint64_t size;
    int disp_unit;
    uint64_t state;                 /* remote address of its state block */
    uint64_t pstate;                /* remote address of its process state block */
    ucp_rkey_h win_rkey;
    ucp_rkey_h state_rkey;
    ucp_rkey_h pstate_rkey;
    int pid;                        /* its process id */
    bool cma;                       /* reach its memory with process_vm_readv/writev */
    char *win_ptr;                  /* direct pointers (rkey_ptr or self), or NULL */
    mca_osc_rdma2_state_t *state_ptr;
    mca_osc_rdma2_pstate_t *pstate_ptr;
    int lock_type;                  /* MCA_OSC_RDMA2_LOCK_* held by us */
    bool ucx_pending;               /* UCX operations issued since the last flush */
    bool release_waits;             /* the next release completes them (see passive.c) */
    uint64_t starts;                /* PSCW access epochs started toward this target */
    bool starts_open;               /* in the current PSCW access group */
    struct mca_osc_rdma2_dyn_cache_t *dyn; /* dynamic windows: cached region table */
} mca_osc_rdma2_peer_t;

int mca_osc_rdma2_peer_setup(mca_osc_rdma2_module_t *module, int rank,
                             mca_osc_rdma2_peer_t **peer_out);

static inline int mca_osc_rdma2_peer(mca_osc_rdma2_module_t *module, int rank,
                                     mca_osc_rdma2_peer_t **peer)
{
    if (OPAL_LIKELY(NULL != module->peers[rank])) {
        *peer = module->peers[rank];
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_peer_setup(module, rank, peer);
}

/* Element-mode accumulates to this peer must take its lock instead
 * (osc_rdma2_overlap.c). */
static inline bool mca_osc_rdma2_peer_mixed(const mca_osc_rdma2_peer_t *peer)
{
    return NULL == peer->state_ptr || 0 != peer->state_ptr->mixed;
}

END_C_DECLS

#endif /* MCA_OSC_RDMA2_PEER_H */
