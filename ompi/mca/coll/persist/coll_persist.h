/*
 * Copyright (c) 2026 The ompix developers.
 *
 * coll/persist: persistent collectives planned once.  MPIX_<coll>_init
 * builds a schedule (rounds of persistent point-to-point requests, each
 * followed by local copies and reductions), allocates every buffer and
 * creates every request; MPI_Start only resets a round counter, does the
 * local copies of the first step and starts round 0.  Rounds advance from
 * a progress callback.
 */
#ifndef MCA_COLL_PERSIST_H
#define MCA_COLL_PERSIST_H

#include "ompi_config.h"

#include <limits.h>

#include "mpi.h"
#include "opal/class/opal_list.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/* A local step between rounds: dst = src (copy, same datatype), dst = src
 * op dst (reduce), or src converted into dst's datatype (SNDRCV, by
 * mca_common_ompix_datatype_copy). */
typedef enum {
    MCA_COLL_PERSIST_COPY,
    MCA_COLL_PERSIST_REDUCE,
    MCA_COLL_PERSIST_SNDRCV
} mca_coll_persist_action_kind_t;

typedef struct {
    mca_coll_persist_action_kind_t kind;
    void *src;
    void *dst;
    int count;
    ompi_datatype_t *dtype;
    ompi_op_t *op;
    int src_count;                        /* sndrcv: the source's own layout */
    ompi_datatype_t *src_dtype;
} mca_coll_persist_action_t;

typedef struct {
    int req_begin, req_end;               /* requests this round starts */
    int act_begin, act_end;               /* actions once they completed */
} mca_coll_persist_round_t;

/* Collectives served from a shared segment (coll_persist_shm.c). */
typedef enum {
    MCA_COLL_PERSIST_SHM_BARRIER,
    MCA_COLL_PERSIST_SHM_BCAST,
    MCA_COLL_PERSIST_SHM_ALLREDUCE
} mca_coll_persist_shm_kind_t;
typedef struct mca_coll_persist_shm_t mca_coll_persist_shm_t;

/* A point-to-point transfer of the schedule as it was planned: what a
 * plan on bundles binds its channel from (coll_persist_bundle.c). */
typedef struct {
    void *buf;
    int count;
    ompi_datatype_t *dtype;
    int peer, tag;
    bool send;
} mca_coll_persist_p2p_t;

/* The schedule as a bundle of channels (coll_persist_bundle.c). */
typedef struct mca_coll_persist_bundle_t mca_coll_persist_bundle_t;

/* The algorithm a planned collective runs, for MPI_T (coll_persist_mpit.c):
 * OTHER is the one schedule of a collective that has a single algorithm. */
typedef enum {
    MCA_COLL_PERSIST_ALG_OTHER = 0,
    MCA_COLL_PERSIST_ALG_BARRIER_SHM,
    MCA_COLL_PERSIST_ALG_BARRIER_DISSEMINATION,
    MCA_COLL_PERSIST_ALG_BCAST_SHM,
    MCA_COLL_PERSIST_ALG_BCAST_BINOMIAL,
    MCA_COLL_PERSIST_ALG_BCAST_SCATTER_ALLGATHER,
    MCA_COLL_PERSIST_ALG_ALLREDUCE_SHM,
    MCA_COLL_PERSIST_ALG_ALLREDUCE_RECURSIVE_DOUBLING,
    MCA_COLL_PERSIST_ALG_ALLREDUCE_RING,
    MCA_COLL_PERSIST_ALG_ALLGATHER_BRUCK,
    MCA_COLL_PERSIST_ALG_ALLGATHER_RING,
    MCA_COLL_PERSIST_ALG_ALLTOALL_BRUCK,
    MCA_COLL_PERSIST_ALG_ALLTOALL_PAIRWISE,
    MCA_COLL_PERSIST_ALGS
} mca_coll_persist_alg_t;

/* A planned collective: a schedule of point-to-point rounds, or (shm set)
 * a shared-memory plan.  Actions [0, pre_actions) run at MPI_Start before
 * round 0. */
typedef struct {
    ompi_coll_base_nbc_request_t super;   /* first: Open MPI's retain_op casts to it */
    opal_list_item_t active_item;         /* in the component's active list */
    ompi_communicator_t *comm;
    int tag;
    int nrounds, round;                   /* round: the one in flight */
    int nreqs, nactions, pre_actions;
    mca_coll_persist_round_t *rounds;
    ompi_request_t **reqs;
    mca_coll_persist_action_t *actions;
    void *tmp;                            /* scratch buffers, one block */
    ompi_op_t *op;                        /* retained */
    ompi_datatype_t *dtype;               /* retained */
    mca_coll_persist_shm_t *shm;          /* NULL: the schedule above */
    mca_coll_persist_p2p_t *p2p;          /* what reqs[i] was made with */
    mca_coll_persist_bundle_t *bundle;    /* non-NULL: the schedule runs as this bundle */
    uint64_t start_call;                  /* the start call that last started it */
    mca_coll_persist_alg_t algorithm;
    uint64_t starts;                      /* schedule starts (a shm plan counts its own) */
    opal_list_item_t mpit_item;           /* in coll_persist_mpit.c's list, once handed out */
    int start_error;                      /* reported by its completion (listed twice) */
} mca_coll_persist_request_t;
OBJ_CLASS_DECLARATION(mca_coll_persist_request_t);

typedef struct {
    mca_coll_base_module_t super;
} mca_coll_persist_module_t;
OBJ_CLASS_DECLARATION(mca_coll_persist_module_t);

/* Algorithm choices that MCA parameters can force (0: choose by size). */
enum {
    MCA_COLL_PERSIST_AUTO = 0,
    MCA_COLL_PERSIST_BCAST_BINOMIAL = 1,
    MCA_COLL_PERSIST_BCAST_SCATTER_ALLGATHER = 2,
    MCA_COLL_PERSIST_ALLREDUCE_RECURSIVE_DOUBLING = 1,
    MCA_COLL_PERSIST_ALLREDUCE_RING = 2,
    MCA_COLL_PERSIST_EXCHANGE_BRUCK = 1,        /* allgather and alltoall */
    MCA_COLL_PERSIST_EXCHANGE_LINEAR = 2        /* allgather ring, alltoall pairwise */
};

typedef struct {
    mca_coll_base_component_t super;
    int priority;
    int bcast_algorithm, allreduce_algorithm;
    int bcast_large, allreduce_large;     /* bytes from which the large algorithm is used */
    int allgather_algorithm, alltoall_algorithm;
    int allgather_large;                  /* total bytes from which allgather uses the ring */
    int alltoall_small;                   /* block bytes below which alltoall uses Bruck */
    int shm_max_bytes, shm_max_ranks;     /* limits of the shared-memory plans */
    int shm_bcast_depth;                  /* starts a broadcast root may run ahead */
    int bundle;                           /* which schedules run as bundles of channels */
    opal_list_t active;                   /* started, not yet complete */
    opal_mutex_t lock;
    bool progress_registered;
} mca_coll_persist_component_t;

OMPI_DECLSPEC extern mca_coll_persist_component_t mca_coll_persist_component;

/* MPI_T (coll_persist_mpit.c): starts per algorithm of the requests handed
 * out (tracked) and of those freed since (untracked). */
void mca_coll_persist_mpit_register(void);
void mca_coll_persist_mpit_track(mca_coll_persist_request_t *req);
void mca_coll_persist_mpit_untrack(mca_coll_persist_request_t *req);
uint64_t mca_coll_persist_shm_starts(const mca_coll_persist_shm_t *s);

/* Schedule building (coll_persist_sched.c). */
typedef struct {
    mca_coll_persist_request_t *req;
    int cap_reqs, cap_actions, cap_rounds, cap_p2p;
} mca_coll_persist_builder_t;

int mca_coll_persist_request_new(ompi_communicator_t *comm, ompi_op_t *op,
                                 ompi_datatype_t *dtype, size_t tmp_bytes,
                                 mca_coll_persist_builder_t *b);
int mca_coll_persist_round(mca_coll_persist_builder_t *b);
int mca_coll_persist_send(mca_coll_persist_builder_t *b, const void *buf, int count,
                          ompi_datatype_t *dtype, int peer);
int mca_coll_persist_recv(mca_coll_persist_builder_t *b, void *buf, int count,
                          ompi_datatype_t *dtype, int peer);
int mca_coll_persist_action(mca_coll_persist_builder_t *b, mca_coll_persist_action_kind_t kind,
                            const void *src, void *dst, int count, ompi_datatype_t *dtype,
                            ompi_op_t *op);
int mca_coll_persist_action2(mca_coll_persist_builder_t *b, const void *src, int scount,
                             ompi_datatype_t *sdtype, void *dst, int dcount,
                             ompi_datatype_t *ddtype);
int mca_coll_persist_finish(mca_coll_persist_builder_t *b, ompi_request_t **request);
void mca_coll_persist_abandon(mca_coll_persist_builder_t *b);

/* Finishes a build: on success hands out the request, on failure
 * releases everything built so far and returns rc. */
int mca_coll_persist_end(mca_coll_persist_builder_t *b, int rc, ompi_request_t **request);

static inline ptrdiff_t mca_coll_persist_extent(ompi_datatype_t *dtype)
{
    ptrdiff_t lb, extent;
    ompi_datatype_get_extent(dtype, &lb, &extent);
    return extent;
}

/* Address of element i of buf. */
static inline char *mca_coll_persist_at(const void *buf, ptrdiff_t i, ompi_datatype_t *dtype)
{
    return (char *) buf + i * mca_coll_persist_extent(dtype);
}

/* Bytes that n elements occupy; *true_lb is where they start relative to
 * the buffer address. */
static inline size_t mca_coll_persist_span(int n, ompi_datatype_t *dtype, ptrdiff_t *true_lb)
{
    ptrdiff_t true_extent;
    ompi_datatype_get_true_extent(dtype, true_lb, &true_extent);
    return n > 0 ? (size_t) true_extent + (size_t) (n - 1) * mca_coll_persist_extent(dtype) : 0;
}

/* Elements [*first, *first + *n) of chunk i when count is cut into size
 * nearly equal chunks. */
static inline void mca_coll_persist_chunk(int i, int count, int size, int *first, int *n)
{
    int base = count / size, extra = count % size;
    *first = i * base + (i < extra ? i : extra);
    *n = base + (i < extra ? 1 : 0);
}

/* The per-peer arrays of a v- or w-variant, which Open MPI 4.1's bindings
 * do not all check: n counts (not negative) and displacements (variants
 * without them pass the counts again), and with per_peer_types a valid
 * type for each peer. */
static inline int mca_coll_persist_check_blocks(int n, const int *counts, const void *disps,
                                                ompi_datatype_t *const *types,
                                                bool per_peer_types)
{
    if (n <= 0) {
        return OMPI_SUCCESS;
    }
    if (NULL == counts || NULL == disps || (per_peer_types && NULL == types)) {
        return MPI_ERR_ARG;
    }
    for (int i = 0; i < n; ++i) {
        if (counts[i] < 0) {
            return MPI_ERR_COUNT;
        }
        if (per_peer_types && (NULL == types[i] || MPI_DATATYPE_NULL == types[i])) {
            return MPI_ERR_TYPE;
        }
    }
    return OMPI_SUCCESS;
}

/* Binomial trees over vrank = rank relative to the root: the size of
 * vrank's subtree (its lowest set bit, capped by the ranks left; all of
 * them for the root) and its parent (vrank with that bit cleared). */
static inline int mca_coll_persist_subtree(int vrank, int size)
{
    int low = 0 == vrank ? size : (vrank & -vrank);
    return low < size - vrank ? low : size - vrank;
}

static inline int mca_coll_persist_parent(int vrank)
{
    return vrank - (vrank & -vrank);
}

/* Shared-memory plans (coll_persist_shm.c).  try returns
 * OMPI_ERR_NOT_AVAILABLE, having communicated only if every rank takes
 * the same decision, when the collective must be planned over the PML. */
int mca_coll_persist_shm_try(ompi_communicator_t *comm, mca_coll_persist_shm_kind_t kind,
                             const void *sbuf, void *rbuf, int count, ompi_datatype_t *dtype,
                             ompi_op_t *op, int root, ompi_request_t **request);
bool mca_coll_persist_shm_start(mca_coll_persist_shm_t *s);
bool mca_coll_persist_shm_advance(mca_coll_persist_shm_t *s);
void mca_coll_persist_shm_release(mca_coll_persist_shm_t *s);

/* How hard an init works at choosing (info key ompix_persist_effort,
 * coll_persist_effort.c): LOW plans the cheapest (no shared segment, the
 * fewest point-to-point requests), NORMAL as the MCA parameters say, TUNE
 * times every candidate for a few starts on scratch buffers and keeps the
 * one whose slowest rank was fastest. */
typedef enum {
    MCA_COLL_PERSIST_EFFORT_LOW,
    MCA_COLL_PERSIST_EFFORT_NORMAL,
    MCA_COLL_PERSIST_EFFORT_TUNE
} mca_coll_persist_effort_t;

#define MCA_COLL_PERSIST_EFFORT_KEY "ompix_persist_effort"
#define MCA_COLL_PERSIST_MAX_CANDIDATES 4

/* One call's arguments, so that a family can plan it with any of its
 * algorithms; sblocks/rblocks: how many (count x type) blocks each buffer
 * holds (tune allocates scratch buffers of that size; sbuf == rbuf: one). */
typedef struct {
    const void *sbuf;
    void *rbuf;
    int scount, rcount;
    ompi_datatype_t *sdtype, *rdtype;
    ompi_op_t *op;
    int root;
    int sblocks, rblocks;
    ompi_communicator_t *comm;
} mca_coll_persist_call_t;

/* A family with a choice of algorithms: candidates() fills algs with what
 * an effort may use, in the order NORMAL and LOW try them (a shared-memory
 * plan can decline with OMPI_ERR_NOT_AVAILABLE, alike on every rank, and
 * the next is tried), and returns how many; plan() builds one. */
typedef struct {
    int (*candidates)(const mca_coll_persist_call_t *call, mca_coll_persist_effort_t effort,
                      mca_coll_persist_alg_t *algs);
    int (*plan)(const mca_coll_persist_call_t *call, mca_coll_persist_alg_t alg,
                ompi_request_t **request);
} mca_coll_persist_family_t;

mca_coll_persist_effort_t mca_coll_persist_effort(struct ompi_info_t *info);
/* The same answer on every rank of comm: true only if ok on all of them
 * (an allreduce), for what may fail on one rank only. */
bool mca_coll_persist_agree(ompi_communicator_t *comm, bool ok);
int mca_coll_persist_plan(const mca_coll_persist_call_t *call,
                          const mca_coll_persist_family_t *family, struct ompi_info_t *info,
                          ompi_request_t **request);
/* coll_persist_tune.c: the candidate every rank keeps, or an error on
 * every rank when some rank could not allocate its scratch buffers. */
int mca_coll_persist_tune(const mca_coll_persist_call_t *call,
                          const mca_coll_persist_family_t *family,
                          const mca_coll_persist_alg_t *algs, int n, mca_coll_persist_alg_t *best);

/* Engine (coll_persist_request.c). */
int mca_coll_persist_progress(void);
void mca_coll_persist_request_run_actions(mca_coll_persist_request_t *req, int begin, int end);

/* coll_persist_bundle: which schedules run as bundles of channels. */
typedef enum {
    MCA_COLL_PERSIST_BUNDLE_OFF = 0,
    MCA_COLL_PERSIST_BUNDLE_ON = 1,          /* every point-to-point plan */
    MCA_COLL_PERSIST_BUNDLE_NEIGHBOR = 2     /* the neighborhood collectives only */
} mca_coll_persist_bundle_mode_t;

/* Schedules as bundles of channels (coll_persist_bundle.c): try turns a
 * planned request (neighbor: of a neighborhood collective) into a bundle
 * when every rank can; collective over comm when coll_persist_bundle
 * selects the plan, so every rank calls it after planning, with NULL
 * where planning failed.  The request stays a schedule otherwise. */
void mca_coll_persist_bundle_try(ompi_communicator_t *comm, ompi_request_t *request,
                                 mca_coll_persist_effort_t effort, bool neighbor);
bool mca_coll_persist_bundle_start(mca_coll_persist_request_t *req);
bool mca_coll_persist_bundle_advance(mca_coll_persist_request_t *req);
void mca_coll_persist_bundle_release(mca_coll_persist_request_t *req);

/* Collectives. */
/* What the *_init bindings check unless mpi_param_check is off, so that
 * the component never plans with them: a count (< 0: MPI_ERR_COUNT), a
 * datatype (null: MPI_ERR_TYPE), an operation (NULL when none; MPI_OP_NULL:
 * MPI_ERR_OP) and a root (MCA_COLL_PERSIST_NO_ROOT when none; out of range:
 * MPI_ERR_ROOT). */
#define MCA_COLL_PERSIST_NO_ROOT INT_MIN
int mca_coll_persist_check_args(struct ompi_communicator_t *comm, int count,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root);

int mca_coll_persist_barrier_init(struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                  ompi_request_t **request,
                                  mca_coll_base_module_t *module);
int mca_coll_persist_bcast_init(void *buff, int count, struct ompi_datatype_t *datatype,
                                int root, struct ompi_communicator_t *comm,
                                struct ompi_info_t *info, ompi_request_t **request,
                                mca_coll_base_module_t *module);
int mca_coll_persist_allgather_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                    void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    mca_coll_base_module_t *module);
int mca_coll_persist_alltoall_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                   void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                   struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                   ompi_request_t **request,
                                   mca_coll_base_module_t *module);
int mca_coll_persist_scan_init(const void *sbuf, void *rbuf, int count,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                               struct ompi_communicator_t *comm, struct ompi_info_t *info,
                               ompi_request_t **request,
                               mca_coll_base_module_t *module);
int mca_coll_persist_exscan_init(const void *sbuf, void *rbuf, int count,
                                 struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                 struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                 ompi_request_t **request,
                                 mca_coll_base_module_t *module);
int mca_coll_persist_allreduce_init(const void *sbuf, void *rbuf, int count,
                                    struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    mca_coll_base_module_t *module);

int mca_coll_persist_gather_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                 void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                 int root, struct ompi_communicator_t *comm,
                                 struct ompi_info_t *info, ompi_request_t **request,
                                 mca_coll_base_module_t *module);
int mca_coll_persist_scatter_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                  void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                  int root, struct ompi_communicator_t *comm,
                                  struct ompi_info_t *info, ompi_request_t **request,
                                  mca_coll_base_module_t *module);
int mca_coll_persist_gatherv_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                  void *rbuf, const int *rcounts, const int *disps,
                                  struct ompi_datatype_t *rdtype, int root,
                                  struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                  ompi_request_t **request,
                                  mca_coll_base_module_t *module);
int mca_coll_persist_scatterv_init(const void *sbuf, const int *scounts, const int *disps,
                                   struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                                   struct ompi_datatype_t *rdtype, int root,
                                   struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                   ompi_request_t **request,
                                   mca_coll_base_module_t *module);
int mca_coll_persist_allgatherv_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                     void *rbuf, const int *rcounts, const int *disps,
                                     struct ompi_datatype_t *rdtype,
                                     struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                     ompi_request_t **request,
                                     mca_coll_base_module_t *module);
int mca_coll_persist_alltoallv_init(const void *sbuf, const int *scounts, const int *sdisps,
                                    struct ompi_datatype_t *sdtype, void *rbuf,
                                    const int *rcounts, const int *rdisps,
                                    struct ompi_datatype_t *rdtype,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    mca_coll_base_module_t *module);
int mca_coll_persist_alltoallw_init(const void *sbuf, const int *scounts, const int *sdisps,
                                    struct ompi_datatype_t *const *sdtypes, void *rbuf,
                                    const int *rcounts, const int *rdisps,
                                    struct ompi_datatype_t *const *rdtypes,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    mca_coll_base_module_t *module);
int mca_coll_persist_reduce_init(const void *sbuf, void *rbuf, int count,
                                 struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                                 struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                 ompi_request_t **request,
                                 mca_coll_base_module_t *module);
int mca_coll_persist_reduce_scatter_block_init(const void *sbuf, void *rbuf, int rcount,
                                               struct ompi_datatype_t *dtype,
                                               struct ompi_op_t *op,
                                               struct ompi_communicator_t *comm,
                                               struct ompi_info_t *info, ompi_request_t **request,
                                               mca_coll_base_module_t *module);
int mca_coll_persist_reduce_scatter_init(const void *sbuf, void *rbuf, const int *rcounts,
                                         struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                         struct ompi_communicator_t *comm,
                                         struct ompi_info_t *info, ompi_request_t **request,
                                         mca_coll_base_module_t *module);
int mca_coll_persist_neighbor_allgather_init(const void *sbuf, int scount,
                                             struct ompi_datatype_t *sdtype, void *rbuf,
                                             int rcount, struct ompi_datatype_t *rdtype,
                                             struct ompi_communicator_t *comm,
                                             struct ompi_info_t *info, ompi_request_t **request,
                                             mca_coll_base_module_t *module);
int mca_coll_persist_neighbor_allgatherv_init(const void *sbuf, int scount,
                                              struct ompi_datatype_t *sdtype, void *rbuf,
                                              const int *rcounts, const int *disps,
                                              struct ompi_datatype_t *rdtype,
                                              struct ompi_communicator_t *comm,
                                              struct ompi_info_t *info, ompi_request_t **request,
                                              mca_coll_base_module_t *module);
int mca_coll_persist_neighbor_alltoall_init(const void *sbuf, int scount,
                                            struct ompi_datatype_t *sdtype, void *rbuf,
                                            int rcount, struct ompi_datatype_t *rdtype,
                                            struct ompi_communicator_t *comm,
                                            struct ompi_info_t *info, ompi_request_t **request,
                                            mca_coll_base_module_t *module);
int mca_coll_persist_neighbor_alltoallv_init(const void *sbuf, const int *scounts,
                                             const int *sdisps, struct ompi_datatype_t *sdtype,
                                             void *rbuf, const int *rcounts, const int *rdisps,
                                             struct ompi_datatype_t *rdtype,
                                             struct ompi_communicator_t *comm,
                                             struct ompi_info_t *info, ompi_request_t **request,
                                             mca_coll_base_module_t *module);
int mca_coll_persist_neighbor_alltoallw_init(const void *sbuf, const int *scounts,
                                             const MPI_Aint *sdisps,
                                             struct ompi_datatype_t *const *sdtypes, void *rbuf,
                                             const int *rcounts, const MPI_Aint *rdisps,
                                             struct ompi_datatype_t *const *rdtypes,
                                             struct ompi_communicator_t *comm,
                                             struct ompi_info_t *info, ompi_request_t **request,
                                             mca_coll_base_module_t *module);

END_C_DECLS

#endif
