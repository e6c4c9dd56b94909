/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Which table serves a window: osc/rdma2's native notified RMA when rdma2
 * serves it, the generic path (standard MPI calls) otherwise.
 */

#include "ompi_config.h"

#include "ompi/mca/common/ompix/common_ompix_registry.h"
#include "ompi/mca/osc/rdma2/osc_rdma2_api.h"

#include "mpiext_notify_entry.h"

/* What native_free and generic_free hold until they learn one: no
 * module's osc_free (a NULL one would match NULL). */
static int ompix_notify_no_free(struct ompi_win_t *win)
{
    (void) win;
    return OMPI_ERR_NOT_SUPPORTED;
}

ompix_notify_ops_t ompix_notify_generic_table;

int ompix_notify_error_report(int rc, MPI_Win win, const char *func_name)
{
    if (MPI_ERR_WIN == rc) {
        return mca_common_ompix_errhandler_nohandle(MPI_ERR_WIN, func_name);
    }
    return OMPI_ERRHANDLER_INVOKE(win, rc, func_name);
}

/* The take while nobody counts (mpiext_notify_entry.h:ompix_notify_take). */
int64_t ompix_notify_take_slot(int64_t *slot, int64_t *local)
{
    return ompix_notify_take_inline(slot, local);
}

ompix_notify_dispatch_t ompix_notify_dispatch = {.serves = NULL, .looked_up = 0,
                                                .native_free = ompix_notify_no_free,
                                                .generic_free = ompix_notify_no_free,
                                                .take = ompix_notify_take_slot};

/* Once, at the first call of any entry point (the registry's tables live
 * until MPI_Finalize).  Two threads may both get here: they write the
 * same values, and `looked_up` is published after them. */
void ompix_notify_lookup(void)
{
    const mca_osc_rdma2_api_t *api = (const mca_osc_rdma2_api_t *)
        mca_common_ompix_registry_lookup(MCA_OSC_RDMA2_API_NAME, MCA_OSC_RDMA2_API_VERSION);
    ompix_notify_ops_t *native = &ompix_notify_dispatch.native;

    /* A table with a hole would crash on its first use of it: all or none. */
    if (NULL != api && NULL != api->serves && NULL != api->notify_slots
        && NULL != api->read_notify && NULL != api->put_notify && NULL != api->get_notify
        && NULL != api->accumulate_notify && NULL != api->set_num_notify
        && NULL != api->get_accumulate_notify) {
        native->notify_slots = api->notify_slots;
        native->read_notify = api->read_notify;
        native->put_notify = api->put_notify;
        native->get_notify = api->get_notify;
        native->accumulate_notify = api->accumulate_notify;
        native->set_num_notify = api->set_num_notify;
        native->get_accumulate_notify = api->get_accumulate_notify;
        ompix_notify_dispatch.serves = api->serves;
    }
    ompix_notify_generic_table = ompix_notify_generic_ops;
    ompix_notify_mpit_looked_up();
    opal_atomic_wmb();
    ompix_notify_dispatch.looked_up = 1;
}

/* A window whose module's free is not the one remembered: the first call on
 * an rdma2 window, or a window of another component (the generic path). */
const ompix_notify_ops_t *ompix_notify_ops_slow(MPI_Win win)
{
    if (OPAL_UNLIKELY(!ompix_notify_dispatch.looked_up)) {
        ompix_notify_lookup();
    }
    if (NULL != win->w_osc_module
        && win->w_osc_module->osc_free == ompix_notify_dispatch.generic_free) {
        return &ompix_notify_generic_table;
    }
    if (NULL != ompix_notify_dispatch.serves && ompix_notify_dispatch.serves(win)) {
        ompix_notify_dispatch.native_free = win->w_osc_module->osc_free;
        return &ompix_notify_dispatch.native;
    }
    if (NULL != win->w_osc_module) {
        ompix_notify_dispatch.generic_free = win->w_osc_module->osc_free;
    }
    return &ompix_notify_generic_table;
}
