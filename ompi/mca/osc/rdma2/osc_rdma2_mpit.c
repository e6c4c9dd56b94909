/*
 * Copyright (c) 2026 The ompix developers.
 *
 * osc/rdma2's MPI_T performance variables, each bound to a window
 * (MCA_BASE_VAR_BIND_MPI_WIN): operations and bytes per path to the
 * target's memory, emulated atomics, lock waits.
 *
 * Counting costs nothing while nobody looks: binding the first handle to
 * a window puts counting wrappers into its module's function table (the
 * one MPI_Put and friends call through) and freeing the last puts the
 * component's functions back, so a window without handles runs the same
 * instructions as before.  MPI_T reports a counter's handle relative to
 * its creation, so counts from before the first handle are not missed.
 * Lock waits are counted where a lock was busy (a backoff), always.
 */
#include "ompi_config.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/common/ompix/common_ompix_mpit.h"

#include "osc_rdma2_accumulate.h"
#include "osc_rdma2_comm.h"
#include "osc_rdma2_module.h"
#include "osc_rdma2_mpit.h"
#include "osc_rdma2_peer.h"
#include "osc_rdma2_request.h"

static int mca_osc_rdma2_mpit_path(const mca_osc_rdma2_peer_t *peer)
{
    if (&mca_osc_rdma2_win_path_mapped == peer->win.path) {
        return MCA_OSC_RDMA2_MPIT_MAPPED;
    }
    return &mca_osc_rdma2_win_path_cma == peer->win.path ? MCA_OSC_RDMA2_MPIT_CMA
                                                           : MCA_OSC_RDMA2_MPIT_UCX;
}

/* One operation the component accepted: count elements of dt at target's
 * window memory.  An accumulate-family operation is emulated when it does
 * not run as element atomics: in lock mode, or toward a target that
 * mixes modes, it goes by active messages or under the target's lock. */
static void mca_osc_rdma2_mpit_count(ompi_win_t *win, int target, int count,
                                     ompi_datatype_t *dt, bool acc)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_peer_t *peer;
    size_t size = 0;
    int p;

    if (target < 0 || target >= module->size_comm || NULL == (peer = module->peers[target])) {
        return;                          /* MPI_PROC_NULL */
    }
    p = mca_osc_rdma2_mpit_path(peer);
    (void) ompi_datatype_type_size(dt, &size);
    opal_atomic_add_fetch_64(&module->mpit.ops[p], 1);
    opal_atomic_add_fetch_64(&module->mpit.bytes[p], (int64_t) (size * (size_t) count));
    if (acc && (MCA_OSC_RDMA2_ACC_LOCK == module->acc_mode || mca_osc_rdma2_peer_mixed(peer))) {
        opal_atomic_add_fetch_64(&module->mpit.emulated, 1);
    }
}

/* ---------------------------------------------------------------------- */
/* Counting wrappers: the component's function, then the count            */

#define MCA_OSC_RDMA2_MPIT_COUNTED(call, win, target, count, dt, acc)             \
    do {                                                                          \
        int ret_ = (call);                                                        \
        if (OMPI_SUCCESS == ret_) {                                               \
            mca_osc_rdma2_mpit_count((win), (target), (count), (dt), (acc));      \
        }                                                                         \
        return ret_;                                                              \
    } while (0)

static int mca_osc_rdma2_mpit_put(const void *o, int oc, ompi_datatype_t *odt, int t,
                                  ptrdiff_t disp, int tc, ompi_datatype_t *tdt, ompi_win_t *win)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_put(o, oc, odt, t, disp, tc, tdt, win), win, t, tc,
                               tdt, false);
}

static int mca_osc_rdma2_mpit_get(void *o, int oc, ompi_datatype_t *odt, int t, ptrdiff_t disp,
                                  int tc, ompi_datatype_t *tdt, ompi_win_t *win)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_get(o, oc, odt, t, disp, tc, tdt, win), win, t, tc,
                               tdt, false);
}

static int mca_osc_rdma2_mpit_acc(const void *o, int oc, ompi_datatype_t *odt, int t,
                                  ptrdiff_t disp, int tc, ompi_datatype_t *tdt, ompi_op_t *op,
                                  ompi_win_t *win)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_accumulate(o, oc, odt, t, disp, tc, tdt, op, win),
                               win, t, tc, tdt, true);
}

static int mca_osc_rdma2_mpit_get_acc(const void *o, int oc, ompi_datatype_t *odt, void *r,
                                      int rc, ompi_datatype_t *rdt, int t, ptrdiff_t disp, int tc,
                                      ompi_datatype_t *tdt, ompi_op_t *op, ompi_win_t *win)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_get_accumulate(o, oc, odt, r, rc, rdt, t, disp, tc,
                                                            tdt, op, win),
                               win, t, tc, tdt, true);
}

static int mca_osc_rdma2_mpit_fop(const void *o, void *r, ompi_datatype_t *dt, int t,
                                  ptrdiff_t disp, ompi_op_t *op, ompi_win_t *win)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_fetch_and_op(o, r, dt, t, disp, op, win), win, t, 1,
                               dt, true);
}

static int mca_osc_rdma2_mpit_cas(const void *o, const void *c, void *r, ompi_datatype_t *dt,
                                  int t, ptrdiff_t disp, ompi_win_t *win)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_compare_and_swap(o, c, r, dt, t, disp, win), win, t,
                               1, dt, true);
}

static int mca_osc_rdma2_mpit_rput(const void *o, int oc, ompi_datatype_t *odt, int t,
                                   ptrdiff_t disp, int tc, ompi_datatype_t *tdt, ompi_win_t *win,
                                   ompi_request_t **req)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_rput(o, oc, odt, t, disp, tc, tdt, win, req), win, t,
                               tc, tdt, false);
}

static int mca_osc_rdma2_mpit_rget(void *o, int oc, ompi_datatype_t *odt, int t, ptrdiff_t disp,
                                   int tc, ompi_datatype_t *tdt, ompi_win_t *win,
                                   ompi_request_t **req)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_rget(o, oc, odt, t, disp, tc, tdt, win, req), win, t,
                               tc, tdt, false);
}

static int mca_osc_rdma2_mpit_racc(const void *o, int oc, ompi_datatype_t *odt, int t,
                                   ptrdiff_t disp, int tc, ompi_datatype_t *tdt, ompi_op_t *op,
                                   ompi_win_t *win, ompi_request_t **req)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_raccumulate(o, oc, odt, t, disp, tc, tdt, op, win,
                                                         req),
                               win, t, tc, tdt, true);
}

static int mca_osc_rdma2_mpit_rget_acc(const void *o, int oc, ompi_datatype_t *odt, void *r,
                                       int rc, ompi_datatype_t *rdt, int t, ptrdiff_t disp,
                                       int tc, ompi_datatype_t *tdt, ompi_op_t *op,
                                       ompi_win_t *win, ompi_request_t **req)
{
    MCA_OSC_RDMA2_MPIT_COUNTED(mca_osc_rdma2_rget_accumulate(o, oc, odt, r, rc, rdt, t, disp, tc,
                                                             tdt, op, win, req),
                               win, t, tc, tdt, true);
}

/* Counting on (wrappers) or off (the component's own functions). */
static void mca_osc_rdma2_mpit_wrap(mca_osc_rdma2_module_t *module, bool on)
{
    ompi_osc_base_module_t *m = &module->super;

    m->osc_put = on ? mca_osc_rdma2_mpit_put : mca_osc_rdma2_put;
    m->osc_get = on ? mca_osc_rdma2_mpit_get : mca_osc_rdma2_get;
    m->osc_accumulate = on ? mca_osc_rdma2_mpit_acc : mca_osc_rdma2_accumulate;
    m->osc_get_accumulate = on ? mca_osc_rdma2_mpit_get_acc : mca_osc_rdma2_get_accumulate;
    m->osc_fetch_and_op = on ? mca_osc_rdma2_mpit_fop : mca_osc_rdma2_fetch_and_op;
    m->osc_compare_and_swap = on ? mca_osc_rdma2_mpit_cas : mca_osc_rdma2_compare_and_swap;
    m->osc_rput = on ? mca_osc_rdma2_mpit_rput : mca_osc_rdma2_rput;
    m->osc_rget = on ? mca_osc_rdma2_mpit_rget : mca_osc_rdma2_rget;
    m->osc_raccumulate = on ? mca_osc_rdma2_mpit_racc : mca_osc_rdma2_raccumulate;
    m->osc_rget_accumulate = on ? mca_osc_rdma2_mpit_rget_acc : mca_osc_rdma2_rget_accumulate;
}

/* ---------------------------------------------------------------------- */
/* Handles                                                                 */

/* A window with handles bound.  It outlives the window if the handles do
 * (erroneous, but a read must not crash nor count backwards): the window's
 * counts are kept as they were when it was freed. */
typedef struct mca_osc_rdma2_mpit_watch_t {
    const void *win;
    mca_osc_rdma2_module_t *module;     /* NULL once the window is freed */
    int handles;
    mca_osc_rdma2_mpit_t frozen;
    struct mca_osc_rdma2_mpit_watch_t *next;
} mca_osc_rdma2_mpit_watch_t;

/* Every watch (component lock). */
static mca_osc_rdma2_mpit_watch_t *mca_osc_rdma2_mpit_watches = NULL;

/* The watch of a handle's window: a live one first (a new window may
 * have the address of a freed one); NULL for windows not ours. */
static mca_osc_rdma2_mpit_watch_t *mca_osc_rdma2_mpit_find(const void *win)
{
    mca_osc_rdma2_mpit_watch_t *w, *freed = NULL;

    for (w = mca_osc_rdma2_mpit_watches; NULL != w; w = w->next) {
        if (w->win == win && NULL != w->module) {
            return w;
        }
        if (w->win == win && NULL == freed) {
            freed = w;
        }
    }
    return freed;
}

static bool mca_osc_rdma2_mpit_ours(ompi_win_t *win)
{
    return NULL != win && NULL != win->w_osc_module &&
           mca_osc_rdma2_free == win->w_osc_module->osc_free;
}

static void mca_osc_rdma2_mpit_bind(ompi_win_t *win)
{
    mca_osc_rdma2_module_t *module;
    mca_osc_rdma2_mpit_watch_t *w;

    if (!mca_osc_rdma2_mpit_ours(win)) {
        return;                          /* reads 0 */
    }
    module = MCA_OSC_RDMA2_MODULE(win);
    if (NULL == module->mpit.watch) {
        w = calloc(1, sizeof(*w));
        if (NULL == w) {
            return;                      /* reads 0 */
        }
        w->win = win;
        w->module = module;
        w->next = mca_osc_rdma2_mpit_watches;
        mca_osc_rdma2_mpit_watches = w;
        module->mpit.watch = w;
        mca_osc_rdma2_mpit_wrap(module, true);
    }
    module->mpit.watch->handles++;
}

static void mca_osc_rdma2_mpit_drop(mca_osc_rdma2_mpit_watch_t *gone)
{
    mca_osc_rdma2_mpit_watch_t **pp = &mca_osc_rdma2_mpit_watches;

    while (*pp != gone) {
        pp = &(*pp)->next;
    }
    *pp = gone->next;
    free(gone);
}

static void mca_osc_rdma2_mpit_unbind(const void *win)
{
    mca_osc_rdma2_mpit_watch_t *w = mca_osc_rdma2_mpit_find(win);

    if (NULL == w || 0 != --w->handles) {
        return;
    }
    if (NULL != w->module) {
        w->module->mpit.watch = NULL;
        mca_osc_rdma2_mpit_wrap(w->module, false);
    }
    mca_osc_rdma2_mpit_drop(w);
}

void mca_osc_rdma2_mpit_forget(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_mpit_watch_t *w;

    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    w = module->mpit.watch;
    if (NULL != w) {
        w->frozen = module->mpit;
        w->module = NULL;
    }
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
}

static int mca_osc_rdma2_mpit_notify(struct mca_base_pvar_t *pvar, mca_base_pvar_event_t event,
                                     void *obj, int *count)
{
    (void) pvar;
    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    if (MCA_BASE_PVAR_HANDLE_BIND == event) {
        *count = 1;
        mca_osc_rdma2_mpit_bind((ompi_win_t *) obj);
    } else if (MCA_BASE_PVAR_HANDLE_UNBIND == event) {
        mca_osc_rdma2_mpit_unbind(obj);
    }
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    return OPAL_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Values and registration                                                 */

/* ctx: the offset of the counter in mca_osc_rdma2_mpit_t. */
static int mca_osc_rdma2_mpit_read(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    mca_osc_rdma2_mpit_watch_t *w;
    const mca_osc_rdma2_mpit_t *counts;
    unsigned long long v = 0;

    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    w = mca_osc_rdma2_mpit_find(obj);
    if (NULL != w) {
        counts = NULL != w->module ? &w->module->mpit : &w->frozen;
        v = (unsigned long long) *(const volatile int64_t *) ((const char *) counts +
                                                              (intptr_t) pvar->ctx);
    }
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    return mca_common_ompix_pvar_set(value, v);
}

#define MCA_OSC_RDMA2_MPIT_AT(field) ((void *) (intptr_t) offsetof(mca_osc_rdma2_mpit_t, field))

static const struct {
    const char *name, *description;
    void *ctx;
} mca_osc_rdma2_mpit_vars[] = {
    {"ops_mapped", "RMA operations (Put, Get, the accumulate family, their request forms) on "
     "this window to targets whose memory this process maps (loads, stores, CPU atomics)",
     MCA_OSC_RDMA2_MPIT_AT(ops[MCA_OSC_RDMA2_MPIT_MAPPED])},
    {"ops_cma", "RMA operations on this window to same-node targets reached with "
     "process_vm_readv/writev (CMA)", MCA_OSC_RDMA2_MPIT_AT(ops[MCA_OSC_RDMA2_MPIT_CMA])},
    {"ops_ucx", "RMA operations on this window to targets reached through UCX (ucp_put/get, "
     "UCX atomics)", MCA_OSC_RDMA2_MPIT_AT(ops[MCA_OSC_RDMA2_MPIT_UCX])},
    {"bytes_mapped", "Bytes of target memory the RMA operations counted by ops_mapped "
     "address (target count times target datatype size)",
     MCA_OSC_RDMA2_MPIT_AT(bytes[MCA_OSC_RDMA2_MPIT_MAPPED])},
    {"bytes_cma", "Bytes of target memory the RMA operations counted by ops_cma address",
     MCA_OSC_RDMA2_MPIT_AT(bytes[MCA_OSC_RDMA2_MPIT_CMA])},
    {"bytes_ucx", "Bytes of target memory the RMA operations counted by ops_ucx address",
     MCA_OSC_RDMA2_MPIT_AT(bytes[MCA_OSC_RDMA2_MPIT_UCX])},
    {"emulated_atomics", "Accumulate-family operations on this window not run as element "
     "atomics: the window (or the target) is in lock mode, so they went as active messages "
     "or under the target's accumulate lock", MCA_OSC_RDMA2_MPIT_AT(emulated)},
    {"lock_waits", "Lock acquisitions on this window (MPI_Win_lock, MPI_Win_lock_all, the "
     "accumulate lock) that found the lock busy and had to wait",
     MCA_OSC_RDMA2_MPIT_AT(lock_waits)},
};

void mca_osc_rdma2_mpit_register(void)
{
    const mca_base_component_t *v = &mca_osc_rdma2_component.super.osc_version;
    mca_common_ompix_pvar_t pvar = { .bind = MCA_BASE_VAR_BIND_MPI_WIN,
                                     .get_value = mca_osc_rdma2_mpit_read,
                                     .notify = mca_osc_rdma2_mpit_notify };

    for (size_t i = 0; i < sizeof(mca_osc_rdma2_mpit_vars) / sizeof(mca_osc_rdma2_mpit_vars[0]);
         ++i) {
        pvar.name = mca_osc_rdma2_mpit_vars[i].name;
        pvar.description = mca_osc_rdma2_mpit_vars[i].description;
        pvar.ctx = mca_osc_rdma2_mpit_vars[i].ctx;
        (void) mca_common_ompix_pvar_register(v, true, &pvar);
    }
}
