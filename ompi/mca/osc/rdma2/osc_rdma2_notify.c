/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Notified RMA (osc_rdma2_api.h, version 2).  Every process maps, with the
 * window, a block of int64_t slots that UCX allocates (so same-node peers
 * map it with ucp_rkey_ptr); its address and packed key travel in the
 * window's exchange.  An origin sets up a target's block at its first
 * notification toward it: mapped -> CPU atomic adds, else posted UCX
 * atomic adds.  The data moves through the window's paths (Put/Get's
 * code); what differs per path is how the add is ordered after it:
 *
 *   read_notify   mapped/CMA: the copy is done on return, then our add;
 *                 UCX: the gets' completion callbacks count down, the
 *                 last one adds (osc_rdma2_request.c: no flush)
 *   put_notify    mapped/CMA: done on return; UCX data: a worker fence
 *                 before a UCX add, an endpoint flush before a CPU add
 *   get_notify    UCX data: an endpoint flush (the data has been read at
 *                 the target only when our get completed), then the add
 *   accumulate_   whatever path the accumulate took, the target's
 *   notify        operations complete first (active messages: their
 *                 acknowledgement), then the add
 */
#include "ompi_config.h"

#include <string.h>
#include <sys/mman.h>

#include "opal/util/sys_limits.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/mca/common/ompix/common_ompix_atomic.h"
#include "ompi/mca/common/ompix/common_ompix_datatype.h"

#include "osc_rdma2_accumulate.h"
#include "osc_rdma2_am.h"
#include "osc_rdma2_comm.h"
#include "osc_rdma2_completion.h"
#include "osc_rdma2_notify.h"
#include "osc_rdma2_exposed.h"
#include "osc_rdma2_path_mapped.h"
#include "osc_rdma2_path_ucx.h"
#include "osc_rdma2_peer.h"
#include "osc_rdma2_request.h"

/* Puts up to this size go with their notification in one active message
 * toward slots reached that way (mca_osc_rdma2_notify_put_note). */
#define MCA_OSC_RDMA2_NOTIFY_NOTE_MAX 8192

/* ---------------------------------------------------------------------- */
/* Our slot block                                                          */

/* Zero without touching pages.  UCX's allocation methods (UCX_ALLOC_PRIO,
 * default md:sysv,md:posix,huge,thp,md:*,mmap,heap) return either a new
 * shared segment (sysv, posix, huge: a new shmget segment or shm file,
 * zero until written) or private anonymous memory (thp and heap come from
 * posix_memalign, which may hand back memory freed earlier, not zeroed;
 * mmap is fresh).  MADV_DONTNEED makes the private anonymous pages read as
 * zero again and leaves the untouched shared ones as they are (zero); the
 * partial pages at the ends are cleared by hand.  So physical memory goes
 * only to the slots that get used. */
static void mca_osc_rdma2_notify_zero(void *p, size_t len)
{
    uintptr_t page = (uintptr_t) opal_getpagesize();
    uintptr_t start = (uintptr_t) p, end = start + len;
    uintptr_t lo = (start + page - 1) & ~(page - 1), hi = end & ~(page - 1);

    if (hi > lo && 0 == madvise((void *) lo, hi - lo, MADV_DONTNEED)) {
        memset(p, 0, lo - start);
        memset((void *) hi, 0, end - hi);
        return;
    }
    memset(p, 0, len);
}

/* The private counters of reads completed in their call (see
 * mca_osc_rdma2_notify_own), mapped anonymously: fresh zero pages, backed
 * only where used.  Not calloc: once glibc has freed one block this large
 * it raises its mmap threshold above it, and every later window's calloc
 * came from the heap and cleared all 512 KiB (65 536 slots) by hand, about
 * 560 000 instructions per MPI_Win_allocate + MPI_Win_free. */
static int mca_osc_rdma2_notify_local_alloc(mca_osc_rdma2_notify_t *n, int num)
{
    size_t len = (size_t) num * sizeof(int64_t);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (MAP_FAILED == p) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    n->local = (int64_t *) p;
    n->local_len = len;
    return OMPI_SUCCESS;
}

static void mca_osc_rdma2_notify_local_free(mca_osc_rdma2_notify_t *n)
{
    if (NULL != n->local) {
        (void) munmap(n->local, n->local_len);
        n->local = NULL;
    }
}

static void mca_osc_rdma2_notify_unmap(mca_osc_rdma2_notify_t *n)
{
    mca_osc_rdma2_exposed_remove(n, NULL);
    if (NULL != n->rkey) {
        ucp_rkey_buffer_release(n->rkey);
        n->rkey = NULL;
    }
    if (NULL != n->memh) {
        ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, n->memh);
        n->memh = NULL;
    }
    mca_osc_rdma2_notify_local_free(n);
    n->slots = NULL;
    n->rkey_len = 0;
}

static int mca_osc_rdma2_notify_map(mca_osc_rdma2_notify_t *n, int num)
{
    size_t len = (size_t) num * sizeof(int64_t);
    void *base = NULL;
    int ret;

    ret = mca_common_ompix_ucx_mem_map(MCA_OSC_RDMA2_UCX, NULL, len, true, &n->memh, &base);
    if (OMPI_SUCCESS != ret) {
        n->memh = NULL;
        return ret;
    }
    mca_osc_rdma2_notify_zero(base, len);
    n->slots = (int64_t *) base;
    n->num = num;
    n->local = NULL;
    if (!mca_osc_rdma2_component.enable_mpi_threads) {
        if (OMPI_SUCCESS != mca_osc_rdma2_notify_local_alloc(n, num)) {
            n->rkey = NULL;
            mca_osc_rdma2_notify_unmap(n);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    ret = mca_osc_rdma2_ucx_rkey_pack(n->memh, &n->rkey, &n->rkey_len);
    if (OMPI_SUCCESS != ret) {
        n->rkey = NULL;
    }
    /* the notes of active messages land here (osc_rdma2_am.c) */
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_exposed_add(n, base, len);
    if (OMPI_SUCCESS != ret) {
        mca_osc_rdma2_notify_unmap(n);
    }
    return ret;
}

int mca_osc_rdma2_notify_init(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_notify_t *n = calloc(1, sizeof(*n));
    int num = mca_osc_rdma2_component.notify_slots;

    if (NULL == n) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    module->notify = n;
    n->peers = calloc(module->size_comm, sizeof(*n->peers));
    if (NULL == n->peers) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return mca_osc_rdma2_notify_map(n, num > 0 ? num : 1);
}

/* Forgets every target's block (their keys), so the next notification
 * sets it up again from the current exchange. */
static void mca_osc_rdma2_notify_drop_peers(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_notify_t *n = module->notify;

    for (int i = 0; i < module->size_comm; ++i) {
        if (NULL != n->peers[i].rkey) {
            ucp_rkey_destroy(n->peers[i].rkey);
        }
        memset(&n->peers[i], 0, sizeof(n->peers[i]));
    }
}

void mca_osc_rdma2_notify_fini(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_notify_t *n = module->notify;

    if (NULL == n) {
        return;
    }
    if (NULL != n->peers) {
        mca_osc_rdma2_notify_drop_peers(module);
        free(n->peers);
    }
    mca_osc_rdma2_notify_unmap(n);
    free(n->blob);
    free(n->blob_disps);
    free(n);
    module->notify = NULL;
}

/* ---------------------------------------------------------------------- */
/* A target's block                                                        */

/* Where rank's block is and its packed key: set_num_notify's exchange,
 * else the window's (mca_osc_rdma2_wire_t, the notify key last). */
static void mca_osc_rdma2_notify_record(mca_osc_rdma2_module_t *module, int rank,
                                        uint64_t *base, const char **key, size_t *len)
{
    mca_osc_rdma2_notify_t *n = module->notify;

    if (NULL != n->blob) {
        const mca_osc_rdma2_notify_wire_t *nw =
            (const mca_osc_rdma2_notify_wire_t *) (n->blob + n->blob_disps[rank]);
        *base = nw->base;
        *key = (const char *) (nw + 1);
        *len = nw->rkey_len;
    } else {
        const mca_osc_rdma2_wire_t *w =
            (const mca_osc_rdma2_wire_t *) (module->blob + module->blob_disps[rank]);
        *base = w->notify;
        *key = (const char *) (w + 1) + w->address_len + w->win_rkey_len + w->state_rkey_len +
               w->pstate_rkey_len;
        *len = w->notify_rkey_len;
    }
}

static int mca_osc_rdma2_notify_peer_setup(mca_osc_rdma2_module_t *module,
                                           mca_osc_rdma2_peer_t *peer,
                                           mca_osc_rdma2_notify_peer_t *np)
{
    const char *key;
    char *ptr = NULL;
    size_t len;
    int ret = OMPI_SUCCESS;

    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    if (np->ready) {                /* another thread won */
        OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
        return OMPI_SUCCESS;
    }
    if (peer->rank == module->my_rank) {
        np->ptr = module->notify->slots;
        np->base = (uint64_t) (uintptr_t) module->notify->slots;
    } else {
        mca_osc_rdma2_notify_record(module, peer->rank, &np->base, &key, &len);
        ret = mca_osc_rdma2_peer_unpack(peer, key, len, np->base, &np->rkey, &ptr);
        np->ptr = (int64_t *) ptr;
    }
    if (OMPI_SUCCESS == ret) {
        MCA_OSC_RDMA2_VERBOSE(20, "peer %d: notification slots %s", peer->rank,
                              NULL != np->ptr ? "mapped" : "through UCX");
        opal_atomic_wmb();
        np->ready = true;
    }
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    return ret;
}

/* The target's slot id, as the target addresses it (active messages,
 * UCX atomics). */
static inline uint64_t mca_osc_rdma2_notify_remote_slot(const mca_osc_rdma2_notify_peer_t *np,
                                                        int id)
{
    return np->base + (uint64_t) id * sizeof(int64_t);
}

static inline int mca_osc_rdma2_notify_peer(mca_osc_rdma2_module_t *module,
                                            mca_osc_rdma2_peer_t *peer,
                                            mca_osc_rdma2_notify_peer_t **np)
{
    *np = &module->notify->peers[peer->rank];
    if (OPAL_LIKELY((*np)->ready)) {
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_notify_peer_setup(module, peer, *np);
}

/* Adds 1 to the target's slot id after what this rank issued to it:
 * data_ucx says the operation's data went through UCX and may still be on
 * its way (anything else is complete at the target already). */
static int mca_osc_rdma2_notify_target(mca_osc_rdma2_module_t *module,
                                       mca_osc_rdma2_peer_t *peer, int id, bool data_ucx)
{
    mca_osc_rdma2_notify_peer_t *np;
    int ret = mca_osc_rdma2_notify_peer(module, peer, &np);

    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (NULL != np->ptr) {
        /* A CPU add does not wait behind UCX operations: complete them. */
        if (data_ucx) {
            ret = mca_osc_rdma2_complete_peer(peer);
        }
        if (OMPI_SUCCESS == ret) {
            mca_common_ompix_atomic_add_rel_64((volatile uint64_t *) &np->ptr[id], 1);
        }
        return ret;
    }
    /* UCX orders the puts issued before a worker fence before the atomic
     * or message issued after it (as lock releases and PSCW complete rely
     * on, see mca_osc_rdma2_complete_before_release): no round trip. */
    if (data_ucx) {
        ret = mca_osc_rdma2_ucx_fence();
    }
    if (OMPI_SUCCESS == ret && mca_osc_rdma2_am_note_path(peer)) {
        /* Slots UCX only emulates atomics on (TCP): one one-way message
         * the target's handler turns into the add, instead of an emulated
         * atomic (a message and its answer). */
        return mca_osc_rdma2_am_note(peer, mca_osc_rdma2_notify_remote_slot(np, id), 0, NULL,
                                     0, NULL, 0);
    }
    if (OMPI_SUCCESS == ret) {
        module->sync.posts_pending = true;  /* MPI_Win_free waits for it to land */
        ret = mca_common_ompix_ucx_atomic_post(MCA_OSC_RDMA2_UCX, peer->ep, 1,
                                               mca_osc_rdma2_notify_remote_slot(np, id),
                                               np->rkey);
        /* The notification is part of the operation: flush, unlock, fence
         * and complete make it land, as they do the data. */
        mca_osc_rdma2_completion_issued(peer);
    }
    return ret;
}

/* ---------------------------------------------------------------------- */
/* The operations                                                          */

/* Open MPI files a failed allocation under MPI_ERR_INTERN; the user
 * can act on MPI_ERR_NO_MEM (a smaller set_num_notify). */
static inline int mca_osc_rdma2_notify_class(int ret)
{
    if (OPAL_LIKELY(OMPI_SUCCESS == ret)) {
        return MPI_SUCCESS;
    }
    return OMPI_ERR_OUT_OF_RESOURCE == ret ? MPI_ERR_NO_MEM : ompi_errcode_get_mpi_code(ret);
}

int mca_osc_rdma2_notify_slots(MPI_Win win, int64_t **slots, int64_t **local, int *num)
{
    mca_osc_rdma2_notify_t *n = MCA_OSC_RDMA2_MODULE(win)->notify;

    *slots = n->slots;
    *local = n->local;
    *num = n->num;
    return MPI_SUCCESS;
}

/* Our own read notification, its data copied in the call.  A locked add
 * right after a 4 KiB copy waits until the copy's stores have left the
 * store buffer, i.e. until the whole copy is done, where the next
 * operation could overlap its tail: a read pipeline on shared memory ran
 * at 0.84-0.92x of MPI_Rget + MPI_Waitany (osc sm, whose single-threaded
 * request completion is a plain store) for it.  Without
 * MPI_THREAD_MULTIPLE only this process's MPI calls touch `local`, one at
 * a time: a plain increment (osc_rdma2_api.h: notify_slots). */
static inline void mca_osc_rdma2_notify_own(mca_osc_rdma2_notify_t *n, int id)
{
    if (OPAL_LIKELY(NULL != n->local)) {
        volatile int64_t *l = &n->local[id];
        *l = *l + 1;
        return;
    }
    mca_common_ompix_atomic_add_rel_64((volatile uint64_t *) &n->slots[id], 1);
}

/* The Get through UCX: the pieces count down in a request-list object
 * whose last piece increments our slot from its completion callback. */
static int mca_osc_rdma2_notify_read_ucx(mca_osc_rdma2_peer_t *peer,
                                         const mca_osc_rdma2_win_mem_t *mem, int64_t *slot,
                                         void *origin_addr, int origin_count,
                                         MPI_Datatype origin_type, uint64_t raddr,
                                         int target_count, MPI_Datatype target_type)
{
    mca_osc_rdma2_request_t *req = mca_osc_rdma2_request_notify_new(slot);
    int ret;

    if (NULL == req) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ret = mca_osc_rdma2_xfer_req(peer, mem, false, req, origin_addr, origin_count, origin_type,
                                 raddr, target_count, target_type);
    return mca_osc_rdma2_request_notify_issued(req, ret);
}

/* read_notify past its fast path: any datatype, target and path. */
static __opal_attribute_noinline__ int
mca_osc_rdma2_notify_read_general(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                                  int target_rank, MPI_Aint target_disp, int target_count,
                                  MPI_Datatype target_type, int id, MPI_Win win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    int64_t *slot = &module->notify->slots[id];
    const mca_osc_rdma2_win_mem_t *mem;
    mca_osc_rdma2_peer_t *peer;
    uint64_t raddr;
    int ret;

    ret = mca_osc_rdma2_prepare(module, target_rank, origin_count, origin_type, target_disp,
                                target_count, target_type, &peer, &mem, &raddr);
    if (OMPI_SUCCESS != ret) {
        return mca_osc_rdma2_notify_class(ret);
    }
    if (0 != target_count && mca_osc_rdma2_bad_buffer(origin_addr, origin_count, origin_type)) {
        return MPI_ERR_BUFFER;
    }
    if (0 != target_count && &mca_osc_rdma2_win_path_ucx == mem->path) {
        return mca_osc_rdma2_notify_class(mca_osc_rdma2_notify_read_ucx(
            peer, mem, slot, origin_addr, origin_count, origin_type, raddr, target_count,
            target_type));
    }
    /* mapped or CMA: the copy is complete on return */
    if (0 != target_count) {
        ret = mca_osc_rdma2_xfer(peer, mem, false, origin_addr, origin_count, origin_type, raddr,
                                 target_count, target_type);
    }
    if (OMPI_SUCCESS == ret) {
        mca_osc_rdma2_notify_own(module->notify, id);
    }
    return mca_osc_rdma2_notify_class(ret);
}

/* The fast path (Put/Get's: one predefined type to a mapped target) is a
 * copy and our add in a function of its own, so that a pipeline of small
 * reads does not pay for the general path's frame: a read of 4 KiB from a
 * same-node peer is this, memcpy and the atomic. */
int mca_osc_rdma2_notify_read(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                              int target_rank, MPI_Aint target_disp, int target_count,
                              MPI_Datatype target_type, int id, MPI_Win win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    size_t len;
    char *p;

    if (OPAL_UNLIKELY((unsigned) id >= (unsigned) module->notify->num)) {   /* < 0 too */
        return MPI_ERR_ARG;
    }
    p = mca_osc_rdma2_rdma_fast_target(module, target_rank, origin_type, origin_count,
                                       target_type, target_count, target_disp, &len);
    if (OPAL_UNLIKELY(NULL == p || NULL == origin_addr)) {
        return mca_osc_rdma2_notify_read_general(origin_addr, origin_count, origin_type,
                                                 target_rank, target_disp, target_count,
                                                 target_type, id, win);
    }
    mca_osc_rdma2_mapped_copy(origin_addr, p, len);
    mca_osc_rdma2_notify_own(module->notify, id);
    return MPI_SUCCESS;
}

/* A small put toward slots reached by active messages (TCP): data and
 * notification in one one-way message, which the target's handler copies
 * into the window before it adds (osc_rdma2_am.c:mca_osc_rdma2_am_note),
 * instead of a put (CMA, or UCX's emulation: a message and its
 * acknowledgement) and a notification.  Larger puts are copied into the
 * message at a cost the separate put does not have.  OMPI_ERR_NOT_SUPPORTED:
 * not this path. */
static int mca_osc_rdma2_notify_put_note(mca_osc_rdma2_module_t *module,
                                         mca_osc_rdma2_peer_t *peer, const void *origin_addr,
                                         int origin_count, MPI_Datatype origin_type,
                                         uint64_t raddr, int target_count,
                                         MPI_Datatype target_type, int id)
{
    mca_osc_rdma2_notify_peer_t *np;
    ptrdiff_t lb;
    size_t len;
    int ret;

    if (!mca_osc_rdma2_am_note_path(peer)) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    ompi_datatype_type_size(target_type, &len);
    len *= (size_t) target_count;
    if (len > MCA_OSC_RDMA2_NOTIFY_NOTE_MAX ||
        !mca_common_ompix_datatype_contiguous(target_type, target_count, &lb)) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    ret = mca_osc_rdma2_notify_peer(module, peer, &np);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (NULL != np->ptr) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    return mca_osc_rdma2_am_note(peer, mca_osc_rdma2_notify_remote_slot(np, id),
                                 raddr + (uint64_t) lb, origin_addr, origin_count, origin_type,
                                 len);
}

/* Put_notify and Get_notify: the transfer, then the target's add. */
static int mca_osc_rdma2_notify_rdma(bool is_put, void *origin_addr, int origin_count,
                                     MPI_Datatype origin_type, int target_rank,
                                     MPI_Aint target_disp, int target_count,
                                     MPI_Datatype target_type, int id, MPI_Win win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    const mca_osc_rdma2_win_mem_t *mem;
    mca_osc_rdma2_notify_peer_t *np;
    mca_osc_rdma2_peer_t *peer;
    bool data_ucx;
    uint64_t raddr;
    size_t len;
    char *p;
    int ret;

    if ((unsigned) id >= (unsigned) module->notify->num) {     /* < 0 too */
        return MPI_ERR_ARG;
    }
    np = &module->notify->peers[target_rank];
    p = np->ready && NULL != np->ptr && NULL != origin_addr
        ? mca_osc_rdma2_rdma_fast_target(module, target_rank, origin_type, origin_count,
                                         target_type, target_count, target_disp, &len)
        : NULL;
    if (NULL != p) {
        /* mapped data and mapped slots: a copy and a CPU add */
        if (is_put) {
            mca_osc_rdma2_mapped_copy(p, origin_addr, len);
        } else {
            mca_osc_rdma2_mapped_copy(origin_addr, p, len);
        }
        mca_common_ompix_atomic_add_rel_64((volatile uint64_t *) &np->ptr[id], 1);
        return MPI_SUCCESS;
    }
    ret = mca_osc_rdma2_prepare(module, target_rank, origin_count, origin_type, target_disp,
                                target_count, target_type, &peer, &mem, &raddr);
    if (OMPI_SUCCESS != ret) {
        return mca_osc_rdma2_notify_class(ret);
    }
    if (0 != target_count && mca_osc_rdma2_bad_buffer(origin_addr, origin_count, origin_type)) {
        return MPI_ERR_BUFFER;
    }
    if (is_put && 0 != target_count) {
        ret = mca_osc_rdma2_notify_put_note(module, peer, origin_addr, origin_count, origin_type,
                                            raddr, target_count, target_type, id);
        if (OMPI_ERR_NOT_SUPPORTED != ret) {
            return mca_osc_rdma2_notify_class(ret);
        }
        ret = OMPI_SUCCESS;
    }
    data_ucx = 0 != target_count && &mca_osc_rdma2_win_path_ucx == mem->path;
    if (0 != target_count) {
        ret = mca_osc_rdma2_xfer(peer, mem, is_put, origin_addr, origin_count, origin_type, raddr,
                                 target_count, target_type);
    }
    /* A get has read the target's memory only once it completed: no
     * fence orders that before the add. */
    if (OMPI_SUCCESS == ret && data_ucx && !is_put) {
        ret = mca_osc_rdma2_complete_peer(peer);
        data_ucx = false;
    }
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_notify_target(module, peer, id, data_ucx);
    }
    return mca_osc_rdma2_notify_class(ret);
}

int mca_osc_rdma2_notify_put(const void *origin_addr, int origin_count, MPI_Datatype origin_type,
                             int target_rank, MPI_Aint target_disp, int target_count,
                             MPI_Datatype target_type, int id, MPI_Win win)
{
    return mca_osc_rdma2_notify_rdma(true, (void *) origin_addr, origin_count, origin_type,
                                     target_rank, target_disp, target_count, target_type, id,
                                     win);
}

int mca_osc_rdma2_notify_get(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                             int target_rank, MPI_Aint target_disp, int target_count,
                             MPI_Datatype target_type, int id, MPI_Win win)
{
    return mca_osc_rdma2_notify_rdma(false, origin_addr, origin_count, origin_type, target_rank,
                                     target_disp, target_count, target_type, id, win);
}

/* Whichever mechanism the accumulate took (element atomics, the target's
 * lock, an active message), its effect is visible at the target once
 * this rank's operations to it are complete: active messages once
 * acknowledged, request-based machines once finished.  Where it already
 * is (atomics, the lock path) that costs two loads.  Toward a peer that
 * applies our accumulates from its queue (TCP), the add is queued behind
 * them instead (osc_rdma2_am.c:mca_osc_rdma2_am_note_queued): no round
 * trip in the call. */
/* After an accumulate or get_accumulate toward target_rank was issued
 * (ret): its notification, once the target applied it. */
static int mca_osc_rdma2_notify_acc_done(mca_osc_rdma2_module_t *module, int ret,
                                         int target_rank, int id)
{
    mca_osc_rdma2_peer_t *peer;

    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_peer(module, target_rank, &peer);
    }
    if (OMPI_SUCCESS == ret && mca_osc_rdma2_am_note_path(peer)) {
        /* Toward a peer that applies our accumulates itself (TCP): the add
         * goes into its queue behind them, no wait for their answers. */
        mca_osc_rdma2_notify_peer_t *np;
        ret = mca_osc_rdma2_notify_peer(module, peer, &np);
        if (OMPI_SUCCESS == ret && NULL == np->ptr) {
            return mca_osc_rdma2_notify_class(mca_osc_rdma2_am_note_queued(
                peer, mca_osc_rdma2_notify_remote_slot(np, id)));
        }
    }
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_complete_peer_inline(peer);
    }
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_notify_target(module, peer, id, false);
    }
    return mca_osc_rdma2_notify_class(ret);
}

int mca_osc_rdma2_notify_accumulate(const void *origin_addr, int origin_count,
                                    MPI_Datatype origin_type, int target_rank,
                                    MPI_Aint target_disp, int target_count,
                                    MPI_Datatype target_type, MPI_Op op, int id, MPI_Win win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    int ret;

    if ((unsigned) id >= (unsigned) module->notify->num) {     /* < 0 too */
        return MPI_ERR_ARG;
    }
    ret = mca_osc_rdma2_accumulate(origin_addr, origin_count, origin_type, target_rank,
                                   target_disp, target_count, target_type, op, win);
    return mca_osc_rdma2_notify_acc_done(module, ret, target_rank, id);
}

/* As accumulate_notify: the target applies a get_accumulate in the same
 * order and completes it the same way (its result travels back before the
 * acknowledgement that complete_peer_inline waits for). */
int mca_osc_rdma2_notify_get_accumulate(const void *origin_addr, int origin_count,
                                        MPI_Datatype origin_type, void *result_addr,
                                        int result_count, MPI_Datatype result_type,
                                        int target_rank, MPI_Aint target_disp,
                                        int target_count, MPI_Datatype target_type, MPI_Op op,
                                        int id, MPI_Win win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    int ret;

    if ((unsigned) id >= (unsigned) module->notify->num) {     /* < 0 too */
        return MPI_ERR_ARG;
    }
    ret = mca_osc_rdma2_get_accumulate(origin_addr, origin_count, origin_type, result_addr,
                                       result_count, result_type, target_rank, target_disp,
                                       target_count, target_type, op, win);
    return mca_osc_rdma2_notify_acc_done(module, ret, target_rank, id);
}

/* ---------------------------------------------------------------------- */
/* set_num_notify                                                          */

static int mca_osc_rdma2_notify_exchange(mca_osc_rdma2_module_t *module, int ok)
{
    mca_osc_rdma2_notify_t *n = module->notify;
    mca_osc_rdma2_notify_wire_t *mine;
    size_t len = sizeof(*mine) + n->rkey_len;
    int ret;

    mine = calloc(1, len);
    if (NULL == mine) {
        return OMPI_ERR_OUT_OF_RESOURCE;    /* a rank that can not enter: fatal anyway */
    }
    mine->base = (uint64_t) (uintptr_t) n->slots;
    mine->rkey_len = (uint32_t) n->rkey_len;
    mine->ok = ok;
    if (n->rkey_len > 0) {
        memcpy(mine + 1, n->rkey, n->rkey_len);
    }
    free(n->blob);
    free(n->blob_disps);
    n->blob = NULL;
    n->blob_disps = NULL;
    ret = mca_osc_rdma2_allgather_blob(module->comm, (char *) mine, (int) len, &n->blob,
                                       &n->blob_disps);
    free(mine);
    for (int i = 0; OMPI_SUCCESS == ret && i < module->size_comm; ++i) {
        if (!((const mca_osc_rdma2_notify_wire_t *) (n->blob + n->blob_disps[i]))->ok) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;     /* some rank has no block */
        }
    }
    return ret;
}

/* Collective.  The flush and the barrier make sure that no notification
 * of anyone's is still on its way to an old block when its owner unmaps
 * it; the allgather that publishes the new blocks returns only after
 * every rank mapped its own, so no notification issued afterwards reaches
 * an old block either. */
int mca_osc_rdma2_notify_set_num(MPI_Win win, int num)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_notify_t *n = module->notify;
    ompi_communicator_t *comm = module->comm;
    int ret, bret, ok;

    ret = mca_osc_rdma2_complete_window(module);
    (void) mca_osc_rdma2_request_drain();
    bret = comm->c_coll->coll_barrier(comm, comm->c_coll->coll_barrier_module);
    ret = OMPI_SUCCESS == ret ? bret : ret;
    mca_osc_rdma2_notify_drop_peers(module);
    mca_osc_rdma2_notify_unmap(n);
    ok = OMPI_SUCCESS == mca_osc_rdma2_notify_map(n, num);
    bret = mca_osc_rdma2_notify_exchange(module, ok);
    ret = OMPI_SUCCESS == ret ? bret : ret;
    if (OMPI_SUCCESS != ret) {
        n->num = 0;                 /* no usable blocks: every id is out of range */
    }
    return mca_osc_rdma2_notify_class(ret);
}
