/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The ranges active messages may address (osc_rdma2_exposed.h).  A list
 * under a lock of its own: the handlers that consult it run inside the
 * worker's progress, on the progress thread too, while the component
 * lock may be held by a thread creating a window; windows are few and
 * active messages travel over networks, so a walk costs nothing that
 * matters.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "opal/class/opal_list.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"

#include "osc_rdma2_exposed.h"

typedef struct {
    opal_list_item_t super;
    const void *owner;
    uint64_t base;
    size_t len;
} mca_osc_rdma2_exposed_t;
static OBJ_CLASS_INSTANCE(mca_osc_rdma2_exposed_t, opal_list_item_t, NULL, NULL);

static opal_list_t mca_osc_rdma2_exposed;
static opal_mutex_t mca_osc_rdma2_exposed_lock;

void mca_osc_rdma2_exposed_init(void)
{
    OBJ_CONSTRUCT(&mca_osc_rdma2_exposed, opal_list_t);
    OBJ_CONSTRUCT(&mca_osc_rdma2_exposed_lock, opal_mutex_t);
}

void mca_osc_rdma2_exposed_fini(void)
{
    OPAL_LIST_DESTRUCT(&mca_osc_rdma2_exposed);
    OBJ_DESTRUCT(&mca_osc_rdma2_exposed_lock);
}

int mca_osc_rdma2_exposed_add(const void *owner, const void *base, size_t len)
{
    mca_osc_rdma2_exposed_t *e;

    if (0 == len || NULL == base) {
        return OMPI_SUCCESS;
    }
    e = OBJ_NEW(mca_osc_rdma2_exposed_t);
    if (NULL == e) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    e->owner = owner;
    e->base = (uint64_t) (uintptr_t) base;
    e->len = len;
    opal_mutex_lock(&mca_osc_rdma2_exposed_lock);
    opal_list_append(&mca_osc_rdma2_exposed, &e->super);
    opal_mutex_unlock(&mca_osc_rdma2_exposed_lock);
    return OMPI_SUCCESS;
}

void mca_osc_rdma2_exposed_remove(const void *owner, const void *base)
{
    mca_osc_rdma2_exposed_t *e, *next;

    opal_mutex_lock(&mca_osc_rdma2_exposed_lock);
    OPAL_LIST_FOREACH_SAFE (e, next, &mca_osc_rdma2_exposed, mca_osc_rdma2_exposed_t) {
        if (e->owner == owner && (NULL == base || e->base == (uint64_t) (uintptr_t) base)) {
            opal_list_remove_item(&mca_osc_rdma2_exposed, &e->super);
            OBJ_RELEASE(e);
        }
    }
    opal_mutex_unlock(&mca_osc_rdma2_exposed_lock);
}

bool mca_osc_rdma2_exposed_holds(uint64_t addr, size_t len)
{
    mca_osc_rdma2_exposed_t *e;
    bool found = false;

    opal_mutex_lock(&mca_osc_rdma2_exposed_lock);
    OPAL_LIST_FOREACH (e, &mca_osc_rdma2_exposed, mca_osc_rdma2_exposed_t) {
        /* no sum that can overflow: addr - base, then the room left */
        if (addr >= e->base && addr - e->base <= e->len && len <= e->len - (addr - e->base)) {
            found = true;
            break;
        }
    }
    opal_mutex_unlock(&mca_osc_rdma2_exposed_lock);
    return found;
}
