/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Locked passes in element mode: large accumulates as one pass of the MPI
 * operation under the target's accumulate lock, kept atomic with respect
 * to the element atomics of smaller ones.
 *
 * Each element-mode target has one word, `passes` in its window state
 * block (the line of `mixed`, which every element update reads anyway):
 * its low half counts element updates in flight toward that rank, its
 * PASS bit says that a writer (a pass, or any accumulate under the lock)
 * runs there.  An element update (the reader side) adds 1 before its
 * atomics and takes 1 away after them; if the add found PASS it takes
 * the 1 back at once and becomes a writer itself, i.e. runs after that
 * one.  Writers exclude each other through PASS itself: one sets it with
 * a compare-and-swap that found it clear, then waits until no element
 * update is in flight, runs, takes PASS away.  All of it is
 * read-modify-writes of one word, so they are totally ordered: an update
 * either saw no PASS and is waited for, or saw it and waits.  A pass of
 * the fast path takes the word from 0 (nothing in flight, no writer) to
 * PASS in one compare-and-swap and needs no lock: two locked
 * read-modify-writes per pass instead of four (lock, PASS, PASS,
 * release).  Writers of the general path still take the accumulate lock
 * first (its queue and backoff, the target-applied path's lock), then
 * PASS.  Element updates do not exclude each other (they are atomic
 * already), so element atomics from several origins still run side by
 * side.
 */
#ifndef MCA_OSC_RDMA2_PASS_H
#define MCA_OSC_RDMA2_PASS_H

#include "ompi_config.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "osc_rdma2_component.h"
#include "osc_rdma2_passive.h"
#include "osc_rdma2_peer.h"
#include "osc_rdma2_state.h"

BEGIN_C_DECLS

static inline volatile uint64_t *mca_osc_rdma2_pass_word(const mca_osc_rdma2_peer_t *peer)
{
    return &((mca_osc_rdma2_state_t *) peer->state.ptr)->passes;
}

/* Element updates toward an element-mode peer (state block mapped, not
 * mixed): true when they may run now, false while a pass runs there
 * (then nothing is counted). */
static inline bool mca_osc_rdma2_pass_enter(const mca_osc_rdma2_peer_t *peer)
{
    volatile uint64_t *w = mca_osc_rdma2_pass_word(peer);

    if (OPAL_LIKELY(0 == (mca_common_ompix_atomic_fetch_add_64(w, 1) & MCA_OSC_RDMA2_PASS))) {
        return true;
    }
    mca_common_ompix_atomic_add_rel_64(w, (uint64_t) -1);
    return false;
}

/* After the updates' atomics (release: they happen before a pass). */
static inline void mca_osc_rdma2_pass_exit(const mca_osc_rdma2_peer_t *peer)
{
    mca_common_ompix_atomic_add_rel_64(mca_osc_rdma2_pass_word(peer), (uint64_t) -1);
}

/* Element updates that found a writer: *locked is set when they are one
 * instead (mca_osc_rdma2_pass_leave lets go). */
int mca_osc_rdma2_pass_join(mca_osc_rdma2_peer_t *peer, bool *locked);
int mca_osc_rdma2_pass_leave(mca_osc_rdma2_peer_t *peer, bool locked);

/* Whether an accumulate of n elements of esize bytes runs as a pass. */
static inline bool mca_osc_rdma2_pass_wanted(size_t n, size_t esize)
{
    int min = mca_osc_rdma2_component.acc_pass_bytes;
    return n > 1 && min >= 0 && n * esize >= (size_t) min;
}

/* The writer side toward an element-mode peer: keeps element updates and
 * other writers out until mca_osc_rdma2_pass_end (true: it did; end gets
 * that answer). */
bool mca_osc_rdma2_pass_begin(mca_osc_rdma2_peer_t *peer);
/* Sets PASS once no other writer holds it, then waits until no element
 * update is in flight. */
bool mca_osc_rdma2_pass_acquire(volatile uint64_t *w);

/* A pass of the fast path toward a peer known to be in element mode, not
 * mixed, reached without the target-applied path: PASS taken from a
 * word of 0 (no writer, no update in flight) in one compare-and-swap,
 * without the accumulate lock.  False: busy, take the lock route. */
static inline bool mca_osc_rdma2_pass_try(const mca_osc_rdma2_peer_t *peer)
{
    uint64_t idle = 0;

    return NULL == peer->acc &&
           mca_common_ompix_atomic_cswap_acq_64(mca_osc_rdma2_pass_word(peer), &idle,
                                                MCA_OSC_RDMA2_PASS);
}

static inline void mca_osc_rdma2_pass_end(mca_osc_rdma2_peer_t *peer, bool began)
{
    if (began) {
        mca_common_ompix_atomic_add_rel_64(mca_osc_rdma2_pass_word(peer), -MCA_OSC_RDMA2_PASS);
    }
}

/* The accumulate lock and, toward an element-mode peer, PASS (*pass): what
 * every accumulate outside the element atomics holds.  Inline, so that
 * lock-mode windows pay one test for it. */
static inline int mca_osc_rdma2_pass_lock_excl(mca_osc_rdma2_peer_t *peer, bool *pass)
{
    int ret = mca_osc_rdma2_acc_lock(peer);

    *pass = OMPI_SUCCESS == ret && MCA_OSC_RDMA2_ACC_ELEMENT == peer->module->acc_mode &&
            mca_osc_rdma2_pass_begin(peer);
    return ret;
}

static inline int mca_osc_rdma2_pass_unlock_excl(mca_osc_rdma2_peer_t *peer, bool pass)
{
    mca_osc_rdma2_pass_end(peer, pass);
    return mca_osc_rdma2_acc_unlock(peer);
}

/* The target's accumulate lock around a pass of the fast path: with one
 * thread and the process state block mapped, one CPU compare-and-swap and
 * one release add (the word mca_osc_rdma2_acc_lock takes; about 50
 * instructions less); busy, or with threads (turns), that function.
 * *cpu says which unlock is due. */
static inline int mca_osc_rdma2_pass_lock(mca_osc_rdma2_peer_t *peer, bool *cpu)
{
    uint64_t free_word = 0;

    *cpu = NULL != peer->pstate.ptr && NULL == peer->acc && !opal_using_threads() &&
           mca_common_ompix_atomic_cswap_acq_64(
               &((mca_osc_rdma2_pstate_t *) peer->pstate.ptr)->acc_lock, &free_word, 1);
    return *cpu ? OMPI_SUCCESS : mca_osc_rdma2_acc_lock(peer);
}

static inline int mca_osc_rdma2_pass_unlock(mca_osc_rdma2_peer_t *peer, bool cpu)
{
    if (!cpu) return mca_osc_rdma2_acc_unlock(peer);
    mca_common_ompix_atomic_add_rel_64(&((mca_osc_rdma2_pstate_t *) peer->pstate.ptr)->acc_lock,
                                       (uint64_t) -1);
    return OMPI_SUCCESS;
}

END_C_DECLS

#endif /* MCA_OSC_RDMA2_PASS_H */
