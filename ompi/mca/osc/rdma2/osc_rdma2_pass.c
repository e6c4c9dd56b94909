/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Locked passes in element mode (osc_rdma2_pass.h): the writer side, and
 * element updates that found a writer running.
 */
#include "ompi_config.h"

#include <sched.h>

#include "osc_rdma2_pass.h"
#include "osc_rdma2_passive.h"

/* Writers exclude element updates toward element-mode peers (their state
 * block maps: element mode requires it), mixed or not: a peer may be
 * marked mixed while a lock-free pass (mca_osc_rdma2_pass_try) that
 * tested it before still runs, and the lock does not exclude that pass;
 * PASS does. */
static bool mca_osc_rdma2_pass_needed(const mca_osc_rdma2_peer_t *peer)
{
    return MCA_OSC_RDMA2_ACC_ELEMENT == peer->module->acc_mode && NULL != peer->state.ptr;
}

bool mca_osc_rdma2_pass_begin(mca_osc_rdma2_peer_t *peer)
{
    if (!mca_osc_rdma2_pass_needed(peer)) return false;
    return mca_osc_rdma2_pass_acquire(mca_osc_rdma2_pass_word(peer));
}

/* Another writer holds PASS only for its own pass (lock-free passes take
 * it with nothing in flight, run and let go), and updates in flight are
 * a few atomics each that wait for nothing, so no progress is needed
 * (and none runs with the lock held: it could start other windows' lock
 * steps); on an oversubscribed node one may have been preempted, so give
 * the core away now and then. */
bool mca_osc_rdma2_pass_acquire(volatile uint64_t *w)
{
    unsigned spins = 0;
    uint64_t cur = mca_common_ompix_atomic_load_acq_64(w);

    for (;;) {
        if (0 == (cur & MCA_OSC_RDMA2_PASS)) {
            if (mca_common_ompix_atomic_cswap_acq_64(w, &cur, cur | MCA_OSC_RDMA2_PASS)) break;
            continue;   /* cur holds the word the compare found */
        }
        if (0 == (++spins & 255)) sched_yield();
        cur = mca_common_ompix_atomic_load_acq_64(w);
    }
    while (0 != (mca_common_ompix_atomic_load_acq_64(w) & MCA_OSC_RDMA2_LOW_MASK)) {
        if (0 == (++spins & 255)) sched_yield();
    }
    return true;
}

/* An update that found a writer becomes one (the lock, then PASS): after
 * that writer, and alone, as a pass is. */
int mca_osc_rdma2_pass_join(mca_osc_rdma2_peer_t *peer, bool *locked)
{
    bool pass;
    int ret;

    *locked = false;
    if (OPAL_LIKELY(mca_osc_rdma2_pass_enter(peer))) return OMPI_SUCCESS;
    ret = mca_osc_rdma2_pass_lock_excl(peer, &pass);
    *locked = OMPI_SUCCESS == ret;
    return ret;
}

int mca_osc_rdma2_pass_leave(mca_osc_rdma2_peer_t *peer, bool locked)
{
    /* join took PASS exactly when a pass is needed (fixed per peer) */
    if (locked) return mca_osc_rdma2_pass_unlock_excl(peer, mca_osc_rdma2_pass_needed(peer));
    mca_osc_rdma2_pass_exit(peer);
    return OMPI_SUCCESS;
}
