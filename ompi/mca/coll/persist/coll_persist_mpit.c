/*
 * Copyright (c) 2026 The ompix developers.
 *
 * coll/persist's MPI_T performance variables: starts of persistent
 * collectives per algorithm, each bound to a communicator
 * (MCA_BASE_VAR_BIND_MPI_COMM).  A schedule counts its starts (one
 * increment per MPI_Start, beside the start's own stores); a shared-memory
 * plan already counts them (its generation).  Nothing is counted per
 * communicator on the critical path: a read sums the starts of the
 * communicator's requests handed out and not yet freed, plus what its
 * freed ones left in its watch record (common_ompix_mpit.h: made by the
 * first handle bound to the communicator, gone with the last).
 */
#include "ompi_config.h"

#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "ompi/mca/common/ompix/common_ompix_mpit.h"

#include "coll_persist.h"

static opal_mutex_t mca_coll_persist_mpit_lock = OPAL_MUTEX_STATIC_INIT;
static opal_list_t mca_coll_persist_mpit_live;
static bool mca_coll_persist_mpit_ready = false;
/* The watch records (common_ompix_mpit.h): starts of freed requests per
 * algorithm. */
static mca_common_ompix_pvar_watches_t mca_coll_persist_mpit_watches = {
    .lock = &mca_coll_persist_mpit_lock, .ncounts = MCA_COLL_PERSIST_ALGS,
};

static const char *const mca_coll_persist_mpit_names[MCA_COLL_PERSIST_ALGS] = {
    "other", "barrier_shm", "barrier_dissemination", "bcast_shm", "bcast_binomial",
    "bcast_scatter_allgather", "allreduce_shm", "allreduce_recursive_doubling",
    "allreduce_ring", "allgather_bruck", "allgather_ring", "alltoall_bruck",
    "alltoall_pairwise",
};

static uint64_t mca_coll_persist_mpit_starts(const mca_coll_persist_request_t *req)
{
    return NULL != req->shm ? mca_coll_persist_shm_starts(req->shm) : req->starts;
}

void mca_coll_persist_mpit_track(mca_coll_persist_request_t *req)
{
    OPAL_THREAD_LOCK(&mca_coll_persist_mpit_lock);
    if (!mca_coll_persist_mpit_ready) {
        OBJ_CONSTRUCT(&mca_coll_persist_mpit_live, opal_list_t);
        mca_coll_persist_mpit_ready = true;
    }
    opal_list_append(&mca_coll_persist_mpit_live, &req->mpit_item);
    OPAL_THREAD_UNLOCK(&mca_coll_persist_mpit_lock);
}

/* Freed (or abandoned before it was handed out: not listed). */
void mca_coll_persist_mpit_untrack(mca_coll_persist_request_t *req)
{
    unsigned long long *freed;

    OPAL_THREAD_LOCK(&mca_coll_persist_mpit_lock);
    if (mca_coll_persist_mpit_ready && NULL != req->mpit_item.opal_list_next) {
        opal_list_remove_item(&mca_coll_persist_mpit_live, &req->mpit_item);
        freed = mca_common_ompix_pvar_watch_counts(&mca_coll_persist_mpit_watches, req->comm);
        if (NULL != freed) {
            freed[req->algorithm] += mca_coll_persist_mpit_starts(req);
        }
    }
    OPAL_THREAD_UNLOCK(&mca_coll_persist_mpit_lock);
}

/* obj: the communicator, as Open MPI passes it. */
static int mca_coll_persist_mpit_notify(struct mca_base_pvar_t *pvar,
                                        mca_base_pvar_event_t event, void *obj, int *count)
{
    (void) pvar;
    return mca_common_ompix_pvar_watch_notify(&mca_coll_persist_mpit_watches, event, obj, count);
}

/* The starts on communicator obj of the algorithm in pvar->ctx. */
static int mca_coll_persist_mpit_read(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    mca_coll_persist_alg_t alg = (mca_coll_persist_alg_t) (intptr_t) pvar->ctx;
    const unsigned long long *freed;
    unsigned long long v = 0;
    opal_list_item_t *item;

    OPAL_THREAD_LOCK(&mca_coll_persist_mpit_lock);
    freed = mca_common_ompix_pvar_watch_counts(&mca_coll_persist_mpit_watches, obj);
    if (NULL != freed) {
        v = freed[alg];
    }
    if (mca_coll_persist_mpit_ready) {
        OPAL_LIST_FOREACH(item, &mca_coll_persist_mpit_live, opal_list_item_t) {
            mca_coll_persist_request_t *req = (mca_coll_persist_request_t *)
                ((char *) item - offsetof(mca_coll_persist_request_t, mpit_item));
            if (req->algorithm == alg && (const void *) req->comm == obj) {
                v += mca_coll_persist_mpit_starts(req);
            }
        }
    }
    OPAL_THREAD_UNLOCK(&mca_coll_persist_mpit_lock);
    return mca_common_ompix_pvar_set(value, v);
}

void mca_coll_persist_mpit_register(void)
{
    char name[64], desc[512];
    mca_common_ompix_pvar_t pvar = { .name = name, .description = desc,
                                     .bind = MCA_BASE_VAR_BIND_MPI_COMM,
                                     .get_value = mca_coll_persist_mpit_read,
                                     .notify = mca_coll_persist_mpit_notify };

    for (int a = 0; a < MCA_COLL_PERSIST_ALGS; ++a) {
        snprintf(name, sizeof(name), "starts_%s", mca_coll_persist_mpit_names[a]);
        snprintf(desc, sizeof(desc), "Starts (MPI_Start, MPI_Startall) of this process's "
                 "persistent collectives on the bound communicator planned by coll/persist "
                 "with algorithm %s%s",
                 mca_coll_persist_mpit_names[a],
                 0 == a ? " (the one schedule of a collective that has no choice: gather, "
                          "scatter, reduce, scan, the vector and neighborhood collectives)" : "");
        pvar.ctx = (void *) (intptr_t) a;
        (void) mca_common_ompix_pvar_register(&mca_coll_persist_component.super.collm_version,
                                              true, &pvar);
    }
}
