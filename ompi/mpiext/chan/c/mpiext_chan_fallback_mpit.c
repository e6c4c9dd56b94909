/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPI_T performance variables mpi_chan_fallback_channels and
 * mpi_chan_fallback_starts (process-wide, MPI_T_BIND_NO_OBJECT): channel
 * ends created on the generic fallback (mpiext_chan_fallback.c, channels
 * to MPI_PROC_NULL included) and their starts.  pml/chan's own counters
 * (pml_chan_*) cover the engine; these cover what it did not serve.
 *
 * The fallback is the path of channels the engine cannot serve, off the
 * engine's hot path the benchmarks budget: a start costs one atomic add
 * here (mpiext_chan_internal.h:ompix_chan_fb_mpit_started).  The
 * variables are registered with the first fallback channel (MPI_T lets
 * the number of variables grow; both are 0 before it).
 */

#include "ompi_config.h"

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/sys/atomic.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/mca/common/ompix/common_ompix_mpit.h"

#include "mpiext_chan_internal.h"

volatile int64_t ompix_chan_fb_mpit_starts = 0;
static volatile int64_t ompix_chan_fb_mpit_channels = 0;
static bool ompix_chan_fb_mpit_registered = false;
static opal_mutex_t ompix_chan_fb_mpit_lock = OPAL_MUTEX_STATIC_INIT;

static int ompix_chan_fb_mpit_read(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    const volatile int64_t *counter = (const volatile int64_t *) pvar->ctx;

    (void) obj;
    return mca_common_ompix_pvar_set(value, (unsigned long long) *counter);
}

static void ompix_chan_fb_mpit_one(const char *name, const char *description,
                                   volatile int64_t *counter)
{
    (void) mca_base_pvar_register("ompi", "mpi", NULL, name, description, OPAL_INFO_LVL_4,
                                  MCA_BASE_PVAR_CLASS_COUNTER,
                                  MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                  MCA_BASE_VAR_BIND_NO_OBJECT,
                                  MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                  ompix_chan_fb_mpit_read, NULL, NULL, (void *) counter);
}

/* A fallback channel end was created (ompix_chan_fb_ring). */
void ompix_chan_fb_mpit_created(void)
{
    opal_mutex_lock(&ompix_chan_fb_mpit_lock);
    if (!ompix_chan_fb_mpit_registered) {
        ompix_chan_fb_mpit_registered = true;
        ompix_chan_fb_mpit_one("chan_fallback_channels",
                               "Channel ends bound on the generic fallback (not served by "
                               "pml/chan's engine; MPI_PROC_NULL channels included)",
                               &ompix_chan_fb_mpit_channels);
        ompix_chan_fb_mpit_one("chan_fallback_starts",
                               "Starts of channel ends on the generic fallback",
                               &ompix_chan_fb_mpit_starts);
    }
    opal_mutex_unlock(&ompix_chan_fb_mpit_lock);
    opal_atomic_add_fetch_64(&ompix_chan_fb_mpit_channels, 1);
}
