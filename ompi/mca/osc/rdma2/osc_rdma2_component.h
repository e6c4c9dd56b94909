/*
 * Copyright (c) 2026 The ompix developers.
 *
 * osc/rdma2's component: what one process shares across its windows (UCX
 * context and worker, the process state block, the progress callback and
 * thread, MCA parameters).
 */
#ifndef MCA_OSC_RDMA2_COMPONENT_H
#define MCA_OSC_RDMA2_COMPONENT_H

#include "ompi_config.h"

#include <sys/types.h>

#include <ucp/api/ucp.h>

#include "opal/class/opal_free_list.h"
#include "opal/class/opal_lifo.h"
#include "opal/class/opal_list.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "opal/util/output.h"
#include "ompi/mca/osc/osc.h"
#include "ompi/mca/common/ompix/common_ompix_ucx.h"

#include "osc_rdma2_state.h"

BEGIN_C_DECLS

/* osc_rdma2_progress_thread: for which windows the progress thread polls
 * our worker. */
enum {
    MCA_OSC_RDMA2_THREAD_NEVER = 0,
    MCA_OSC_RDMA2_THREAD_AUTO = 1,      /* windows some peer reaches through UCX */
    MCA_OSC_RDMA2_THREAD_ALWAYS = 2,
};

#define MCA_OSC_RDMA2_ACC_TURNS 16

typedef struct mca_osc_rdma2_component_t {
    ompi_osc_base_component_t super;
    int priority;
    int verbose;
    bool use_cma;                   /* same-node put/get on unmapped memory via CMA */
    int progress_thread;            /* MCA_OSC_RDMA2_THREAD_* */
    int thread_max_sleep;           /* µs: the idle progress thread's longest nap */
    int acc_path;                   /* MCA_OSC_RDMA2_ACC_PATH_* (osc_rdma2_am.h) */
    int notify_slots;               /* notification counters per window and process */
    int acc_pass_bytes;             /* element mode: accumulates this large run as one
                                     * locked pass (osc_rdma2_accumulate.c) */
    int output;
    bool enable_mpi_threads;
    bool ucx_ready;                 /* context and worker created */
    pid_t pid;                      /* ours, for the creation exchange (CMA) */
    bool ucx_failed;                /* UCX could not start: decline every window */
    mca_common_ompix_ucx_t ucx;     /* our context, worker and endpoint table */
    bool thread_polls;              /* the progress thread polls our worker */
    int num_modules;                /* live windows; progress registered while > 0 */
    /* live windows some peer may reach through UCX's emulation (all but
     * element-mode ones): while 0, the progress callback is a low-priority
     * one (every 8th opal_progress) and polls our worker on every
     * MCA_OSC_RDMA2_QUIET_POLL-th call (mca_osc_rdma2_progress) */
    volatile int32_t loud_modules;
    int progress_rate;              /* 0 unregistered, 1 low priority, 2 every call */
    opal_list_t element_ranges;     /* local memory of element-mode windows */
    ucp_mem_h pstate_memh;
    mca_osc_rdma2_pstate_t *pstate;
    void *pstate_rkey;              /* packed key of pstate */
    size_t pstate_rkey_len;
    opal_recursive_mutex_t lock;    /* component state, under MPI_THREAD_MULTIPLE */
    /* Our threads' turns at target processes' accumulate locks
     * (osc_rdma2_passive.c:mca_osc_rdma2_acc_lock), by process number. */
    opal_mutex_t acc_turn[MCA_OSC_RDMA2_ACC_TURNS];
    opal_free_list_t requests;      /* of mca_osc_rdma2_request_t */
    opal_lifo_t requests_done;      /* requests whose last piece finished (osc_rdma2_request.c) */
    opal_lifo_t requests_acc;       /* accumulate state machines whose next step is due */
} mca_osc_rdma2_component_t;

OMPI_DECLSPEC extern mca_osc_rdma2_component_t mca_osc_rdma2_component;

#define MCA_OSC_RDMA2_VERBOSE(level, ...)                                        \
    do {                                                                        \
        if (mca_osc_rdma2_component.verbose >= (level)) {                       \
            opal_output_verbose((level), mca_osc_rdma2_component.output,        \
                                "osc/rdma2: " __VA_ARGS__);                     \
        }                                                                       \
    } while (0)

#define MCA_OSC_RDMA2_UCX (&mca_osc_rdma2_component.ucx)

/* osc_rdma2_ucx.c: the context and worker (common/ompix's), the process
 * state block, progress, and the progress thread's poll of our worker. */
int mca_osc_rdma2_ucx_init(void);
void mca_osc_rdma2_ucx_fini(void);
#define MCA_OSC_RDMA2_QUIET_POLL 8
int mca_osc_rdma2_progress(void);
int mca_osc_rdma2_ucx_rkey_pack(ucp_mem_h memh, void **buf, size_t *len);
bool mca_osc_rdma2_thread_wanted(bool emulated);
int mca_osc_rdma2_thread_start(void);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_COMPONENT_H */
