/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The CMA path: window memory of a same-node peer that UCX can not map
 * (MPI_Win_create buffers and attached regions, which UCX 1.13 serves with
 * active messages; allocated windows when UCX has no shared-memory
 * transport), copied with process_vm_readv/writev to the pid from the
 * peer's record.  The copies are synchronous, so complete on return, and
 * need nothing from the target.  CMA has no atomics: those go through
 * UCX.
 */
#include "ompi_config.h"

#include <errno.h>
#include <string.h>
#if defined(__linux__)
#include <sys/uio.h>
#endif

#include "osc_rdma2_component.h"
#include "osc_rdma2_path_ucx.h"
#include "osc_rdma2_peer.h"

/* One contiguous copy; Linux only (elsewhere peers never take this path). */
static int mca_osc_rdma2_cma_copy(mca_osc_rdma2_peer_t *peer, bool is_put, void *local,
                                  uint64_t raddr, size_t len)
{
#if defined(__linux__)
    while (len > 0) {
        struct iovec l = { .iov_base = local, .iov_len = len };
        struct iovec r = { .iov_base = (void *) (uintptr_t) raddr, .iov_len = len };
        ssize_t n = is_put ? process_vm_writev(peer->pid, &l, 1, &r, 1, 0)
                           : process_vm_readv(peer->pid, &l, 1, &r, 1, 0);
        if (n <= 0) {
            if (n < 0 && EINTR == errno) continue;
            MCA_OSC_RDMA2_VERBOSE(1, "cross-memory %s of %zu bytes with rank %d failed: %s",
                                  is_put ? "write" : "read", len, peer->rank, strerror(errno));
            return OMPI_ERROR;
        }
        local = (char *) local + n;
        raddr += (uint64_t) n;
        len -= (size_t) n;
    }
    return OMPI_SUCCESS;
#else
    (void) peer; (void) is_put; (void) local; (void) raddr; (void) len;
    return OMPI_ERR_NOT_SUPPORTED;
#endif
}

static int mca_osc_rdma2_cma_put(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                                 struct mca_osc_rdma2_request_t *req, const void *local,
                                 uint64_t raddr, size_t len)
{
    (void) mem; (void) req;
    return mca_osc_rdma2_cma_copy(peer, true, (void *) local, raddr, len);
}

static int mca_osc_rdma2_cma_get(mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                                 struct mca_osc_rdma2_request_t *req, void *local, uint64_t raddr,
                                 size_t len)
{
    (void) mem; (void) req;
    return mca_osc_rdma2_cma_copy(peer, false, local, raddr, len);
}

static char *mca_osc_rdma2_cma_direct(const mca_osc_rdma2_win_mem_t *mem, uint64_t raddr)
{
    (void) mem; (void) raddr;
    return NULL;
}

const mca_osc_rdma2_win_path_t mca_osc_rdma2_win_path_cma = {
    .name = "through CMA",
    .put = mca_osc_rdma2_cma_put,
    .get = mca_osc_rdma2_cma_get,
    .fetch_op = mca_osc_rdma2_ucx_fetch_op,
    .load = mca_osc_rdma2_ucx_load,
    .cswap = mca_osc_rdma2_ucx_cswap,
    .direct = mca_osc_rdma2_cma_direct,
};

/* Can we read the peer's memory (ptrace policy, containers)?  Reads one
 * byte of its state block, which always exists. */
bool mca_osc_rdma2_cma_probe(mca_osc_rdma2_peer_t *peer)
{
#if defined(__linux__)
    char byte;
    struct iovec l = { .iov_base = &byte, .iov_len = 1 };
    struct iovec r = { .iov_base = (void *) (uintptr_t) peer->state.base, .iov_len = 1 };
    return 1 == process_vm_readv(peer->pid, &l, 1, &r, 1, 0);
#else
    (void) peer;
    return false;
#endif
}
