/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan's MPI_T performance variables: channels bound, starts and bytes
 * per path (mapped, am, tag, large), process-wide (channels_<path>, ...)
 * and bound to the communicator the channel was bound on
 * (comm_channels_<path>, ...: MPI_T gives a variable one binding).
 * Nothing is counted on a start: an end already counts its starts
 * (nstart); a read sums the bound ends' (of the handle's communicator:
 * its address only compared) and what unbound ends left in `retired`
 * when they went, or in their communicator's watch record
 * (common_ompix_mpit.h: made by the first handle on the communicator,
 * gone with the last).
 * Registered without invalidation with our variable group: PML selection
 * closes us as unselected while we stay loaded (pml_chan_component.c), and
 * our DSO stays mapped (retained at registration), so the callbacks stay
 * valid; after MPI_Finalize a read sees what the ends left.
 */
#include "ompi_config.h"

#include <string.h>

#include "ompi/mca/common/ompix/common_ompix_mpit.h"

#include "pml_chan.h"
#include "pml_chan_end.h"
#include "pml_chan_path.h"

enum { MCA_PML_CHAN_MPIT_CHANNELS, MCA_PML_CHAN_MPIT_STARTS, MCA_PML_CHAN_MPIT_BYTES,
       MCA_PML_CHAN_MPIT_METRICS };

#define MCA_PML_CHAN_MPIT_PATHS 4

static const mca_pml_chan_path_t *const mca_pml_chan_mpit_paths[MCA_PML_CHAN_MPIT_PATHS] = {
    &mca_pml_chan_path_mapped, &mca_pml_chan_path_am, &mca_pml_chan_path_tag,
    &mca_pml_chan_path_large,
};
static const char *const mca_pml_chan_mpit_path_names[MCA_PML_CHAN_MPIT_PATHS] = {
    "mapped", "am", "tag", "large",
};

/* Channels bound so far, and starts and bytes of the ends unbound since
 * (under the component's lock). */
static unsigned long long mca_pml_chan_mpit_retired[MCA_PML_CHAN_MPIT_METRICS]
                                                   [MCA_PML_CHAN_MPIT_PATHS];

/* The comm-bound counters' watch records: per metric and path, what ends
 * unbound since the first handle left.  Their lock nests inside the
 * component's (an unbind holds that). */
static opal_mutex_t mca_pml_chan_mpit_lock = OPAL_MUTEX_STATIC_INIT;
static mca_common_ompix_pvar_watches_t mca_pml_chan_mpit_watches = {
    .lock = &mca_pml_chan_mpit_lock,
    .ncounts = MCA_PML_CHAN_MPIT_METRICS * MCA_PML_CHAN_MPIT_PATHS,
};

static int mca_pml_chan_mpit_path(const mca_pml_chan_end_t *end)
{
    for (int i = 0; i < MCA_PML_CHAN_MPIT_PATHS; ++i) {
        if (end->path == mca_pml_chan_mpit_paths[i]) {
            return i;
        }
    }
    return -1;
}

void mca_pml_chan_mpit_bound(const mca_pml_chan_end_t *end)
{
    int p = mca_pml_chan_mpit_path(end);

    if (p >= 0) {
        mca_pml_chan_mpit_retired[MCA_PML_CHAN_MPIT_CHANNELS][p]++;
    }
}

/* What end counts in metric: itself as a channel, its starts, their bytes. */
static unsigned long long mca_pml_chan_mpit_count(const mca_pml_chan_end_t *end, int metric)
{
    return MCA_PML_CHAN_MPIT_CHANNELS == metric ? 1
           : MCA_PML_CHAN_MPIT_STARTS == metric ? end->nstart
                                                : end->nstart * end->bytes;
}

/* Under the component's lock: into retired, and into the record of the
 * end's communicator if a handle watches it. */
void mca_pml_chan_mpit_unbound(const mca_pml_chan_end_t *end)
{
    int p = mca_pml_chan_mpit_path(end);
    unsigned long long *rec;

    if (p < 0) {
        return;
    }
    mca_pml_chan_mpit_retired[MCA_PML_CHAN_MPIT_STARTS][p] += end->nstart;
    mca_pml_chan_mpit_retired[MCA_PML_CHAN_MPIT_BYTES][p] += end->nstart * end->bytes;
    OPAL_THREAD_LOCK(&mca_pml_chan_mpit_lock);
    rec = mca_common_ompix_pvar_watch_counts(&mca_pml_chan_mpit_watches, end->spec.req.comm);
    for (int m = 0; NULL != rec && m < MCA_PML_CHAN_MPIT_METRICS; ++m) {
        rec[m * MCA_PML_CHAN_MPIT_PATHS + p] += mca_pml_chan_mpit_count(end, m);
    }
    OPAL_THREAD_UNLOCK(&mca_pml_chan_mpit_lock);
}

/* What the bound ends on comm (any communicator: NULL) add to a metric of
 * path p; under the component's lock. */
static unsigned long long mca_pml_chan_mpit_live(int metric, int p, const void *comm)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    unsigned long long sum = 0;
    mca_pml_chan_end_t *end;
    opal_list_item_t *item;

    OPAL_LIST_FOREACH(item, &c->ends, opal_list_item_t) {
        end = (mca_pml_chan_end_t *) ((char *) item - offsetof(mca_pml_chan_end_t, ends_item));
        if (end->path == mca_pml_chan_mpit_paths[p] &&
            (NULL == comm || (const void *) end->spec.req.comm == comm)) {
            sum += mca_pml_chan_mpit_count(end, metric);
        }
    }
    return sum;
}

static int mca_pml_chan_mpit_read(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    int metric = (int) ((intptr_t) pvar->ctx / MCA_PML_CHAN_MPIT_PATHS);
    int p = (int) ((intptr_t) pvar->ctx % MCA_PML_CHAN_MPIT_PATHS);
    unsigned long long v;

    (void) obj;
    if (!c->active) {
        return mca_common_ompix_pvar_set(value, mca_pml_chan_mpit_retired[metric][p]);
    }
    OPAL_THREAD_LOCK(&c->lock);
    v = mca_pml_chan_mpit_retired[metric][p];
    if (MCA_PML_CHAN_MPIT_CHANNELS != metric) {
        v += mca_pml_chan_mpit_live(metric, p, NULL);
    }
    OPAL_THREAD_UNLOCK(&c->lock);
    return mca_common_ompix_pvar_set(value, v);
}

/* A comm-bound counter on communicator obj (Open MPI passes the handle's
 * object): its record, plus its bound ends while pml/chan is active. */
static int mca_pml_chan_mpit_comm_read(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    int i = (int) (intptr_t) pvar->ctx;
    const unsigned long long *rec;
    unsigned long long v = 0;
    bool active = c->active;

    if (active) {
        OPAL_THREAD_LOCK(&c->lock);
        v = mca_pml_chan_mpit_live(i / MCA_PML_CHAN_MPIT_PATHS, i % MCA_PML_CHAN_MPIT_PATHS, obj);
    }
    OPAL_THREAD_LOCK(&mca_pml_chan_mpit_lock);
    rec = mca_common_ompix_pvar_watch_counts(&mca_pml_chan_mpit_watches, obj);
    v += NULL != rec ? rec[i] : 0;
    OPAL_THREAD_UNLOCK(&mca_pml_chan_mpit_lock);
    if (active) {
        OPAL_THREAD_UNLOCK(&c->lock);
    }
    return mca_common_ompix_pvar_set(value, v);
}

static int mca_pml_chan_mpit_comm_notify(struct mca_base_pvar_t *pvar,
                                         mca_base_pvar_event_t event, void *obj, int *count)
{
    (void) pvar;
    return mca_common_ompix_pvar_watch_notify(&mca_pml_chan_mpit_watches, event, obj, count);
}

static const char *const mca_pml_chan_mpit_what[MCA_PML_CHAN_MPIT_METRICS] = {
    "Channel ends bound on pml/chan's engine (MPIX_Bind_channel and friends) whose "
    "messages take the %s path",
    "Starts (MPI_Start) of this process's channel ends on the %s path, sends and receives",
    "Bytes of the messages started on this process's channel ends on the %s path, sends "
    "and receives (packed size times starts)",
};
static const char *const mca_pml_chan_mpit_metric_names[MCA_PML_CHAN_MPIT_METRICS] = {
    "channels", "starts", "bytes",
};

/* Every metric and path of one binding: process-wide, or (comm) bound to
 * the communicator the channel was bound on, named comm_<metric>_<path>. */
static void mca_pml_chan_mpit_register_set(const mca_common_ompix_pvar_t *how, bool comm)
{
    const mca_base_component_t *v = &mca_pml_chan_component.super.pmlm_version;
    char name[64], desc[320];
    mca_common_ompix_pvar_t pvar = *how;

    pvar.name = name;
    pvar.description = desc;
    for (int m = 0; m < MCA_PML_CHAN_MPIT_METRICS; ++m) {
        for (int p = 0; p < MCA_PML_CHAN_MPIT_PATHS; ++p) {
            snprintf(name, sizeof(name), "%s%s_%s", comm ? "comm_" : "",
                     mca_pml_chan_mpit_metric_names[m], mca_pml_chan_mpit_path_names[p]);
            snprintf(desc, sizeof(desc), mca_pml_chan_mpit_what[m],
                     mca_pml_chan_mpit_path_names[p]);
            if (comm) {
                strncat(desc, ", on the bound communicator (the channel's)",
                        sizeof(desc) - strlen(desc) - 1);
            }
            pvar.ctx = (void *) (intptr_t) (m * MCA_PML_CHAN_MPIT_PATHS + p);
            (void) mca_common_ompix_pvar_register(v, false, &pvar);
        }
    }
}

void mca_pml_chan_mpit_register(void)
{
    mca_common_ompix_pvar_t all = { .bind = MCA_BASE_VAR_BIND_NO_OBJECT,
                                    .get_value = mca_pml_chan_mpit_read };
    mca_common_ompix_pvar_t comm = { .bind = MCA_BASE_VAR_BIND_MPI_COMM,
                                     .get_value = mca_pml_chan_mpit_comm_read,
                                     .notify = mca_pml_chan_mpit_comm_notify };

    mca_pml_chan_mpit_register_set(&all, false);
    mca_pml_chan_mpit_register_set(&comm, true);
}
