/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Accumulate atomicity across windows that overlap the same memory.
 *
 * Element-mode windows update elements with CPU atomics; lock-mode windows
 * (created and dynamic ones) read, combine and write back under the target
 * process's accumulate lock.  The two are not atomic with respect to each
 * other, so when a process creates a lock-mode window over (or attaches)
 * memory that overlaps the local memory of one of its element-mode
 * windows, it marks that window's state block `mixed`, and from then on
 * every origin's accumulates to that rank of that window take the lock
 * path too.  The mark is set before the overlapping window's creation
 * completes (or before MPI_Win_attach returns), so before any origin can
 * reach the memory through the lock-mode window, and it is never cleared:
 * an element-mode origin cannot be caught between the two mechanisms.
 */
#include "ompi_config.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "osc_rdma2_overlap.h"

typedef struct {
    opal_list_item_t super;
    uintptr_t base;
    size_t len;
    mca_osc_rdma2_module_t *module;
} mca_osc_rdma2_range_t;
static OBJ_CLASS_INSTANCE(mca_osc_rdma2_range_t, opal_list_item_t, NULL, NULL);

void mca_osc_rdma2_overlap_init(void)
{
    OBJ_CONSTRUCT(&mca_osc_rdma2_component.element_ranges, opal_list_t);
}

void mca_osc_rdma2_overlap_fini(void)
{
    OPAL_LIST_DESTRUCT(&mca_osc_rdma2_component.element_ranges);
}

int mca_osc_rdma2_overlap_add_element(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_range_t *r;

    if (MCA_OSC_RDMA2_ACC_ELEMENT != module->acc_mode || 0 == module->size) {
        return OMPI_SUCCESS;
    }
    r = OBJ_NEW(mca_osc_rdma2_range_t);
    if (NULL == r) return OMPI_ERR_OUT_OF_RESOURCE;
    r->base = (uintptr_t) module->base;
    r->len = module->size;
    r->module = module;
    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    opal_list_append(&mca_osc_rdma2_component.element_ranges, &r->super);
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
    return OMPI_SUCCESS;
}

void mca_osc_rdma2_overlap_remove_element(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_range_t *r, *next;

    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    OPAL_LIST_FOREACH_SAFE (r, next, &mca_osc_rdma2_component.element_ranges,
                            mca_osc_rdma2_range_t) {
        if (r->module == module) {
            opal_list_remove_item(&mca_osc_rdma2_component.element_ranges, &r->super);
            OBJ_RELEASE(r);
        }
    }
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
}

void mca_osc_rdma2_overlap_claim(const void *base, size_t len)
{
    uintptr_t b = (uintptr_t) base;
    mca_osc_rdma2_range_t *r;

    if (0 == len) return;
    OPAL_THREAD_LOCK(&mca_osc_rdma2_component.lock);
    OPAL_LIST_FOREACH (r, &mca_osc_rdma2_component.element_ranges, mca_osc_rdma2_range_t) {
        if (b < r->base + r->len && r->base < b + len && 0 == r->module->state->mixed) {
            mca_common_ompix_atomic_store_seq_64(&r->module->state->mixed, 1);
            MCA_OSC_RDMA2_VERBOSE(10, "memory at %p overlaps window %s: its accumulates to this "
                                  "rank take the lock", base, r->module->win->w_name);
        }
    }
    OPAL_THREAD_UNLOCK(&mca_osc_rdma2_component.lock);
}
