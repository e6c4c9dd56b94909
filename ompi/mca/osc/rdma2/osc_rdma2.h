/*
 * Copyright (c) 2026 The ompix developers.
 *
 * osc/rdma2: MPI-3 RMA windows over UCX's ucp API.  Shared declarations.
 * See docs/ARCHITECTURE.md for the design; each osc_rdma2_<topic>.c file owns
 * one concern.
 */
#ifndef MCA_OSC_RDMA2_H
#define MCA_OSC_RDMA2_H

#include "ompi_config.h"

#include <ucp/api/ucp.h>

#include "opal/sys/atomic.h"
#include "opal/threads/mutex.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/group/group.h"
#include "ompi/mca/osc/osc.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"
#include "ompi/win/win.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"
#include "ompi/mca/common/ompix/common_ompix_ucx.h"

BEGIN_C_DECLS

/* ---------------------------------------------------------------------- */
/* Component (process-wide state)                                          */

/* Per-process state block, allocated by UCX so same-node peers reach it
 * with plain CPU atomics.  It holds what must be shared by every window of
 * the process: the accumulate lock (so accumulate atomicity also holds when
 * two windows overlap the same memory). */
typedef struct mca_osc_rdma2_pstate_t {
    volatile uint64_t acc_lock;     /* 0 free, 1 held; released by atomic add */
    uint64_t pad[7];
} mca_osc_rdma2_pstate_t;

typedef struct mca_osc_rdma2_component_t {
    ompi_osc_base_component_t super;
    int priority;
    int verbose;
    int max_attach;                 /* regions per rank in a dynamic window */
    bool use_cma;                   /* same-node put/get on unmapped memory via CMA */
    int progress_thread;            /* RDMA2_THREAD_* */
    int thread_max_sleep;           /* µs: the idle progress thread's longest nap */
    int output;
    bool enable_mpi_threads;
    bool ucx_ready;                 /* context and worker created */
    bool ucx_failed;                /* UCX could not start: decline every window */
    mca_common_ompix_ucx_t ucx;     /* our context, worker and endpoint table */
    bool thread_polls;              /* the progress thread polls our worker */
    int num_modules;                /* live windows; progress registered while > 0 */
    opal_list_t element_ranges;     /* local memory of element-mode windows */
    ucp_mem_h pstate_memh;
    mca_osc_rdma2_pstate_t *pstate;
    void *pstate_rkey;              /* packed key of pstate */
    size_t pstate_rkey_len;
    opal_recursive_mutex_t lock;    /* component state, under MPI_THREAD_MULTIPLE */
} mca_osc_rdma2_component_t;

OMPI_MODULE_DECLSPEC extern mca_osc_rdma2_component_t mca_osc_rdma2_component;

enum {
    RDMA2_THREAD_NEVER = 0,
    RDMA2_THREAD_AUTO = 1,      /* for windows some peer reaches through UCX */
    RDMA2_THREAD_ALWAYS = 2,
};

/* osc_rdma2_ucx.c: the progress thread (common/ompix's) polls our worker
 * so that targets reached through UCX's active-message emulation stay
 * passive; osc_rdma2_progress_thread says for which windows. */
bool mca_osc_rdma2_thread_wanted(bool emulated);
int mca_osc_rdma2_thread_start(void);

#define RDMA2_VERBOSE(level, ...)                                              \
    do {                                                                        \
        if (mca_osc_rdma2_component.verbose >= (level)) {                       \
            opal_output_verbose((level), mca_osc_rdma2_component.output,        \
                                "osc/rdma2: " __VA_ARGS__);                     \
        }                                                                       \
    } while (0)

/* ---------------------------------------------------------------------- */
/* Window                                                                  */

/* Per-window state block (UCX-allocated, one per rank).  Lock words of the
 * two-level lock (see docs/ARCHITECTURE.md); `global` is only used at rank 0. */
#define RDMA2_FENCE_ROUNDS 32         /* log2 of the largest communicator */
#define RDMA2_FENCE_MEET_MAX 8        /* a fence word per rank in one cache line */

typedef struct mca_osc_rdma2_state_t {
    volatile uint64_t global;       /* high 32 bits: lock_all holders; low: exclusive holders */
    uint64_t pad0[7];
    volatile uint64_t lock;         /* this rank as a target: EXCL bit + shared count */
    uint64_t pad1[7];
    volatile uint64_t complete;     /* PSCW: completes received as a target */
    uint64_t pad2[7];
    volatile uint64_t mixed;        /* element mode: lock-mode memory overlaps ours
                                     * (osc_rdma2_overlap.c); read by every accumulate */
    uint64_t pad3[7];
    volatile uint64_t fence_meet[RDMA2_FENCE_MEET_MAX]; /* rank 0's: fence meeting line */
    volatile uint64_t fence_round[RDMA2_FENCE_ROUNDS];  /* fence barrier, see osc_rdma2_active.c */
    volatile uint64_t posted[];     /* PSCW: posted[t] = posts received from rank t */
} mca_osc_rdma2_state_t;

#define RDMA2_LOCK_EXCL   (UINT64_C(1) << 32)
#define RDMA2_GLOBAL_ALL  (UINT64_C(1) << 32)
#define RDMA2_LOW_MASK    UINT64_C(0xffffffff)

/* Dynamic windows: each rank's attached regions, in its state block after
 * posted[] (same offset on every rank), guarded by a sequence counter:
 * odd while the owner edits the table, bumped to the next even value
 * after.  Origins cache a copy per peer and re-read it only when the
 * counter changed (docs/ARCHITECTURE.md). */
#define RDMA2_RKEY_MAX 200
typedef struct mca_osc_rdma2_region_t {
    uint64_t base;
    uint64_t len;
    uint32_t rkey_len;
    uint32_t pad;
    char rkey[RDMA2_RKEY_MAX];
} mca_osc_rdma2_region_t;

typedef struct mca_osc_rdma2_regions_t {
    volatile uint64_t gen;          /* sequence counter (odd: being edited) */
    volatile uint64_t count;
    mca_osc_rdma2_region_t region[];
} mca_osc_rdma2_regions_t;

/* What the origin keeps about one peer's regions. */
typedef struct mca_osc_rdma2_dyn_cache_t {
    uint64_t gen;                   /* generation the copy below is from; 1 = none */
    uint64_t count;
    mca_osc_rdma2_region_t *region; /* copy of the peer's table (max_attach entries) */
    ucp_rkey_h *rkey;               /* unpacked on first use, per entry */
    void **ptr;                     /* direct pointer per entry, if mapped */
} mca_osc_rdma2_dyn_cache_t;

/* What one rank publishes about itself when a window is created.  Followed
 * in the exchanged blob by its worker address (if addresses are exchanged),
 * then the packed keys of the window memory, the state block and the
 * process state block. */
typedef struct mca_osc_rdma2_wire_t {
    uint64_t base;
    uint64_t size;
    uint64_t state;
    uint64_t pstate;
    int32_t disp_unit;
    uint16_t address_len;
    uint16_t win_rkey_len;
    uint16_t state_rkey_len;
    uint16_t pstate_rkey_len;
    int32_t pid;                    /* for cross-memory attach on one node */
} mca_osc_rdma2_wire_t;

/* Lock held by this rank on one target, in this window. */
/* A group's ranks in the window's communicator, kept while the same group
 * is used again (PSCW epochs usually repeat their groups). */
typedef struct rdma2_group_cache_t {
    ompi_group_t *group;            /* retained */
    int *ranks;
} rdma2_group_cache_t;

enum { RDMA2_LOCK_NONE = 0, RDMA2_LOCK_SHARED, RDMA2_LOCK_EXCLUSIVE, RDMA2_LOCK_NOCHECK };

/* One target as seen from this rank, set up on first access. */
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
    int lock_type;                  /* RDMA2_LOCK_* held by us */
    bool ucx_pending;               /* UCX operations issued since the last flush */
    bool release_waits;             /* the next release completes them (see passive.c) */
    uint64_t starts;                /* PSCW access epochs started toward this target */
    bool starts_open;               /* in the current PSCW access group */
    mca_osc_rdma2_dyn_cache_t *dyn; /* dynamic windows: cached region table */
} mca_osc_rdma2_peer_t;

/* Request of Rput/Rget/...: complete when every UCX piece's callback ran
 * (`outstanding` starts at 1 for the issuing thread). */
typedef struct mca_osc_rdma2_request_t {
    ompi_request_t super;
    volatile int32_t outstanding;
    int error;
    struct mca_osc_rdma2_request_t *next;   /* on the done list */
} mca_osc_rdma2_request_t;
OBJ_CLASS_DECLARATION(mca_osc_rdma2_request_t);

/* How accumulate-family operations are made atomic in one window. */
enum {
    RDMA2_ACC_ELEMENT = 0,  /* element-wise CPU/UCX atomics (CAS loops), lock for wide types */
    RDMA2_ACC_LOCK = 1,     /* every accumulate takes the target's process accumulate lock */
};

typedef struct mca_osc_rdma2_module_t {
    ompi_osc_base_module_t super;
    struct ompi_win_t *win;
    ompi_communicator_t *comm;      /* private duplicate for window collectives */
    int flavor;
    int size_comm;
    int my_rank;
    void *base;
    size_t size;
    int disp_unit;

    ucp_mem_h win_memh;             /* NULL for size 0 */
    ucp_mem_h state_memh;
    mca_osc_rdma2_state_t *state;

    /* dynamic windows: our attached regions (table in the state block) */
    size_t dyn_offset;              /* of the region table in every state block */
    mca_osc_rdma2_regions_t *regions;
    ucp_mem_h *region_memh;         /* per table entry */

    /* exchanged descriptions, parsed lazily */
    char *blob;
    int *blob_disps;
    mca_osc_rdma2_peer_t **peers;   /* pointer per rank, NULL until first access */

    int acc_mode;
    /* info keys */
    bool no_locks;
    bool acc_ordering_none;
    bool same_op_no_op;

    /* epochs */
    bool fence_active;              /* inside a fence epoch (not NOSUCCEED) */
    bool lock_all;                  /* lock_all held */
    bool lock_all_nocheck;
    volatile int32_t num_locks;     /* per-target locks held (threads may lock different targets) */
    bool ucx_pending_any;           /* some UCX op not yet flushed */
    bool posts_pending;             /* state adds posted through UCX since creation */

    uint64_t fence_epoch;           /* fences entered */
    volatile uint64_t *fence_meet;  /* rank 0's meeting line, or NULL (dissemination) */

    /* PSCW */
    rdma2_group_cache_t post_cache; /* rank translation of the last groups */
    rdma2_group_cache_t start_cache;
    ompi_group_t *start_group;
    int *start_ranks;               /* ranks (in comm) of the start group */
    int start_count;
    ompi_group_t *post_group;
    int post_count;
    uint64_t complete_expected;     /* completes needed to end the current exposure epoch */

} mca_osc_rdma2_module_t;

#define RDMA2_MODULE(win) ((mca_osc_rdma2_module_t *) (win)->w_osc_module)

void mca_osc_rdma2_group_cache_clear(rdma2_group_cache_t *cache);

/* ---------------------------------------------------------------------- */
/* osc_rdma2_overlap.c: atomicity across overlapping windows               */

void mca_osc_rdma2_overlap_init(void);
void mca_osc_rdma2_overlap_fini(void);
int mca_osc_rdma2_overlap_add_element(mca_osc_rdma2_module_t *module);
void mca_osc_rdma2_overlap_remove_element(mca_osc_rdma2_module_t *module);
/* Lock-mode memory [base, base + len) of this process: marks every
 * element-mode window whose local memory it overlaps as mixed. */
void mca_osc_rdma2_overlap_claim(const void *base, size_t len);

/* Element-mode accumulates to this peer must take its lock instead. */
static inline bool mca_osc_rdma2_peer_mixed(const mca_osc_rdma2_peer_t *peer)
{
    return NULL == peer->state_ptr || 0 != peer->state_ptr->mixed;
}

/* ---------------------------------------------------------------------- */
/* osc_rdma2_ucx.c: UCX context and worker (common/ompix), the process     */
/* state block, progress, and blocking helpers over opal's common/ucx      */

#define RDMA2_UCX (&mca_osc_rdma2_component.ucx)

int mca_osc_rdma2_ucx_init(void);
void mca_osc_rdma2_ucx_fini(void);
int mca_osc_rdma2_progress(void);
int mca_osc_rdma2_ucx_wait(ucs_status_ptr_t sp);
int mca_osc_rdma2_ucx_check(ucs_status_ptr_t sp);
int mca_osc_rdma2_ucx_flush_ep(ucp_ep_h ep);
int mca_osc_rdma2_ucx_flush_worker(void);
int mca_osc_rdma2_ucx_atomic(ucp_ep_h ep, ucp_atomic_op_t op, uint64_t value, uint64_t *result,
                             size_t size, uint64_t addr, ucp_rkey_h rkey);
int mca_osc_rdma2_ucx_atomic_post(ucp_ep_h ep, uint64_t value, uint64_t addr, ucp_rkey_h rkey);
int mca_osc_rdma2_ucx_cswap(ucp_ep_h ep, uint64_t compare, uint64_t *swap_result, size_t size,
                            uint64_t addr, ucp_rkey_h rkey);
int mca_osc_rdma2_ucx_rkey_pack(ucp_mem_h memh, void **buf, size_t *len);

/* ---------------------------------------------------------------------- */
/* osc_rdma2_window.c / osc_rdma2_peer.c                                   */

int mca_osc_rdma2_window_create(struct ompi_win_t *win, void **base, size_t size, int disp_unit,
                                struct ompi_communicator_t *comm, struct opal_info_t *info,
                                int flavor, int *model);
int mca_osc_rdma2_free(struct ompi_win_t *win);
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

/* ---------------------------------------------------------------------- */
/* osc_rdma2_comm.c: put/get and the target-side address helpers           */

/* Checks that [disp, disp + count x dt) lies in the target's window and
 * returns the remote address of disp (0-count accesses always pass). */
int mca_osc_rdma2_target_range(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                               ptrdiff_t disp, int count, struct ompi_datatype_t *dt,
                               uint64_t *addr);
int mca_osc_rdma2_check_access(mca_osc_rdma2_module_t *module, int target);
/* Peer, epoch, matching type signatures and range of one operation. */
int mca_osc_rdma2_prepare(mca_osc_rdma2_module_t *module, int target, int count,
                          struct ompi_datatype_t *dt, ptrdiff_t disp, int tcount,
                          struct ompi_datatype_t *tdt, mca_osc_rdma2_peer_t **peer,
                          uint64_t *raddr);
/* Cross-memory attach: one contiguous copy to/from a same-node peer. */
int mca_osc_rdma2_cma(mca_osc_rdma2_peer_t *peer, bool is_put, void *local, uint64_t raddr,
                      size_t len);
bool mca_osc_rdma2_cma_probe(mca_osc_rdma2_peer_t *peer);
/* Copies between local memory laid out as (count, dt) and remote memory
 * laid out as (tcount, tdt) at raddr (direct or through UCX). */
int mca_osc_rdma2_xfer(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer, bool is_put,
                       void *local, int count, struct ompi_datatype_t *dt, uint64_t raddr,
                       int tcount, struct ompi_datatype_t *tdt);

int mca_osc_rdma2_rdma(mca_osc_rdma2_module_t *module, mca_osc_rdma2_request_t *req, bool is_put,
                       void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt);
int mca_osc_rdma2_put(const void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                      int target, ptrdiff_t target_disp, int target_count,
                      struct ompi_datatype_t *target_dt, struct ompi_win_t *win);
int mca_osc_rdma2_get(void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                      int target, ptrdiff_t target_disp, int target_count,
                      struct ompi_datatype_t *target_dt, struct ompi_win_t *win);

/* ---------------------------------------------------------------------- */
/* osc_rdma2_accumulate.c                                                  */

int mca_osc_rdma2_accumulate(const void *origin_addr, int origin_count,
                             struct ompi_datatype_t *origin_dt, int target, ptrdiff_t target_disp,
                             int target_count, struct ompi_datatype_t *target_dt,
                             struct ompi_op_t *op, struct ompi_win_t *win);
int mca_osc_rdma2_get_accumulate(const void *origin_addr, int origin_count,
                                 struct ompi_datatype_t *origin_dt, void *result_addr,
                                 int result_count, struct ompi_datatype_t *result_dt,
                                 int target, ptrdiff_t target_disp, int target_count,
                                 struct ompi_datatype_t *target_dt, struct ompi_op_t *op,
                                 struct ompi_win_t *win);
int mca_osc_rdma2_fetch_and_op(const void *origin_addr, void *result_addr,
                               struct ompi_datatype_t *dt, int target, ptrdiff_t target_disp,
                               struct ompi_op_t *op, struct ompi_win_t *win);
int mca_osc_rdma2_compare_and_swap(const void *origin_addr, const void *compare_addr,
                                   void *result_addr, struct ompi_datatype_t *dt, int target,
                                   ptrdiff_t target_disp, struct ompi_win_t *win);

/* ---------------------------------------------------------------------- */
/* osc_rdma2_dynamic.c                                                     */

size_t mca_osc_rdma2_dyn_table_size(void);
int mca_osc_rdma2_attach(struct ompi_win_t *win, void *base, size_t len);
int mca_osc_rdma2_detach(struct ompi_win_t *win, const void *base);
void mca_osc_rdma2_dyn_release_local(mca_osc_rdma2_module_t *module);
void mca_osc_rdma2_dyn_release_peer(mca_osc_rdma2_peer_t *peer);
/* Points the peer's window fields at the region holding [addr, addr+len). */
int mca_osc_rdma2_dyn_lookup(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                             uint64_t addr, uint64_t len);

/* ---------------------------------------------------------------------- */
/* osc_rdma2_request.c                                                     */

int mca_osc_rdma2_rput(const void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt, struct ompi_win_t *win,
                       struct ompi_request_t **request);
int mca_osc_rdma2_rget(void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt, struct ompi_win_t *win,
                       struct ompi_request_t **request);
int mca_osc_rdma2_raccumulate(const void *origin_addr, int origin_count,
                              struct ompi_datatype_t *origin_dt, int target, ptrdiff_t target_disp,
                              int target_count, struct ompi_datatype_t *target_dt,
                              struct ompi_op_t *op, struct ompi_win_t *win,
                              struct ompi_request_t **request);
int mca_osc_rdma2_rget_accumulate(const void *origin_addr, int origin_count,
                                  struct ompi_datatype_t *origin_dt, void *result_addr,
                                  int result_count, struct ompi_datatype_t *result_dt,
                                  int target, ptrdiff_t target_disp, int target_count,
                                  struct ompi_datatype_t *target_dt, struct ompi_op_t *op,
                                  struct ompi_win_t *win, struct ompi_request_t **request);

/* UCX completion callback of one piece of a request-based operation. */
void mca_osc_rdma2_request_piece_cb(void *ucx_req, ucs_status_t status, void *user_data);
/* Completes the MPI requests whose last piece finished (never called from
 * a UCX callback); returns how many. */
int mca_osc_rdma2_request_drain(void);

/* ---------------------------------------------------------------------- */
/* osc_rdma2_passive.c                                                     */

int mca_osc_rdma2_lock(int lock_type, int target, int assert, struct ompi_win_t *win);
int mca_osc_rdma2_unlock(int target, struct ompi_win_t *win);
int mca_osc_rdma2_lock_all(int assert, struct ompi_win_t *win);
int mca_osc_rdma2_unlock_all(struct ompi_win_t *win);
int mca_osc_rdma2_sync(struct ompi_win_t *win);
int mca_osc_rdma2_flush(int target, struct ompi_win_t *win);
int mca_osc_rdma2_flush_all(struct ompi_win_t *win);
int mca_osc_rdma2_flush_local(int target, struct ompi_win_t *win);
int mca_osc_rdma2_flush_local_all(struct ompi_win_t *win);
/* Completes UCX operations to one peer / to all peers of the window. */
int mca_osc_rdma2_complete_peer(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer);
int mca_osc_rdma2_complete_all(mca_osc_rdma2_module_t *module);
int mca_osc_rdma2_complete_before_release(mca_osc_rdma2_module_t *module,
                                          mca_osc_rdma2_peer_t *peer, bool release_via_ucx);
/* Remote atomics on a peer's state words (direct CPU atomics when mapped). */
int mca_osc_rdma2_state_fadd(mca_osc_rdma2_peer_t *peer, volatile uint64_t *local_word,
                             uint64_t raddr, ucp_rkey_h rkey, uint64_t value, uint64_t *old);
int mca_osc_rdma2_state_post(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                             volatile uint64_t *local_word,
                             uint64_t raddr, ucp_rkey_h rkey, uint64_t value);
int mca_osc_rdma2_state_cswap(mca_osc_rdma2_peer_t *peer, volatile uint64_t *local_word,
                              uint64_t raddr, ucp_rkey_h rkey, uint64_t compare, uint64_t swap,
                              uint64_t *old);
int mca_osc_rdma2_acc_lock(mca_osc_rdma2_peer_t *peer);
int mca_osc_rdma2_acc_unlock(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer);

/* ---------------------------------------------------------------------- */
/* osc_rdma2_active.c                                                      */

int mca_osc_rdma2_fence(int assert, struct ompi_win_t *win);
int mca_osc_rdma2_start(struct ompi_group_t *group, int assert, struct ompi_win_t *win);
int mca_osc_rdma2_complete(struct ompi_win_t *win);
int mca_osc_rdma2_post(struct ompi_group_t *group, int assert, struct ompi_win_t *win);
int mca_osc_rdma2_wait(struct ompi_win_t *win);
int mca_osc_rdma2_test(struct ompi_win_t *win, int *flag);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_H */
