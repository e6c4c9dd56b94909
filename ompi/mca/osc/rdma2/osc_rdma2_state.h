/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The blocks other processes reach with atomics and reads: the process
 * state block (one per process: the accumulate lock) and the per-window
 * state block (lock words, PSCW and fence counters, where the dynamic
 * region table is), both allocated by UCX so
 * that same-node peers map them.  The window state block's layout is
 * computed once per window (mca_osc_rdma2_state_layout) from values every
 * rank shares, so this rank's offsets address every rank's block.
 */
#ifndef MCA_OSC_RDMA2_STATE_H
#define MCA_OSC_RDMA2_STATE_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

BEGIN_C_DECLS

/* Per-process state block.  It holds what every window of the process
 * shares: the accumulate lock, so accumulate atomicity also holds when two
 * windows overlap the same memory. */
typedef struct mca_osc_rdma2_pstate_t {
    volatile uint64_t acc_lock;     /* 0 free, 1 held; released by atomic add */
    uint64_t pad[7];
} mca_osc_rdma2_pstate_t;

/* The fixed words at the start of the per-window state block (one per
 * rank), each on its own cache line: lock words of the two-level lock
 * (docs/ARCHITECTURE.md; `global` is only used at rank 0), the PSCW
 * completion counter, the overlap mark, the fence words. */
#define MCA_OSC_RDMA2_FENCE_ROUNDS 32         /* log2 of the largest communicator */
#define MCA_OSC_RDMA2_FENCE_MEET_MAX 8        /* a fence word per rank in one cache line */

typedef struct mca_osc_rdma2_state_t {
    volatile uint64_t global;       /* high 32 bits: lock_all holders; low: exclusive holders */
    uint64_t pad0[7];
    volatile uint64_t lock;         /* this rank as a target: EXCL bit + shared count */
    uint64_t pad1[7];
    volatile uint64_t complete;     /* PSCW: completes received as a target */
    uint64_t pad2[7];
    volatile uint64_t mixed;        /* element mode: lock-mode memory overlaps ours
                                     * (osc_rdma2_overlap.c); read by every accumulate */
    volatile uint64_t passes;       /* element mode, this rank as a target: PASS bit while
                                     * a locked pass runs, low half element updates in
                                     * flight (osc_rdma2_accumulate.c) */
    uint64_t pad3[6];
    volatile uint64_t fence_meet[MCA_OSC_RDMA2_FENCE_MEET_MAX]; /* rank 0's: fence meeting line */
    volatile uint64_t fence_round[MCA_OSC_RDMA2_FENCE_ROUNDS];  /* the fence's dissemination */
} mca_osc_rdma2_state_t;

#define MCA_OSC_RDMA2_LOCK_EXCL   (UINT64_C(1) << 32)
#define MCA_OSC_RDMA2_GLOBAL_ALL  (UINT64_C(1) << 32)
#define MCA_OSC_RDMA2_LOW_MASK    UINT64_C(0xffffffff)
#define MCA_OSC_RDMA2_PASS        (UINT64_C(1) << 32)

/* Dynamic windows: where each rank's attached regions are.  The state
 * block holds only this descriptor (same offset on every rank); the
 * region table itself lives in a separate UCX-allocated block that the
 * owner replaces by one twice as large when it is full (or by one with
 * larger entries when a key does not fit; osc_rdma2_dynamic.c).  Everything here and in the table block is
 * guarded by the sequence counter `gen`: odd while the owner edits,
 * bumped to the next even value after.  Origins cache a copy per peer and
 * re-read it only when the counter changed (docs/ARCHITECTURE.md). */
#define MCA_OSC_RDMA2_RKEY_MAX 200
typedef struct mca_osc_rdma2_regions_t {
    volatile uint64_t gen;          /* sequence counter (odd: being edited) */
    volatile uint64_t count;        /* regions attached (entries used in the table) */
    uint64_t table;                 /* remote address of the table block; 0: none yet */
    uint64_t capacity;              /* entries the table block holds */
    uint32_t entry_size;            /* bytes per entry in that block */
    uint32_t rkey_len;              /* bytes used in rkey[] */
    uint64_t reserved[3];           /* rest of the first cache line */
    char rkey[MCA_OSC_RDMA2_RKEY_MAX];  /* packed key of the table block */
} mca_osc_rdma2_regions_t;

/* One attached region in the table block, which holds `capacity` entries
 * of `entry_size` bytes sorted by base (binary search; regions never
 * overlap).  The entry carries the region's packed key (a dozen bytes for
 * registered memory on shared memory and TCP): the size is this header
 * plus the longest key so far, rounded to 8 bytes, so a re-read copies
 * little and the first use of a region needs no further read. */
typedef struct mca_osc_rdma2_region_t {
    uint64_t base;
    uint64_t len;
    uint32_t serial;                /* which attach made it: an origin keeps the key it
                                     * unpacked while (base, len, serial) stay */
    uint32_t rkey_len;
    char rkey[];                    /* entry_size - sizeof(mca_osc_rdma2_region_t) bytes */
} mca_osc_rdma2_region_t;

/* Where the parts of a window's state block are, in bytes from its start:
 *
 *   0        mca_osc_rdma2_state_t        fixed words (cache lines)
 *   posted   uint64_t[p]                  PSCW: posts received from rank t
 *   regions  mca_osc_rdma2_regions_t      dynamic windows: where the region table is
 *   size                                  end
 *
 * Every part starts on a cache line.  Computed from the communicator size
 * and the flavor, which are the same on every rank. */
typedef struct mca_osc_rdma2_state_layout_t {
    size_t posted;
    size_t regions;                 /* 0: not a dynamic window */
    size_t size;
} mca_osc_rdma2_state_layout_t;

void mca_osc_rdma2_state_layout(mca_osc_rdma2_state_layout_t *layout, int size_comm,
                                bool dynamic);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_STATE_H */
