/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Process-wide state of channels: set up at the first bind, torn down at
 * MPI_Finalize through an attribute on MPI_COMM_SELF (MPI-3.1 §8.7.1: its
 * delete callback runs first thing in MPI_Finalize, while the PML still
 * works), so channels still bound then are released without a hang.
 */

#include "ompi_config.h"

#include <pthread.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/attribute/attribute.h"
#include "ompi/mca/common/ompix/common_ompix_help.h"
#include "ompi/mca/common/ompix/common_ompix_finalize.h"

#include "mpiext_chan_internal.h"

ompix_chan_global_t ompix_chan_global = {.initialized = false};

static void ompix_chan_offer_construct(ompix_chan_offer_t *offer)
{
    offer->len = 0;
}
OBJ_CLASS_INSTANCE(ompix_chan_offer_t, opal_list_item_t, ompix_chan_offer_construct, NULL);

static void ompix_chan_comm_construct(ompix_chan_comm_t *cs)
{
    cs->comm = NULL;
    cs->next_id = 0;
    cs->ctrl = NULL;
    OBJ_CONSTRUCT(&cs->offers, opal_list_t);
    OBJ_CONSTRUCT(&cs->rbinds, opal_list_t);
    OBJ_CONSTRUCT(&cs->busy, opal_list_t);
}

static void ompix_chan_comm_destruct(ompix_chan_comm_t *cs)
{
    OPAL_LIST_DESTRUCT(&cs->offers);
    OBJ_DESTRUCT(&cs->rbinds);
    OBJ_DESTRUCT(&cs->busy);
}
OBJ_CLASS_INSTANCE(ompix_chan_comm_t, opal_list_item_t, ompix_chan_comm_construct,
                   ompix_chan_comm_destruct);

static int ompix_chan_progress_cb(void)
{
    return 0 == ompix_chan_global.num_binds ? 0 : ompix_chan_progress();
}

/* The offer receive still posted on a communicator: cancelled, and the
 * communicator released. */
static void ompix_chan_comm_release(ompix_chan_comm_t *cs)
{
    if (NULL != cs->ctrl) {
        ompi_request_cancel(cs->ctrl);
        ompi_request_wait(&cs->ctrl, MPI_STATUS_IGNORE);
        if (MPI_REQUEST_NULL != cs->ctrl) {
            ompi_request_free(&cs->ctrl);
        }
    }
    OBJ_RELEASE(cs->comm);
    OBJ_RELEASE(cs);
}

static void ompix_chan_finalize(void)
{
    opal_list_item_t *item;

    opal_progress_unregister(ompix_chan_progress_cb);
    ompix_chan_unbind_all();
    ompix_chan_wait_uninstall();
    while (NULL != (item = opal_list_remove_first(&ompix_chan_global.comms))) {
        ompix_chan_comm_release((ompix_chan_comm_t *) item);
    }
    OBJ_DESTRUCT(&ompix_chan_global.comms);
    OBJ_DESTRUCT(&ompix_chan_global.comm_map);
    OBJ_DESTRUCT(&ompix_chan_global.chans);
    OBJ_DESTRUCT(&ompix_chan_global.kept);
    OBJ_DESTRUCT(&ompix_chan_global.lock);
    ompix_chan_global.engine = NULL;
    ompix_chan_global.initialized = false;
}

static const mca_common_ompix_cleanup_t ompix_chan_cleanup = {
    .fn = ompix_chan_finalize,
};

static int ompix_chan_global_setup(void)
{
    int rc;

    OBJ_CONSTRUCT(&ompix_chan_global.lock, opal_mutex_t);
    OBJ_CONSTRUCT(&ompix_chan_global.comms, opal_list_t);
    OBJ_CONSTRUCT(&ompix_chan_global.comm_map, opal_hash_table_t);
    OBJ_CONSTRUCT(&ompix_chan_global.chans, opal_hash_table_t);
    OBJ_CONSTRUCT(&ompix_chan_global.kept, opal_hash_table_t);
    opal_hash_table_init(&ompix_chan_global.comm_map, 16);
    opal_hash_table_init(&ompix_chan_global.chans, 64);
    opal_hash_table_init(&ompix_chan_global.kept, 16);
    ompix_chan_global.num_binds = 0;
    ompix_chan_global.num_watched = 0;
    ompix_chan_global.wrapped = false;
    mca_common_ompix_help_init();
    ompix_chan_global.engine = ompix_chan_engine_find();
    rc = mca_common_ompix_at_finalize(&ompix_chan_cleanup);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    return opal_progress_register(ompix_chan_progress_cb);
}

int ompix_chan_global_init(void)
{
    static pthread_mutex_t ompix_chan_init_lock = PTHREAD_MUTEX_INITIALIZER;
    int rc = OMPI_SUCCESS;

    if (ompix_chan_global.initialized) {
        return OMPI_SUCCESS;
    }
    pthread_mutex_lock(&ompix_chan_init_lock);
    if (!ompix_chan_global.initialized) {
        rc = ompix_chan_global_setup();
        opal_atomic_wmb();
        ompix_chan_global.initialized = (OMPI_SUCCESS == rc);
    }
    pthread_mutex_unlock(&ompix_chan_init_lock);
    return rc;
}

/* Called with the global lock held. */
ompix_chan_comm_t *ompix_chan_comm_get(ompi_communicator_t *comm)
{
    ompix_chan_comm_t *cs = NULL;
    uint64_t key = (uint64_t) (uintptr_t) comm;

    if (OPAL_SUCCESS == opal_hash_table_get_value_uint64(&ompix_chan_global.comm_map, key,
                                                         (void **) &cs)) {
        return cs;
    }
    cs = OBJ_NEW(ompix_chan_comm_t);
    if (NULL == cs) {
        return NULL;
    }
    /* Kept until MPI_Finalize: pointers are never reused meanwhile. */
    OBJ_RETAIN(comm);
    cs->comm = comm;
    opal_hash_table_set_value_uint64(&ompix_chan_global.comm_map, key, cs);
    opal_list_append(&ompix_chan_global.comms, &cs->super);
    return cs;
}

/* A tag unique among the messages this process receives privately on the
 * communicator (replies and fallback data), so (comm, source, tag) names
 * one stream.  Called with the global lock held. */
int ompix_chan_next_tag(ompix_chan_comm_t *cs)
{
    int id = cs->next_id;

    cs->next_id = (cs->next_id + 1) % OMPIX_CHAN_TAG_IDS;
    return OMPIX_CHAN_TAG_FIRST + id;
}

/* Called with the global lock held. */
void ompix_chan_add_locked(ompi_request_t *chan, void *kind)
{
    opal_hash_table_set_value_ptr(&ompix_chan_global.chans, &chan, sizeof(chan), kind);
}

/* OMPIX_CHAN_KIND_* of a channel request, NULL for any other request. */
void *ompix_chan_kind(ompi_request_t *req)
{
    void *kind = NULL;

    if (!ompix_chan_global.initialized || MPI_REQUEST_NULL == req || NULL == req) {
        return NULL;
    }
    OPAL_THREAD_LOCK(&ompix_chan_global.lock);
    if (OPAL_SUCCESS != opal_hash_table_get_value_ptr(&ompix_chan_global.chans, &req,
                                                      sizeof(req), &kind)) {
        kind = NULL;
    }
    OPAL_THREAD_UNLOCK(&ompix_chan_global.lock);
    return kind;
}

void ompix_chan_remove(ompi_request_t *req)
{
    OPAL_THREAD_LOCK(&ompix_chan_global.lock);
    opal_hash_table_remove_value_ptr(&ompix_chan_global.chans, &req, sizeof(req));
    OPAL_THREAD_UNLOCK(&ompix_chan_global.lock);
}
