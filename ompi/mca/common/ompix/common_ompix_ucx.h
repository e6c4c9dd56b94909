/*
 * Copyright (c) 2026 The ompix developers.
 *
 * UCX for ompix components that keep their own context and worker, so that
 * they work whichever PML carries the rest of MPI (ob1 or ucx): bring-up
 * and tear-down, the endpoint table, and the few operations where ompix
 * deliberately differs from Open MPI's opal/mca/common/ucx.  Everything
 * else comes from there: request waits, endpoint and worker flushes,
 * fetching atomics (opal_common_ucx_wait_request, _ep_flush,
 * _worker_flush, _atomic_fetch, _atomic_cswap), the verbosity and the
 * user's opal_common_ucx_tls/devices settings.
 */
#ifndef MCA_COMMON_OMPIX_UCX_H
#define MCA_COMMON_OMPIX_UCX_H

#include "ompi_config.h"

#include <stdbool.h>
#include <ucp/api/ucp.h>

#include "opal/class/opal_hash_table.h"
#include "opal/mca/common/ucx/common_ucx.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/proc/proc.h"
#include "ompi/communicator/communicator.h"

BEGIN_C_DECLS

typedef struct mca_common_ompix_ucx_t {
    const char *owner;              /* "osc/rdma2": names the user in messages */
    ucp_context_h context;
    ucp_worker_h worker;
    bool multi_threaded;            /* the worker serializes its callers */
    opal_hash_table_t procs;        /* ompi_proc_t * -> endpoint and address */
    opal_mutex_t lock;              /* procs */
} mca_common_ompix_ucx_t;

/* What a component asks of its context. */
typedef struct mca_common_ompix_ucx_params_t {
    uint64_t features;              /* UCP_FEATURE_* */
    bool multi_threaded;            /* several threads (or the progress thread) call the worker */
    bool cpu_atomics;               /* UCX atomics must be coherent with CPU atomics on the same
                                     * words (ATOMIC_MODE=cpu) */
} mca_common_ompix_ucx_params_t;

/* From a component's register function: registers Open MPI's
 * opal_common_ucx_* parameters (transports, devices, verbosity), so that
 * they are settable and shown by ompi_info. */
OMPI_DECLSPEC void mca_common_ompix_ucx_register(void);

/* Creates the context and the worker.  Fails (OMPI_ERR_NOT_AVAILABLE) when
 * UCX can not start, can not give the thread mode asked for, or offers
 * nothing the user allows: ompix serves any transport by default (Open
 * MPI's default lists name InfiniBand devices only), and applies
 * opal_common_ucx_tls and opal_common_ucx_devices when the user set them. */
OMPI_DECLSPEC int mca_common_ompix_ucx_open(mca_common_ompix_ucx_t *ucx, const char *owner,
                                            const mca_common_ompix_ucx_params_t *params);
/* Endpoints are not closed one by one: a flushing close waits for peers
 * that may already have left MPI_Finalize, and UCX 1.13 refuses a forced
 * close on endpoints created without peer error handling; destroying the
 * worker releases them. */
OMPI_DECLSPEC void mca_common_ompix_ucx_close(mca_common_ompix_ucx_t *ucx);

/* Endpoint table: one endpoint per remote process, shared by everything
 * of the component, created on first use from the worker address learned
 * from the process (the component exchanges addresses). */
OMPI_DECLSPEC bool mca_common_ompix_ucx_proc_known(mca_common_ompix_ucx_t *ucx, ompi_proc_t *proc);
OMPI_DECLSPEC int mca_common_ompix_ucx_proc_set_address(mca_common_ompix_ucx_t *ucx,
                                                        ompi_proc_t *proc, const void *addr,
                                                        size_t len);
OMPI_DECLSPEC int mca_common_ompix_ucx_proc_ep(mca_common_ompix_ucx_t *ucx, ompi_proc_t *proc,
                                               ucp_ep_h *ep);
OMPI_DECLSPEC bool mca_common_ompix_ucx_proc_connected(mca_common_ompix_ucx_t *ucx,
                                                       ompi_proc_t *proc);

/* Collective over `comm`, whose processes' addresses are all known: makes
 * the endpoints to every other rank, in an order that never lets two
 * processes connect to each other at the same time, and returns when they
 * exist.  Ranks create and flush their endpoints to the ranks above them
 * first, then (after a barrier) to the ranks below, which find the
 * connection the peer made and take it over.  Left to first use, two
 * processes that both start talking connect simultaneously, or one
 * creates its endpoint inside the callback for the other's first
 * message; UCX 1.13's TCP transport then moves the receive buffer that
 * callback is parsing to the new endpoint (uct_tcp_ep_connect ->
 * uct_tcp_ep_replace_ep) and, on return, releases the emptied buffer
 * (uct_tcp_ep_progress_am_rx: a NULL buffer, a crash) whenever more data
 * followed that message.  The barrier must progress the worker: the
 * component's opal_progress callback has to be registered. */
OMPI_DECLSPEC int mca_common_ompix_ucx_connect_comm(mca_common_ompix_ucx_t *ucx,
                                                    ompi_communicator_t *comm);

/* Waits for a request from a *_nbx call (NULL: done; an error pointer:
 * failed), progressing the worker and, now and then, all of Open MPI. */
static inline int mca_common_ompix_ucx_wait(mca_common_ompix_ucx_t *ucx, ucs_status_ptr_t sp,
                                            const char *what)
{
    return opal_common_ucx_wait_request(sp, ucx->worker, what);
}

/* For operations a later flush completes: releases the request now (UCX
 * keeps it until completion) and reports only immediate failures. */
static inline int mca_common_ompix_ucx_release(ucs_status_ptr_t sp)
{
    if (UCS_PTR_IS_ERR(sp)) {
        return OMPI_ERROR;
    }
    if (NULL != sp) {
        ucp_request_free(sp);
    }
    return OMPI_SUCCESS;
}

/* A non-fetching 8-byte add, waited for only until it has left this
 * process (its buffer is free): lock releases and notifications need no
 * answer, and leaving now keeps them from sitting in our send queue while
 * this process computes outside MPI.  Open MPI 4.1's common/ucx has no
 * posted atomic. */
OMPI_DECLSPEC int mca_common_ompix_ucx_atomic_post(mca_common_ompix_ucx_t *ucx, ucp_ep_h ep,
                                                   uint64_t value, uint64_t addr, ucp_rkey_h rkey);

/* Maps `size` bytes: UCX allocates them (allocate: the only memory
 * same-node peers can reach with ucp_rkey_ptr on UCX 1.13) or registers
 * [addr, addr + size).  *base is where the memory starts: for registered
 * memory always addr, since UCX may hand back the handle of an earlier
 * region that contains it (and starts below addr). */
OMPI_DECLSPEC int mca_common_ompix_ucx_mem_map(mca_common_ompix_ucx_t *ucx, void *addr,
                                               size_t size, bool allocate, ucp_mem_h *memh,
                                               void **base);

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_UCX_H */
