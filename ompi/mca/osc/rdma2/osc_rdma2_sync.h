/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The synchronization state of one window, modelled on osc/rdma's
 * ompi_osc_rdma_sync_t: the access epoch that is open (fence, per-target
 * locks, lock_all, a PSCW access epoch), what this rank holds toward each
 * target, the exposure epoch, and what completion still owes.  The
 * synchronization calls change it (osc_rdma2_passive.c, osc_rdma2_active.c),
 * operations ask it whether an epoch covers their target, completion
 * (osc_rdma2_completion.c) keeps its pending flags.
 */
#ifndef MCA_OSC_RDMA2_SYNC_H
#define MCA_OSC_RDMA2_SYNC_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stdint.h>

#include "ompi/group/group.h"

BEGIN_C_DECLS

/* The access epoch open.  Fence epochs (a fence without NOSUCCEED up to the
 * next fence) cover every target and may enclose the others, so the fence
 * is a flag of its own (mca_osc_rdma2_sync_t.fence); per-target locks are
 * counted (several threads may lock different targets at once). */
typedef enum {
    MCA_OSC_RDMA2_SYNC_NONE = 0,
    MCA_OSC_RDMA2_SYNC_FENCE,
    MCA_OSC_RDMA2_SYNC_LOCK,
    MCA_OSC_RDMA2_SYNC_LOCK_ALL,
    MCA_OSC_RDMA2_SYNC_PSCW,        /* access epoch: start .. complete */
} mca_osc_rdma2_sync_type_t;

/* What this rank holds toward one target. */
enum {
    MCA_OSC_RDMA2_ACCESS_NONE = 0,
    MCA_OSC_RDMA2_ACCESS_SHARED,    /* MPI_Win_lock(MPI_LOCK_SHARED) */
    MCA_OSC_RDMA2_ACCESS_EXCLUSIVE, /* MPI_Win_lock(MPI_LOCK_EXCLUSIVE) */
    MCA_OSC_RDMA2_ACCESS_NOCHECK,   /* MPI_Win_lock with MPI_MODE_NOCHECK: nothing taken */
    MCA_OSC_RDMA2_ACCESS_PSCW,      /* in the group of the open PSCW access epoch */
};

typedef struct mca_osc_rdma2_sync_target_t {
    union {
        struct {
            bool ucx_pending;       /* UCX operations issued since its last flush */
            bool am_pending;        /* accumulates sent as active messages since */
        };
        uint16_t pending;           /* either: one load for the inline flush */
    };
    uint8_t access;                 /* MCA_OSC_RDMA2_ACCESS_* */
    bool release_waits;             /* its next release must complete them (completion) */
    uint64_t starts;                /* PSCW access epochs started toward it */
    /* request-based accumulates toward it not finished yet, in issue
     * order: the first runs, the others wait (osc_rdma2_accumulate.c) */
    void *volatile acc_running;
    void *acc_last;
} mca_osc_rdma2_sync_target_t;

/* A group's ranks in the window's communicator, kept while the same group
 * is used again (PSCW epochs usually repeat their groups). */
typedef struct mca_osc_rdma2_group_cache_t {
    ompi_group_t *group;            /* retained */
    int *ranks;
} mca_osc_rdma2_group_cache_t;

typedef struct mca_osc_rdma2_sync_t {
    /* access */
    mca_osc_rdma2_sync_type_t type; /* LOCK_ALL or PSCW while one is open, else NONE */
    bool fence;                     /* a fence epoch is open */
    bool fence_used;                /* an operation ran in it: it is an access epoch now */
    bool nocheck;                   /* lock_all with MPI_MODE_NOCHECK: nothing to release */
    volatile int32_t num_locks;     /* per-target locks held */
    mca_osc_rdma2_sync_target_t *target;   /* per rank of the window */
    ompi_group_t *start_group;      /* PSCW access group (retained) */
    int *start_ranks;               /* its ranks in the window (owned by start_cache) */
    int start_count;
    bool start_by_am;               /* every target of it is notified by active messages */
    mca_osc_rdma2_group_cache_t start_cache;
    /* exposure (post .. wait) */
    ompi_group_t *post_group;       /* retained */
    uint64_t complete_expected;     /* completes that end the current exposure epoch */
    mca_osc_rdma2_group_cache_t post_cache;
    uint64_t fence_epoch;           /* fences entered */
    /* completion */
    bool ucx_pending;               /* some UCX operation not yet flushed */
    bool am_pending;                /* some active-message accumulate sent since */
    bool posts_pending;             /* adds posted through UCX since creation */
    /* some UCX operation since the last worker flush still needs its origin
     * buffer (a put UCX did not finish in the call) or is a get: a fence
     * does not complete it here (mca_osc_rdma2_complete_all_ordered) */
    bool ucx_waiting;
    volatile int32_t acc_running;   /* request-based accumulates not finished */
    volatile int64_t am_sent;       /* active-message accumulates sent (osc_rdma2_am.c) */
    volatile int64_t am_done;       /* of which acknowledged */
} mca_osc_rdma2_sync_t;

int mca_osc_rdma2_sync_init(mca_osc_rdma2_sync_t *sync, int size);
void mca_osc_rdma2_sync_fini(mca_osc_rdma2_sync_t *sync);
void mca_osc_rdma2_group_cache_clear(mca_osc_rdma2_group_cache_t *cache);

/* The innermost access epoch open. */
static inline mca_osc_rdma2_sync_type_t mca_osc_rdma2_sync_type(const mca_osc_rdma2_sync_t *sync)
{
    if (MCA_OSC_RDMA2_SYNC_NONE != sync->type) {
        return sync->type;
    }
    if (sync->num_locks > 0) {
        return MCA_OSC_RDMA2_SYNC_LOCK;
    }
    return sync->fence ? MCA_OSC_RDMA2_SYNC_FENCE : MCA_OSC_RDMA2_SYNC_NONE;
}

/* A lock, lock_all or PSCW access epoch is open (they follow FENCE in
 * mca_osc_rdma2_sync_type_t). */
static inline bool mca_osc_rdma2_sync_open(const mca_osc_rdma2_sync_t *sync)
{
    return mca_osc_rdma2_sync_type(sync) > MCA_OSC_RDMA2_SYNC_FENCE;
}

static inline bool mca_osc_rdma2_sync_locked(const mca_osc_rdma2_sync_t *sync, int target)
{
    uint8_t access = sync->target[target].access;
    return MCA_OSC_RDMA2_ACCESS_NONE != access && MCA_OSC_RDMA2_ACCESS_PSCW != access;
}

/* An epoch covers operations on `target`.  One covered by the fence alone
 * makes the fence's epoch an access epoch, in which a lock is erroneous
 * (a fence followed by no operation starts none, MPI-4.1 12.5.1). */
static inline bool mca_osc_rdma2_sync_covers(mca_osc_rdma2_sync_t *sync, int target)
{
    if (MCA_OSC_RDMA2_SYNC_LOCK_ALL == sync->type ||
        MCA_OSC_RDMA2_ACCESS_NONE != sync->target[target].access) {
        return true;
    }
    if (sync->fence) {
        sync->fence_used = true;
        return true;
    }
    return false;
}

/* A fence epoch an operation made an access epoch is open: no lock or
 * lock_all may start (osc/rdma refuses them there too). */
static inline bool mca_osc_rdma2_sync_fence_access(const mca_osc_rdma2_sync_t *sync)
{
    return sync->fence && sync->fence_used;
}

/* A passive-target epoch covers `target` (flush, request operations). */
static inline bool mca_osc_rdma2_sync_passive(const mca_osc_rdma2_sync_t *sync, int target)
{
    return MCA_OSC_RDMA2_SYNC_LOCK_ALL == sync->type || mca_osc_rdma2_sync_locked(sync, target);
}

END_C_DECLS

#endif /* MCA_OSC_RDMA2_SYNC_H */
