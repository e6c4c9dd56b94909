/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan's MPI_T performance variables: channels bound, starts and bytes
 * per path (mapped, am, tag, large), process-wide.  Nothing is counted on
 * a start: an end already counts its starts (nstart); a read sums the
 * bound ends' and what unbound ends left in `retired` when they went.
 * Registered without invalidation with our variable group: PML selection
 * closes us as unselected while we stay loaded (pml_chan_component.c), and
 * our DSO stays mapped (retained at registration), so the callbacks stay
 * valid; after MPI_Finalize a read sees what the ends left.
 */
#include "ompi_config.h"

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

void mca_pml_chan_mpit_unbound(const mca_pml_chan_end_t *end)
{
    int p = mca_pml_chan_mpit_path(end);

    if (p >= 0) {
        mca_pml_chan_mpit_retired[MCA_PML_CHAN_MPIT_STARTS][p] += end->nstart;
        mca_pml_chan_mpit_retired[MCA_PML_CHAN_MPIT_BYTES][p] += end->nstart * end->bytes;
    }
}

/* What the bound ends add to a metric of path p. */
static unsigned long long mca_pml_chan_mpit_live(int metric, int p)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    unsigned long long sum = 0;
    mca_pml_chan_end_t *end;
    opal_list_item_t *item;

    OPAL_LIST_FOREACH(item, &c->ends, opal_list_item_t) {
        end = (mca_pml_chan_end_t *) ((char *) item - offsetof(mca_pml_chan_end_t, ends_item));
        if (end->path == mca_pml_chan_mpit_paths[p]) {
            sum += MCA_PML_CHAN_MPIT_STARTS == metric ? end->nstart : end->nstart * end->bytes;
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
        v += mca_pml_chan_mpit_live(metric, p);
    }
    OPAL_THREAD_UNLOCK(&c->lock);
    return mca_common_ompix_pvar_set(value, v);
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

void mca_pml_chan_mpit_register(void)
{
    const mca_base_component_t *v = &mca_pml_chan_component.super.pmlm_version;
    char name[64], desc[256];
    mca_common_ompix_pvar_t pvar = { .name = name, .description = desc,
                                     .bind = MCA_BASE_VAR_BIND_NO_OBJECT,
                                     .get_value = mca_pml_chan_mpit_read };

    for (int m = 0; m < MCA_PML_CHAN_MPIT_METRICS; ++m) {
        for (int p = 0; p < MCA_PML_CHAN_MPIT_PATHS; ++p) {
            snprintf(name, sizeof(name), "%s_%s", mca_pml_chan_mpit_metric_names[m],
                     mca_pml_chan_mpit_path_names[p]);
            snprintf(desc, sizeof(desc), mca_pml_chan_mpit_what[m],
                     mca_pml_chan_mpit_path_names[p]);
            pvar.ctx = (void *) (intptr_t) (m * MCA_PML_CHAN_MPIT_PATHS + p);
            (void) mca_common_ompix_pvar_register(v, false, &pvar);
        }
    }
}
