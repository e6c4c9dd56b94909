/*
 * Copyright (c) 2026 The ompix developers.
 *
 * One target as seen from this rank in one window, set up on first access.
 */
#ifndef MCA_OSC_RDMA2_PEER_H
#define MCA_OSC_RDMA2_PEER_H

#include "ompi_config.h"

#include "osc_rdma2_module.h"
#include "osc_rdma2_path.h"

BEGIN_C_DECLS

struct mca_osc_rdma2_dyn_cache_t;

typedef struct mca_osc_rdma2_peer_t {
    mca_osc_rdma2_module_t *module;
    mca_osc_rdma2_sync_target_t *sync; /* our synchronization state toward it (module->sync) */
    int rank;
    ucp_ep_h ep;                    /* NULL for self */
    int disp_unit;
    int pid;                        /* its process id */
    bool cma;                       /* same node, and CMA may read its memory */
    mca_osc_rdma2_win_mem_t win;    /* its window memory (dynamic windows: regions, see
                                     * osc_rdma2_dynamic.c) */
    mca_osc_rdma2_state_mem_t state;    /* its state block of this window */
    mca_osc_rdma2_state_mem_t pstate;   /* its process state block */
    struct mca_osc_rdma2_dyn_cache_t *dyn; /* dynamic windows: cached region table */
    const mca_osc_rdma2_acc_path_t *acc;   /* NULL: accumulates take its lock; else by
                                            * active messages (osc_rdma2_am.c) */
    volatile int64_t am_sent;       /* accumulates sent to it as active messages */
    volatile int64_t am_done;       /* of which it acknowledged */
    volatile int32_t am_failed;     /* some failed (reported by its completion) */
    /* PSCW notifications (post, complete) as active messages, where its
     * state words are UCX's emulation (osc_rdma2_am.c:mca_osc_rdma2_am_notify):
     * the addresses of its posted[our rank] and complete words, the
     * messages' headers (UCX reads them until sent, so they live here).
     * notify_addr[0] == 0: notifications are posted adds on its state path. */
    uint64_t notify_addr[2];
    /* Target-notified operations sent to it as one-way active messages
     * (osc_rdma2_am.c:mca_osc_rdma2_am_note), counted after each send, and
     * how many of them the last flush request covers: a completion sends
     * one (an acknowledged empty accumulate, applied behind them) when
     * they differ. */
    volatile int64_t am_notes;
    int64_t am_notes_flushed;
} mca_osc_rdma2_peer_t;

int mca_osc_rdma2_peer_setup(mca_osc_rdma2_module_t *module, int rank,
                             mca_osc_rdma2_peer_t **peer_out);
/* Window free: keys, cached regions and the peer itself. */
void mca_osc_rdma2_peer_release(mca_osc_rdma2_peer_t *peer);

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
    return NULL == peer->state.ptr || 0 != ((mca_osc_rdma2_state_t *) peer->state.ptr)->mixed;
}

/* The path to window memory at `ptr` (mapped there, or NULL) of this peer:
 * chosen at set-up for the window, per region for dynamic windows. */
const mca_osc_rdma2_win_path_t *mca_osc_rdma2_peer_win_path(const mca_osc_rdma2_peer_t *peer,
                                                            const void *ptr);
/* The path to state words at `ptr` (mapped there, or NULL): the peer's
 * state blocks, a dynamic window's table block. */
const mca_osc_rdma2_state_path_t *mca_osc_rdma2_peer_state_path(const void *ptr);
/* Unpacks one of the peer's keys (none when len is 0) and, when the
 * transport allows, maps the remote address raddr (*ptr, else NULL). */
int mca_osc_rdma2_peer_unpack(mca_osc_rdma2_peer_t *peer, const void *packed, size_t len,
                              uint64_t raddr, ucp_rkey_h *rkey, char **ptr);
/* osc_rdma2_path_cma.c: whether CMA may read the peer's memory (ptrace
 * rules, containers). */
bool mca_osc_rdma2_cma_probe(mca_osc_rdma2_peer_t *peer);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_PEER_H */
