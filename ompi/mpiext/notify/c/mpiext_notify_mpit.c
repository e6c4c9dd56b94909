/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPI_T performance variables (process-wide, MPI_T_BIND_NO_OBJECT), on
 * osc/rdma2's windows and the generic path's alike:
 * - mpi_notify_issued: notified operations this process issued
 *   (MPIX_Win_read_notify, the target-notified calls and their request
 *   forms; MPI_PROC_NULL targets and failed calls are not counted);
 * - mpi_notify_consumed: notifications this process consumed, the counts
 *   its resets (MPIX_Win_notify_reset, MPIX_Win_reset_notify_value) and
 *   completed notification requests took from its slots.  Once every
 *   notification is taken, the sum over the processes of both is equal.
 *
 * Counting costs nothing while nobody looks, as osc/rdma2's counters: the
 * entry points call the table ompix_notify_ops() returns, and every
 * consumer takes through ompix_notify_dispatch.take.  While a handle of
 * issued exists, the RMA entries of both tables (the native copy and the
 * generic copy, ompix_notify_dispatch) are counting wrappers around the
 * originals; while a handle of consumed exists, the take is.  The last
 * handle freed puts the originals back.  Each entry is one pointer,
 * written whole: a call racing with the swap runs the original or the
 * wrapper, both correct.
 */

#include "ompi_config.h"

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/sys/atomic.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/mca/common/ompix/common_ompix_mpit.h"

#include "mpiext_notify_entry.h"

/* One counter and the handles of its variable (the variable's ctx). */
typedef struct ompix_notify_mpit_var_t {
    volatile int64_t count;
    int handles;
} ompix_notify_mpit_var_t;

static ompix_notify_mpit_var_t ompix_notify_mpit_issued = {0, 0};
static ompix_notify_mpit_var_t ompix_notify_mpit_consumed = {0, 0};
static opal_mutex_t ompix_notify_mpit_lock = OPAL_MUTEX_STATIC_INIT;
/* The native table's entries as the lookup filled them. */
static ompix_notify_ops_t ompix_notify_mpit_native_orig;

static inline int ompix_notify_mpit_count(int rc)
{
    if (MPI_SUCCESS == rc) {
        opal_atomic_add_fetch_64(&ompix_notify_mpit_issued.count, 1);
    }
    return rc;
}

/* The take while a handle of consumed exists. */
static int64_t ompix_notify_mpit_take(int64_t *slot, int64_t *local)
{
    int64_t v = ompix_notify_take_inline(slot, local);

    if (0 != v) {
        opal_atomic_add_fetch_64(&ompix_notify_mpit_consumed.count, v);
    }
    return v;
}

/* The counting wrappers of one table (orig: its original entries). */
#define OMPIX_NOTIFY_MPIT_WRAPPERS(tab, orig)                                                \
    static int ompix_notify_mpit_##tab##_read(void *o, int oc, MPI_Datatype odt, int t,       \
                                              MPI_Aint d, int tc, MPI_Datatype tdt, int id,   \
                                              MPI_Win win)                                    \
    {                                                                                         \
        return ompix_notify_mpit_count((orig).read_notify(o, oc, odt, t, d, tc, tdt, id, win)); \
    }                                                                                         \
    static int ompix_notify_mpit_##tab##_put(const void *o, int oc, MPI_Datatype odt, int t,  \
                                             MPI_Aint d, int tc, MPI_Datatype tdt, int id,    \
                                             MPI_Win win)                                     \
    {                                                                                         \
        return ompix_notify_mpit_count((orig).put_notify(o, oc, odt, t, d, tc, tdt, id, win)); \
    }                                                                                         \
    static int ompix_notify_mpit_##tab##_get(void *o, int oc, MPI_Datatype odt, int t,        \
                                             MPI_Aint d, int tc, MPI_Datatype tdt, int id,    \
                                             MPI_Win win)                                     \
    {                                                                                         \
        return ompix_notify_mpit_count((orig).get_notify(o, oc, odt, t, d, tc, tdt, id, win)); \
    }                                                                                         \
    static int ompix_notify_mpit_##tab##_acc(const void *o, int oc, MPI_Datatype odt, int t,  \
                                             MPI_Aint d, int tc, MPI_Datatype tdt, MPI_Op op, \
                                             int id, MPI_Win win)                             \
    {                                                                                         \
        return ompix_notify_mpit_count(                                                       \
            (orig).accumulate_notify(o, oc, odt, t, d, tc, tdt, op, id, win));                \
    }                                                                                         \
    static int ompix_notify_mpit_##tab##_gacc(const void *o, int oc, MPI_Datatype odt,        \
                                              void *r, int rc_, MPI_Datatype rdt, int t,      \
                                              MPI_Aint d, int tc, MPI_Datatype tdt,           \
                                              MPI_Op op, int id, MPI_Win win)                 \
    {                                                                                         \
        return ompix_notify_mpit_count((orig).get_accumulate_notify(                          \
            o, oc, odt, r, rc_, rdt, t, d, tc, tdt, op, id, win));                            \
    }

OMPIX_NOTIFY_MPIT_WRAPPERS(native, ompix_notify_mpit_native_orig)
OMPIX_NOTIFY_MPIT_WRAPPERS(generic, ompix_notify_generic_ops)

/* Puts the wrappers into t (on) or orig's entries back (off). */
#define OMPIX_NOTIFY_MPIT_SET(t, tab, orig, on)                                     \
    do {                                                                            \
        (t)->read_notify = (on) ? ompix_notify_mpit_##tab##_read : (orig).read_notify; \
        (t)->put_notify = (on) ? ompix_notify_mpit_##tab##_put : (orig).put_notify;  \
        (t)->get_notify = (on) ? ompix_notify_mpit_##tab##_get : (orig).get_notify;  \
        (t)->accumulate_notify = (on) ? ompix_notify_mpit_##tab##_acc                \
                                      : (orig).accumulate_notify;                   \
        (t)->get_accumulate_notify = (on) ? ompix_notify_mpit_##tab##_gacc           \
                                          : (orig).get_accumulate_notify;           \
    } while (0)

/* Caller holds ompix_notify_mpit_lock; the lookup is done. */
static void ompix_notify_mpit_apply(void)
{
    bool on = ompix_notify_mpit_issued.handles > 0;

    ompix_notify_dispatch.take = ompix_notify_mpit_consumed.handles > 0 ? ompix_notify_mpit_take
                                                                       : ompix_notify_take_slot;

    OMPIX_NOTIFY_MPIT_SET(&ompix_notify_generic_table, generic, ompix_notify_generic_ops, on);
    if (NULL != ompix_notify_mpit_native_orig.put_notify) {
        OMPIX_NOTIFY_MPIT_SET(&ompix_notify_dispatch.native, native,
                              ompix_notify_mpit_native_orig, on);
    }
}

/* From the lookup, once the native table is filled: keep its originals
 * and count there too if handles exist already. */
void ompix_notify_mpit_looked_up(void)
{
    opal_mutex_lock(&ompix_notify_mpit_lock);
    if (NULL == ompix_notify_mpit_native_orig.put_notify) {
        ompix_notify_mpit_native_orig = ompix_notify_dispatch.native;
    }
    ompix_notify_mpit_apply();
    opal_mutex_unlock(&ompix_notify_mpit_lock);
}

static int ompix_notify_mpit_notify(struct mca_base_pvar_t *pvar, mca_base_pvar_event_t event,
                                    void *obj, int *count)
{
    ompix_notify_mpit_var_t *var = (ompix_notify_mpit_var_t *) pvar->ctx;

    (void) obj;
    if (MCA_BASE_PVAR_HANDLE_BIND != event && MCA_BASE_PVAR_HANDLE_UNBIND != event) {
        return OPAL_SUCCESS;
    }
    if (!ompix_notify_dispatch.looked_up) {
        ompix_notify_lookup();
    }
    opal_mutex_lock(&ompix_notify_mpit_lock);
    if (MCA_BASE_PVAR_HANDLE_BIND == event) {
        *count = 1;
        var->handles++;
    } else {
        var->handles--;
    }
    ompix_notify_mpit_apply();
    opal_mutex_unlock(&ompix_notify_mpit_lock);
    return OPAL_SUCCESS;
}

static int ompix_notify_mpit_read(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    const ompix_notify_mpit_var_t *var = (const ompix_notify_mpit_var_t *) pvar->ctx;

    (void) obj;
    return mca_common_ompix_pvar_set(value, (unsigned long long) var->count);
}

static void ompix_notify_mpit_one(const char *name, const char *description,
                                  ompix_notify_mpit_var_t *var)
{
    (void) mca_base_pvar_register("ompi", "mpi", NULL, name, description, OPAL_INFO_LVL_4,
                                  MCA_BASE_PVAR_CLASS_COUNTER,
                                  MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                  MCA_BASE_VAR_BIND_NO_OBJECT,
                                  MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                  ompix_notify_mpit_read, NULL, ompix_notify_mpit_notify, var);
}

/* When the osc framework opens (MPI_Init). */
void ompix_notify_mpit_register(void)
{
    ompix_notify_mpit_one("notify_issued",
                          "Notified RMA operations this process issued "
                          "(MPIX_Win_read_notify, MPIX_Put_notify, MPIX_Get_notify, "
                          "MPIX_Accumulate_notify, MPIX_Get_accumulate_notify and the "
                          "request forms), on every window; MPI_PROC_NULL targets and "
                          "failed calls are not counted",
                          &ompix_notify_mpit_issued);
    ompix_notify_mpit_one("notify_consumed",
                          "Notifications this process consumed: the counts "
                          "MPIX_Win_notify_reset, MPIX_Win_reset_notify_value and completed "
                          "notification requests took from its slots, on every window",
                          &ompix_notify_mpit_consumed);
}
