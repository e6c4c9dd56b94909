/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPI_T performance variable mpi_notify_issued (process-wide,
 * MPI_T_BIND_NO_OBJECT): notified operations this process issued
 * (MPIX_Win_read_notify, the target-notified calls and their request
 * forms; MPI_PROC_NULL targets and failed calls are not counted), on
 * osc/rdma2's windows and the generic path's alike.
 *
 * Counting costs nothing while nobody looks, as osc/rdma2's counters: the
 * entry points call the table ompix_notify_ops() returns, and while a
 * handle of the variable exists the RMA entries of both tables (the
 * native copy and the generic copy, ompix_notify_dispatch) are counting
 * wrappers around the originals; the last handle freed puts the originals
 * back.  Each entry is one pointer, written whole: a call racing with the
 * swap runs the original or the wrapper, both correct.
 *
 * Consumption (reset, notification requests) is not counted: its take is
 * inline in the entry points, with no table call to swap, and a count
 * there would add to the notification round trip the benchmarks budget.
 */

#include "ompi_config.h"

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/sys/atomic.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/mca/common/ompix/common_ompix_mpit.h"

#include "mpiext_notify_entry.h"

static volatile int64_t ompix_notify_mpit_issued = 0;
static int ompix_notify_mpit_handles = 0;
static opal_mutex_t ompix_notify_mpit_lock = OPAL_MUTEX_STATIC_INIT;
/* The native table's entries as the lookup filled them. */
static ompix_notify_ops_t ompix_notify_mpit_native_orig;

static inline int ompix_notify_mpit_count(int rc)
{
    if (MPI_SUCCESS == rc) {
        opal_atomic_add_fetch_64(&ompix_notify_mpit_issued, 1);
    }
    return rc;
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
    bool on = ompix_notify_mpit_handles > 0;

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
    (void) pvar;
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
        ompix_notify_mpit_handles++;
    } else {
        ompix_notify_mpit_handles--;
    }
    ompix_notify_mpit_apply();
    opal_mutex_unlock(&ompix_notify_mpit_lock);
    return OPAL_SUCCESS;
}

static int ompix_notify_mpit_read(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    (void) pvar;
    (void) obj;
    return mca_common_ompix_pvar_set(value, (unsigned long long) ompix_notify_mpit_issued);
}

/* When the osc framework opens (MPI_Init). */
void ompix_notify_mpit_register(void)
{
    (void) mca_base_pvar_register("ompi", "mpi", NULL, "notify_issued",
                                  "Notified RMA operations this process issued "
                                  "(MPIX_Win_read_notify, MPIX_Put_notify, MPIX_Get_notify, "
                                  "MPIX_Accumulate_notify, MPIX_Get_accumulate_notify and the "
                                  "request forms), on every window; MPI_PROC_NULL targets and "
                                  "failed calls are not counted",
                                  OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_COUNTER,
                                  MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                  MCA_BASE_VAR_BIND_NO_OBJECT,
                                  MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                  ompix_notify_mpit_read, NULL, ompix_notify_mpit_notify, NULL);
}
