/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Window creation and destruction: memory (UCX-allocated for
 * MPI_Win_allocate, registered for MPI_Win_create), the per-window state
 * block (laid out by osc_rdma2_state.c), the one exchange of addresses and
 * keys, the choice of the accumulate atomicity mechanism, info keys, the
 * module's function table, and MPI_Win_free.
 */
#include "ompi_config.h"

#include <string.h>
#include <unistd.h>

#include "opal/runtime/opal_progress.h"
#include "opal/util/info_subscriber.h"
#include "opal/util/info.h"
#include "opal/util/sys_limits.h"
#include "ompi/mca/osc/base/base.h"
#include "ompi/runtime/mpiruntime.h"
#include "ompi/mca/common/ompix/common_ompix_compat_comm.h"
#include "ompi/mca/common/ompix/common_ompix_compat_info.h"

#include "osc_rdma2_module.h"
#include "osc_rdma2_peer.h"
#include "osc_rdma2_comm.h"
#include "osc_rdma2_accumulate.h"
#include "osc_rdma2_am.h"
#include "osc_rdma2_passive.h"
#include "osc_rdma2_completion.h"
#include "osc_rdma2_active.h"
#include "osc_rdma2_dynamic.h"
#include "osc_rdma2_request.h"
#include "osc_rdma2_exposed.h"
#include "osc_rdma2_overlap.h"
#include "osc_rdma2_notify.h"

static const ompi_osc_base_module_t mca_osc_rdma2_module_template = {
    .osc_win_shared_query = NULL,
    .osc_win_attach = mca_osc_rdma2_attach,
    .osc_win_detach = mca_osc_rdma2_detach,
    .osc_free = mca_osc_rdma2_free,
    .osc_put = mca_osc_rdma2_put,
    .osc_get = mca_osc_rdma2_get,
    .osc_accumulate = mca_osc_rdma2_accumulate,
    .osc_compare_and_swap = mca_osc_rdma2_compare_and_swap,
    .osc_fetch_and_op = mca_osc_rdma2_fetch_and_op,
    .osc_get_accumulate = mca_osc_rdma2_get_accumulate,
    .osc_rput = mca_osc_rdma2_rput,
    .osc_rget = mca_osc_rdma2_rget,
    .osc_raccumulate = mca_osc_rdma2_raccumulate,
    .osc_rget_accumulate = mca_osc_rdma2_rget_accumulate,
    .osc_fence = mca_osc_rdma2_fence,
    .osc_start = mca_osc_rdma2_start,
    .osc_complete = mca_osc_rdma2_complete,
    .osc_post = mca_osc_rdma2_post,
    .osc_wait = mca_osc_rdma2_wait,
    .osc_test = mca_osc_rdma2_test,
    .osc_lock = mca_osc_rdma2_lock,
    .osc_unlock = mca_osc_rdma2_unlock,
    .osc_lock_all = mca_osc_rdma2_lock_all,
    .osc_unlock_all = mca_osc_rdma2_unlock_all,
    .osc_sync = mca_osc_rdma2_sync,
    .osc_flush = mca_osc_rdma2_flush,
    .osc_flush_all = mca_osc_rdma2_flush_all,
    .osc_flush_local = mca_osc_rdma2_flush_local,
    .osc_flush_local_all = mca_osc_rdma2_flush_local_all,
};

/* ---------------------------------------------------------------------- */
/* Component-wide start-up and the progress callback's lifetime           */

/* With the component lock held, after a change of num_modules or
 * loud_modules: while any window exists the progress callback is
 * registered; at Open MPI's normal rate while a window is loud, at its
 * low-priority rate (every 8th opal_progress) while all are quiet, so
 * that an idle rank's polling costs a few instructions per call instead
 * of the callback's tests (opal_progress_register and _register_lp move
 * a callback between the two lists). */
static void mca_osc_rdma2_progress_rate(void)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;
    int want = 0 == c->num_modules ? 0 : 0 == c->loud_modules ? 1 : 2;

    if (want == c->progress_rate) return;
    if (0 == want) {
        opal_progress_unregister(mca_osc_rdma2_progress);
    } else if (1 == want) {
        opal_progress_register_lp(mca_osc_rdma2_progress);
    } else {
        opal_progress_register(mca_osc_rdma2_progress);
    }
    c->progress_rate = want;
}

static int mca_osc_rdma2_module_count_up(void)
{
    int ret;

    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    ret = mca_osc_rdma2_ucx_init();
    if (OMPI_SUCCESS == ret) {
        /* loud until shown quiet (mca_osc_rdma2_module_quiet) */
        ++mca_osc_rdma2_component.loud_modules;
    }
    if (OMPI_SUCCESS == ret) {
        /* While any loud window exists, every opal_progress (a barrier a
         * target sits in, any wait loop of ours) progresses our worker,
         * which serves the operations UCX emulates with active messages. */
        ++mca_osc_rdma2_component.num_modules;
        mca_osc_rdma2_progress_rate();
    }
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    return ret;
}

static void mca_osc_rdma2_module_count_down(bool quiet)
{
    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    if (!quiet) {
        --mca_osc_rdma2_component.loud_modules;
    }
    --mca_osc_rdma2_component.num_modules;
    mca_osc_rdma2_progress_rate();
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
}

/* Element mode (every peer maps every block of ours) and accumulates not
 * forced onto active messages: no peer ever needs our worker to reach us
 * through this window (mca_osc_rdma2_progress). */
static void mca_osc_rdma2_module_quiet(mca_osc_rdma2_module_t *module)
{
    if (MCA_OSC_RDMA2_ACC_ELEMENT != module->acc_mode ||
        MCA_OSC_RDMA2_ACC_PATH_AM == mca_osc_rdma2_component.acc_path) {
        return;
    }
    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    module->quiet = true;
    --mca_osc_rdma2_component.loud_modules;
    mca_osc_rdma2_progress_rate();
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
}

/* ---------------------------------------------------------------------- */
/* Memory                                                                  */

/* Where an allocated window starts in its first page.  UCX returns
 * page-aligned memory, and large malloc()ed buffers start 16 bytes into a
 * page, so a Get into such a buffer copies to 16 bytes past the source
 * modulo 4 KiB; glibc copies of 2 KiB..1 MiB with `rep movsb`, which runs
 * ~18% slower (measured here: 64 KiB Gets 47.6 vs 57 GB/s) when the
 * destination is 1..63 bytes past the source modulo 4 KiB.  Mid-page keeps
 * common buffer alignments (page-aligned, malloc's 16 bytes, small
 * multiples of 64) clear of that case. */
#define MCA_OSC_RDMA2_WIN_PAGE_OFFSET 2048

static int mca_osc_rdma2_map_window(mca_osc_rdma2_module_t *module, void **base, size_t size)
{
    if (MPI_WIN_FLAVOR_DYNAMIC == module->flavor) {
        /* Open MPI passes base = MPI_BOTTOM (NULL) itself: nothing to map. */
        module->base = NULL;
        return OMPI_SUCCESS;
    }
    if (0 == size) {
        /* Nothing to register; MPI_Win_allocate returns NULL. */
        if (MPI_WIN_FLAVOR_ALLOCATE == module->flavor) {
            *base = NULL;
        }
        module->base = *base;
        return OMPI_SUCCESS;
    }
    if (MPI_WIN_FLAVOR_ALLOCATE == module->flavor) {
        /* UCX-allocated memory is the only kind same-node peers can map
         * (ucp_rkey_ptr), which makes access and locks truly passive. */
        void *mem;
        if (OMPI_SUCCESS != mca_common_ompix_ucx_mem_map(MCA_OSC_RDMA2_UCX, NULL,
                                                         size + MCA_OSC_RDMA2_WIN_PAGE_OFFSET, true,
                                                         &module->win_memh, &mem)) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        *base = module->base = (char *) mem + MCA_OSC_RDMA2_WIN_PAGE_OFFSET;
        return OMPI_SUCCESS;
    }
    /* MPI_Win_create: register the user's buffer.  UCX 1.13 serves RMA on
     * it with active messages (correct, but the target must progress). */
    return mca_common_ompix_ucx_mem_map(MCA_OSC_RDMA2_UCX, *base, size, false, &module->win_memh,
                                        &module->base);
}

/* The state block, laid out alike on every rank and zeroed. */
static int mca_osc_rdma2_map_state(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_state_layout_t *layout = &module->layout;
    bool dynamic = MPI_WIN_FLAVOR_DYNAMIC == module->flavor;
    char *base = NULL;
    int ret;

    mca_osc_rdma2_state_layout(layout, module->size_comm, dynamic);
    ret = mca_common_ompix_ucx_mem_map(MCA_OSC_RDMA2_UCX, NULL, layout->size, true,
                                       &module->state_memh, (void **) &base);
    if (OMPI_SUCCESS == ret) {
        memset(base, 0, layout->size);
        module->state = (mca_osc_rdma2_state_t *) base;
        module->posted = (volatile uint64_t *) (base + layout->posted);
        if (dynamic) {
            ret = mca_osc_rdma2_dyn_init_local(
                module, (mca_osc_rdma2_regions_t *) (base + layout->regions));
        }
    }
    return ret;
}

/* ---------------------------------------------------------------------- */
/* The exchange: one allgatherv of every rank's description                */

/* Worker addresses travel, and endpoints are made, only while some rank
 * still lacks an endpoint to someone in the communicator: after the first
 * window on a set of processes, windows exchange just their keys. */
/* What every rank must know before anything is mapped, in one allreduce
 * (a bitwise or): whether some rank lacks an endpoint to another (then
 * worker addresses are exchanged), and whether some rank asked
 * MPI_Win_allocate for more than its node's memory could ever hold.  Such
 * a window fails on every rank at once, with MPI_ERR_NO_MEM and nothing
 * mapped (UCX would fill shared-memory segments until the node runs out),
 * and no rank waits in the exchange for one that gave up. */
/* The node's physical pages, asked once: sysconf(_SC_PHYS_PAGES) is a
 * sysinfo() system call, once per MPI_Win_allocate before. */
static size_t mca_osc_rdma2_phys_pages(void)
{
    static size_t pages;

    if (0 == pages) {
        long n = sysconf(_SC_PHYS_PAGES);
        pages = n > 0 ? (size_t) n : SIZE_MAX;
    }
    return pages;
}

static int mca_osc_rdma2_agree(mca_osc_rdma2_module_t *module, size_t size, int *need)
{
    ompi_communicator_t *comm = module->comm;
    int i, flags = 0, ret;

    for (i = 0; i < module->size_comm && !flags; ++i) {
        if (i != module->my_rank &&
            !mca_common_ompix_ucx_proc_connected(MCA_OSC_RDMA2_UCX,
                                                 ompi_comm_peer_lookup(comm, i))) {
            flags = 1;
        }
    }
    if (MPI_WIN_FLAVOR_ALLOCATE == module->flavor &&
        size / (size_t) opal_getpagesize() >= mca_osc_rdma2_phys_pages()) {
        flags |= 2;
    }
    ret = comm->c_coll->coll_allreduce(MPI_IN_PLACE, &flags, 1, MPI_INT, MPI_BOR, comm,
                                       comm->c_coll->coll_allreduce_module);
    *need = flags & 1;
    if (OMPI_SUCCESS == ret && (flags & 2)) {
        MCA_OSC_RDMA2_VERBOSE(10, "MPI_Win_allocate: a rank asked for more than its node's "
                              "memory (%zu bytes here)", size);
        return MPI_ERR_NO_MEM;
    }
    return ret;
}

typedef struct mca_osc_rdma2_keys_t {
    void *win, *state;
    size_t win_len, state_len;
    ucp_address_t *address;
    size_t address_len;
} mca_osc_rdma2_keys_t;

static void mca_osc_rdma2_keys_release(mca_osc_rdma2_keys_t *k)
{
    if (NULL != k->win) {
        ucp_rkey_buffer_release(k->win);
    }
    if (NULL != k->state) {
        ucp_rkey_buffer_release(k->state);
    }
    if (NULL != k->address) {
        ucp_worker_release_address(MCA_OSC_RDMA2_UCX->worker, k->address);
    }
}

static int mca_osc_rdma2_pack_keys(mca_osc_rdma2_module_t *module, int need_addr,
                                   mca_osc_rdma2_keys_t *k)
{
    int ret = OMPI_SUCCESS;

    memset(k, 0, sizeof(*k));
    if (NULL != module->win_memh) {
        ret = mca_osc_rdma2_ucx_rkey_pack(module->win_memh, &k->win, &k->win_len);
    }
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_ucx_rkey_pack(module->state_memh, &k->state, &k->state_len);
    }
    if (OMPI_SUCCESS == ret && need_addr &&
        UCS_OK != ucp_worker_get_address(MCA_OSC_RDMA2_UCX->worker, &k->address,
                                         &k->address_len)) {
        ret = OMPI_ERROR;
    }
    return ret;
}

static int mca_osc_rdma2_build_wire(mca_osc_rdma2_module_t *module,
                                    const mca_osc_rdma2_keys_t *k, char **out, int *out_len)
{
    mca_osc_rdma2_component_t *c = &mca_osc_rdma2_component;
    mca_osc_rdma2_wire_t w;
    const mca_osc_rdma2_notify_t *n = module->notify;
    size_t len = sizeof(w) + k->address_len + k->win_len + k->state_len + c->pstate_rkey_len +
                 n->rkey_len;
    char *buf, *p;

    memset(&w, 0, sizeof(w));
    w.base = (uint64_t) (uintptr_t) module->base;
    w.size = module->size;
    w.state = (uint64_t) (uintptr_t) module->state;
    w.pstate = (uint64_t) (uintptr_t) c->pstate;
    w.notify = (uint64_t) (uintptr_t) n->slots;
    w.disp_unit = module->disp_unit;
    w.address_len = (uint16_t) k->address_len;
    w.win_rkey_len = (uint16_t) k->win_len;
    w.state_rkey_len = (uint16_t) k->state_len;
    w.pstate_rkey_len = (uint16_t) c->pstate_rkey_len;
    w.notify_rkey_len = (uint16_t) n->rkey_len;
    w.pid = (int32_t) mca_osc_rdma2_component.pid;
    if (len > INT_MAX || k->address_len > UINT16_MAX || k->win_len > UINT16_MAX ||
        k->state_len > UINT16_MAX || c->pstate_rkey_len > UINT16_MAX ||
        n->rkey_len > UINT16_MAX) {
        return OMPI_ERR_BAD_PARAM;
    }
    p = buf = malloc(len);
    if (NULL == buf) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    memcpy(p, &w, sizeof(w));                     p += sizeof(w);
    memcpy(p, k->address, k->address_len);        p += k->address_len;
    memcpy(p, k->win, k->win_len);                p += k->win_len;
    memcpy(p, k->state, k->state_len);            p += k->state_len;
    memcpy(p, c->pstate_rkey, c->pstate_rkey_len); p += c->pstate_rkey_len;
    memcpy(p, n->rkey, n->rkey_len);
    *out = buf;
    *out_len = (int) len;
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_allgather_blob(ompi_communicator_t *comm, const char *mine, int len,
                                 char **blob, int **disps)
{
    int p = ompi_comm_size(comm), i, total = 0, ret;
    int *lens = malloc(p * sizeof(int));

    *blob = NULL;
    *disps = malloc(p * sizeof(int));
    if (NULL == lens || NULL == *disps) {
        free(lens);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ret = comm->c_coll->coll_allgather(&len, 1, MPI_INT, lens, 1, MPI_INT, comm,
                                       comm->c_coll->coll_allgather_module);
    if (OMPI_SUCCESS == ret) {
        for (i = 0; i < p; ++i) {
            (*disps)[i] = total;
            total += lens[i];
        }
        *blob = malloc(total);
        ret = NULL == *blob ? OMPI_ERR_OUT_OF_RESOURCE
            : comm->c_coll->coll_allgatherv((void *) mine, len, MPI_BYTE, *blob, lens, *disps,
                                            MPI_BYTE, comm, comm->c_coll->coll_allgatherv_module);
    }
    free(lens);
    return ret;
}

static int mca_osc_rdma2_learn_addresses(mca_osc_rdma2_module_t *module)
{
    int i, ret;

    for (i = 0; i < module->size_comm; ++i) {
        const mca_osc_rdma2_wire_t *w =
            (const mca_osc_rdma2_wire_t *) (module->blob + module->blob_disps[i]);
        if (i == module->my_rank) {
            continue;
        }
        ret = mca_common_ompix_ucx_proc_set_address(MCA_OSC_RDMA2_UCX,
                                                    ompi_comm_peer_lookup(module->comm, i), w + 1,
                                                    w->address_len);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
    }
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_exchange(mca_osc_rdma2_module_t *module, int need_addr)
{
    mca_osc_rdma2_keys_t keys = { 0 };
    char *mine = NULL;
    int len = 0, ret;

    ret = mca_osc_rdma2_pack_keys(module, need_addr, &keys);
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_build_wire(module, &keys, &mine, &len);
    }
    mca_osc_rdma2_keys_release(&keys);
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_allgather_blob(module->comm, mine, len, &module->blob,
                                           &module->blob_disps);
    }
    free(mine);
    if (OMPI_SUCCESS == ret && need_addr) {
        ret = mca_osc_rdma2_learn_addresses(module);
    }
    /* Endpoints now, in an order, not on first use (see
     * mca_common_ompix_ucx_connect_comm); collective, so entered whatever
     * happened above, as long as the decision was shared. */
    if (need_addr) {
        int cret = mca_common_ompix_ucx_connect_comm(MCA_OSC_RDMA2_UCX, module->comm);
        ret = OMPI_SUCCESS == ret ? cret : ret;
    }
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Accumulate atomicity: element-wise atomics only when every peer is      */
/* reached with direct loads/stores (allocated window, all on one node,    */
/* a transport that maps peer memory); otherwise every accumulate takes    */
/* the target's lock.  All ranks must agree, hence the allreduce (which    */
/* is also the final synchronization of window creation).                  */

static int mca_osc_rdma2_choose_acc_mode(mca_osc_rdma2_module_t *module)
{
    ompi_communicator_t *comm = module->comm;
    mca_osc_rdma2_peer_t *peer;
    int direct = MPI_WIN_FLAVOR_ALLOCATE == module->flavor, i, ret;

    for (i = 0; i < module->size_comm && direct; ++i) {
        ompi_proc_t *proc = ompi_comm_peer_lookup(comm, i);
        direct = OPAL_PROC_ON_LOCAL_NODE(proc->super.proc_flags) || i == module->my_rank;
    }
    if (direct && module->size_comm > 1) {
        /* Probe one neighbour (the same transports serve all same-node
         * peers) and rank 0, whose state block holds the fence meeting line. */
        ret = mca_osc_rdma2_peer(module, (module->my_rank + 1) % module->size_comm, &peer);
        direct = OMPI_SUCCESS == ret && NULL != peer->state.ptr;
        if (direct) {
            ret = mca_osc_rdma2_peer(module, 0, &peer);
            direct = OMPI_SUCCESS == ret && NULL != peer->state.ptr;
        }
    }
    ret = comm->c_coll->coll_allreduce(MPI_IN_PLACE, &direct, 1, MPI_INT, MPI_LAND, comm,
                                       comm->c_coll->coll_allreduce_module);
    module->acc_mode = direct ? MCA_OSC_RDMA2_ACC_ELEMENT : MCA_OSC_RDMA2_ACC_LOCK;
    if (OMPI_SUCCESS == ret && direct && module->size_comm <= MCA_OSC_RDMA2_FENCE_MEET_MAX) {
        ret = mca_osc_rdma2_peer(module, 0, &peer);
        if (OMPI_SUCCESS == ret) {
            module->fence_meet = ((mca_osc_rdma2_state_t *) peer->state.ptr)->fence_meet;
        }
    }
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Info keys                                                               */

static ompix_info_str_t *mca_osc_rdma2_info_no_locks(opal_infosubscriber_t *obj,
                                                     ompix_info_str_t *key, ompix_info_str_t *value)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE((ompi_win_t *) obj);
    (void) key;
    module->no_locks = opal_str_to_bool(value);
    return module->no_locks ? (char *) "true" : (char *) "false";
}

static ompix_info_str_t *mca_osc_rdma2_info_acc_ordering(opal_infosubscriber_t *obj,
                                                         ompix_info_str_t *key,
                                                         ompix_info_str_t *value)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE((ompi_win_t *) obj);
    (void) key;
    /* Our accumulates complete in issue order anyway; remember the hint. */
    module->acc_ordering_none = 0 == strcmp(value, "none");
    return value;
}

static ompix_info_str_t *mca_osc_rdma2_info_acc_ops(opal_infosubscriber_t *obj,
                                                    ompix_info_str_t *key, ompix_info_str_t *value)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE((ompi_win_t *) obj);
    (void) key;
    module->same_op_no_op = 0 == strcmp(value, "same_op_no_op");
    return module->same_op_no_op ? (char *) "same_op_no_op" : (char *) "same_op";
}

static ompix_info_str_t *mca_osc_rdma2_info_echo(opal_infosubscriber_t *obj,
                                                 ompix_info_str_t *key, ompix_info_str_t *value)
{
    (void) obj; (void) key;
    return value;
}

static void mca_osc_rdma2_subscribe_info(struct ompi_win_t *win)
{
    /* The window layer keeps the keys (MPI_Win_get_info); the callbacks
     * record the ones that change what we do, and run again on
     * MPI_Win_set_info. */
    opal_infosubscribe_subscribe(&win->super, "no_locks", "false",
                                 mca_osc_rdma2_info_no_locks);
    opal_infosubscribe_subscribe(&win->super, "accumulate_ordering", "rar,raw,war,waw",
                                 mca_osc_rdma2_info_acc_ordering);
    opal_infosubscribe_subscribe(&win->super, "accumulate_ops", "same_op_no_op",
                                 mca_osc_rdma2_info_acc_ops);
    opal_infosubscribe_subscribe(&win->super, "same_size", "false",
                                 mca_osc_rdma2_info_echo);
    opal_infosubscribe_subscribe(&win->super, "same_disp_unit", "false",
                                 mca_osc_rdma2_info_echo);
}

/* ---------------------------------------------------------------------- */
/* Select and free                                                         */

static void mca_osc_rdma2_module_destroy(mca_osc_rdma2_module_t *module)
{
    ucp_context_h ctx = MCA_OSC_RDMA2_UCX->context;
    bool quiet;
    int i;

    mca_osc_rdma2_mpit_forget(module);

    if (NULL != module->peers) {
        for (i = 0; i < module->size_comm; ++i) {
            if (NULL != module->peers[i]) {
                mca_osc_rdma2_peer_release(module->peers[i]);
            }
        }
        free(module->peers);
    }
    mca_osc_rdma2_overlap_remove_element(module);
    mca_osc_rdma2_exposed_remove(module, NULL);
    mca_osc_rdma2_dyn_release_local(module);
    mca_osc_rdma2_notify_fini(module);
    if (NULL != module->win_memh) {
        ucp_mem_unmap(ctx, module->win_memh);
    }
    if (NULL != module->state_memh) {
        ucp_mem_unmap(ctx, module->state_memh);
    }
    free(module->blob);
    free(module->blob_disps);
    mca_osc_rdma2_sync_fini(&module->sync);
    if (NULL != module->comm) {
        ompi_comm_free(&module->comm);
    }
    quiet = module->quiet;
    free(module);
    mca_osc_rdma2_module_count_down(quiet);
}

int mca_osc_rdma2_window_create(struct ompi_win_t *win, void **base, size_t size, int disp_unit,
                                struct ompi_communicator_t *comm, struct opal_info_t *info,
                                int flavor, int *model)
{
    mca_osc_rdma2_module_t *module;
    char name[MPI_MAX_OBJECT_NAME];
    int ret, need_addr = 0;

    (void) info;  /* read through the subscriptions below */
    if (MPI_WIN_FLAVOR_SHARED == flavor) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    ret = mca_osc_rdma2_module_count_up();
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    module = calloc(1, sizeof(*module));
    if (NULL == module) {
        mca_osc_rdma2_module_count_down(false);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    module->super = mca_osc_rdma2_module_template;
    module->win = win;
    module->flavor = flavor;
    module->size = size;
    module->disp_unit = disp_unit;
    module->size_comm = ompi_comm_size(comm);
    module->my_rank = ompi_comm_rank(comm);

    /* A private communicator keeps our collectives (fence, free) apart
     * from the user's traffic on `comm`. */
    ret = ompi_comm_dup(comm, &module->comm);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_sync_init(&module->sync, module->size_comm);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_agree(module, size, &need_addr);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_map_window(module, base, size);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_map_state(module);
    /* Now, not on first use: an origin can not make its target map it. */
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_notify_init(module);
    /* what active messages may address here (osc_rdma2_exposed.h) */
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_exposed_add(module, module->base, size);
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_exposed_add(module, module->state, module->layout.size);
    }
    if (OMPI_SUCCESS == ret) {
        module->peers = calloc(module->size_comm, sizeof(*module->peers));
        ret = NULL == module->peers ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
    }
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_exchange(module, need_addr);
    /* Set before the probe below: peer set-up reads the module through win. */
    win->w_osc_module = &module->super;
    if (OMPI_SUCCESS == ret && MPI_WIN_FLAVOR_CREATE == flavor) {
        /* before the collective below: nobody reaches our memory through
         * this window until every rank has marked what it overlaps */
        mca_osc_rdma2_overlap_claim(module->base, size);
    }
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_choose_acc_mode(module);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_overlap_add_element(module);
    if (OMPI_SUCCESS == ret) mca_osc_rdma2_module_quiet(module);
    /* Lock mode means some peer reaches us through UCX (the choice is
     * collective, so every rank of the window starts the thread). */
    if (OMPI_SUCCESS == ret &&
        mca_osc_rdma2_thread_wanted(MCA_OSC_RDMA2_ACC_LOCK == module->acc_mode)) {
        OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
        ret = mca_osc_rdma2_thread_start();
        OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    }
    if (OMPI_SUCCESS != ret) {
        win->w_osc_module = NULL;
        mca_osc_rdma2_module_destroy(module);
        return ret;
    }

    *model = MPI_WIN_UNIFIED;
    snprintf(name, sizeof(name), "rdma2 window %d",
             (int) mca_common_ompix_comm_local_cid(module->comm));
    ompi_win_set_name(win, name);
    mca_osc_rdma2_subscribe_info(win);
    MCA_OSC_RDMA2_VERBOSE(10, "window %s: %s, %zu bytes, accumulate by %s", name,
                          MPI_WIN_FLAVOR_ALLOCATE == flavor  ? "allocated"
                          : MPI_WIN_FLAVOR_DYNAMIC == flavor ? "dynamic" : "created",
                          size, MCA_OSC_RDMA2_ACC_ELEMENT == module->acc_mode ? "element atomics"
                                                                              : "target lock");
    return OMPI_SUCCESS;
}

/* MPI_Finalize frees the windows a program left, epochs and all (stock
 * components free them as they are): release what this rank still holds,
 * so no peer's lock word stays taken, and forget an exposure epoch (the
 * origins of its completes are finalizing too).  Otherwise the window
 * would outlive the UCX context and abort in its registration cache. */
static void mca_osc_rdma2_end_epochs(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_sync_t *sync = &module->sync;
    struct ompi_win_t *win = module->win;

    MCA_OSC_RDMA2_VERBOSE(1, "MPI_Finalize: window %s still in an epoch; closing it",
                          win->w_name);
    for (int t = 0; t < module->size_comm && sync->num_locks > 0; ++t) {
        if (mca_osc_rdma2_sync_locked(sync, t)) (void) mca_osc_rdma2_unlock(t, win);
    }
    if (MCA_OSC_RDMA2_SYNC_LOCK_ALL == sync->type) (void) mca_osc_rdma2_unlock_all(win);
    if (MCA_OSC_RDMA2_SYNC_PSCW == sync->type) (void) mca_osc_rdma2_complete(win);
    if (NULL != sync->post_group) {
        OBJ_RELEASE(sync->post_group);
        sync->post_group = NULL;
    }
}

int mca_osc_rdma2_free(struct ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    ompi_communicator_t *comm = module->comm;
    int ret;

    if (mca_osc_rdma2_sync_open(&module->sync) || NULL != module->sync.post_group) {
        if (ompi_mpi_state < OMPI_MPI_STATE_FINALIZE_STARTED) {
            return OMPI_ERR_RMA_SYNC;
        }
        mca_osc_rdma2_end_epochs(module);
    }
    ret = mca_osc_rdma2_complete_window(module);
    /* Requests of accumulates our progress thread finished wait on the
     * done LIFO; our progress callback may be gone after this window. */
    (void) mca_osc_rdma2_request_drain();
    /* Nobody may touch our memory or state after we unmap it. */
    if (OMPI_SUCCESS == ret) {
        ret = comm->c_coll->coll_barrier(comm, comm->c_coll->coll_barrier_module);
    }
    win->w_osc_module = NULL;
    mca_osc_rdma2_module_destroy(module);
    return ret;
}
