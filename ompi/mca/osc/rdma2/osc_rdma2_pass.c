/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Locked passes in element mode (osc_rdma2_pass.h): the writer side, and
 * element updates that found a pass running.
 */
#include "ompi_config.h"

#include <sched.h>

#include "osc_rdma2_pass.h"
#include "osc_rdma2_passive.h"

/* A pass is only wanted toward element-mode peers: there the state block
 * maps (element mode requires it) and nothing marked it mixed (then every
 * accumulate takes the lock and no element update runs). */
static bool mca_osc_rdma2_pass_needed(const mca_osc_rdma2_peer_t *peer)
{
    return MCA_OSC_RDMA2_ACC_ELEMENT == peer->module->acc_mode && !mca_osc_rdma2_peer_mixed(peer);
}

bool mca_osc_rdma2_pass_begin(mca_osc_rdma2_peer_t *peer)
{
    if (!mca_osc_rdma2_pass_needed(peer)) return false;
    return mca_osc_rdma2_pass_begin_elem(peer);
}

/* Updates in flight are a few atomics each and wait for nothing, so no
 * progress is needed (and none runs with the lock held: it could start
 * other windows' lock steps); on an oversubscribed node one may have
 * been preempted, so give the core away now and then. */
bool mca_osc_rdma2_pass_drain(volatile uint64_t *w)
{
    unsigned spins = 0;

    while (0 != (mca_common_ompix_atomic_load_acq_64(w) & MCA_OSC_RDMA2_LOW_MASK)) {
        if (0 == (++spins & 255)) sched_yield();
    }
    return true;
}

/* The pass holds the lock until it has taken PASS away, so holding it
 * here means no pass runs; a later one waits for the lock. */
int mca_osc_rdma2_pass_join(mca_osc_rdma2_peer_t *peer, bool *locked)
{
    *locked = false;
    if (OPAL_LIKELY(mca_osc_rdma2_pass_enter(peer))) return OMPI_SUCCESS;
    *locked = true;
    return mca_osc_rdma2_acc_lock(peer);
}

int mca_osc_rdma2_pass_leave(mca_osc_rdma2_peer_t *peer, bool locked)
{
    if (locked) return mca_osc_rdma2_acc_unlock(peer);
    mca_osc_rdma2_pass_exit(peer);
    return OMPI_SUCCESS;
}
