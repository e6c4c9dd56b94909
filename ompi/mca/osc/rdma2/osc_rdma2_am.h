/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The active-message accumulate path (osc_rdma2_am.c): accumulate-family
 * operations the target applies itself, under its own accumulate lock,
 * for peers whose accumulate lock UCX only emulates (TCP).  Chosen per
 * peer at set-up (mca_osc_rdma2_am_path); the target side (handler,
 * deferred queue) serves every window of the process.
 */
#ifndef MCA_OSC_RDMA2_AM_H
#define MCA_OSC_RDMA2_AM_H

#include "ompi_config.h"

#include "osc_rdma2_path.h"

BEGIN_C_DECLS

struct mca_osc_rdma2_peer_t;
struct mca_osc_rdma2_module_t;

/* osc_rdma2_acc_path: how accumulates that are not element atomics reach a
 * peer. */
enum {
    MCA_OSC_RDMA2_ACC_PATH_AUTO = 0,    /* active messages where the lock is emulated */
    MCA_OSC_RDMA2_ACC_PATH_AM = 1,      /* active messages to every other process */
    MCA_OSC_RDMA2_ACC_PATH_LOCK = 2,    /* always the accumulate lock */
};

/* From mca_osc_rdma2_ucx_init, once the worker exists: the handlers.  If
 * they can not be set, every peer takes the lock path. */
int mca_osc_rdma2_am_init(void);
void mca_osc_rdma2_am_fini(void);
/* The UCX features the path needs (0 when osc_rdma2_acc_path is lock). */
uint64_t mca_osc_rdma2_am_features(void);

/* At peer set-up: the path table, or NULL for the accumulate lock. */
const mca_osc_rdma2_acc_path_t *mca_osc_rdma2_am_path(const struct mca_osc_rdma2_peer_t *peer);

/* Top-level progress (never from a UCX callback): applies the operations
 * the handler queued, unless the accumulate lock is held, and replies;
 * answers with an error those it had no memory to queue. */
extern volatile void *mca_osc_rdma2_am_queue_head;
extern volatile int32_t mca_osc_rdma2_am_nlost;
int mca_osc_rdma2_am_drain_queue(void);
static inline int mca_osc_rdma2_am_drain(void)
{
    return NULL == mca_osc_rdma2_am_queue_head && 0 == mca_osc_rdma2_am_nlost
        ? 0 : mca_osc_rdma2_am_drain_queue();
}

/* PSCW notifications by active messages (peer->notify_addr): at peer
 * set-up, whether they take them (not toward mapped state words); then
 * one-way messages the target's handler turns into an add to its
 * posted[our rank] (post) or complete word (complete).  Issued after our
 * operations to that peer, the message is applied after them. */
enum {
    MCA_OSC_RDMA2_AM_NOTIFY_POSTED = 0,
    MCA_OSC_RDMA2_AM_NOTIFY_COMPLETE = 1,
};
void mca_osc_rdma2_am_notify_path(struct mca_osc_rdma2_peer_t *peer);
int mca_osc_rdma2_am_notify(struct mca_osc_rdma2_peer_t *peer, int which);

/* Target-notified operations by active messages, toward peers whose
 * accumulates take them (their state words and slots are UCX's
 * emulation, TCP): one one-way message whose handler copies the payload
 * (len bytes packed from count dt at data; none: 0) to the target
 * address `addr` and then adds 1 to the target's slot at `slot`.  No
 * answer; the next completion toward the peer sends a flush request
 * (an acknowledged empty accumulate) behind it. */
struct ompi_datatype_t;
bool mca_osc_rdma2_am_note_path(const struct mca_osc_rdma2_peer_t *peer);
int mca_osc_rdma2_am_note(struct mca_osc_rdma2_peer_t *peer, uint64_t slot, uint64_t addr,
                          const void *data, int count, struct ompi_datatype_t *dt, size_t len);
/* accumulate_notify's add, queued at the target behind the accumulates
 * this rank sent it (applied in arrival order), acknowledged like them:
 * no wait in the call. */
int mca_osc_rdma2_am_note_queued(struct mca_osc_rdma2_peer_t *peer, uint64_t slot);

/* Waits until every accumulate this rank sent as an active message in the
 * window has been applied. */
int mca_osc_rdma2_am_complete_all(struct mca_osc_rdma2_module_t *module);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_AM_H */
