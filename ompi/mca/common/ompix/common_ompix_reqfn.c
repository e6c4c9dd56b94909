/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The stack of layers over ompi_request_functions (common_ompix_reqfn.h
 * says the rule).  Pushes and pops take a lock; wrappers running meanwhile
 * on other threads read the table without it, as Open MPI's own callers
 * do, which is why a layer goes on and off by whole-table copies.
 */
#include "ompi_config.h"

#include "common_ompix_compat_threads.h"
#include "common_ompix_reqfn.h"

static opal_mutex_t mca_common_ompix_reqfn_lock = OPAL_MUTEX_STATIC_INIT;
/* The top layer; each layer's next is the one below it. */
static mca_common_ompix_reqfn_layer_t *mca_common_ompix_reqfn_top = NULL;

static void mca_common_ompix_reqfn_link(mca_common_ompix_reqfn_layer_t *layer)
{
    layer->below = ompi_request_functions;
    layer->next = mca_common_ompix_reqfn_top;
    mca_common_ompix_reqfn_top = layer;
    ompi_request_functions = *layer->fns;
}

/* The table holds the top layer's wrappers unless code outside ompix
 * wrapped them since: then it keeps that code's wrappers, which call ours,
 * which keep calling what they found (harmless once the extension has no
 * object left to handle). */
static void mca_common_ompix_reqfn_unlink_top(mca_common_ompix_reqfn_layer_t *layer)
{
    if (ompi_request_functions.req_wait == layer->fns->req_wait) {
        ompi_request_functions = layer->below;
    }
    mca_common_ompix_reqfn_top = layer->next;
}

/* A layer under the top: the one above it now calls what it called. */
static void mca_common_ompix_reqfn_unlink(mca_common_ompix_reqfn_layer_t *layer)
{
    mca_common_ompix_reqfn_layer_t *above = mca_common_ompix_reqfn_top;

    if (above == layer) {
        mca_common_ompix_reqfn_unlink_top(layer);
        return;
    }
    while (NULL != above && above->next != layer) {
        above = above->next;
    }
    if (NULL != above) {
        above->below = layer->below;
        above->next = layer->next;
    }
}

void mca_common_ompix_reqfn_push(mca_common_ompix_reqfn_layer_t *layer)
{
    OPAL_THREAD_LOCK(&mca_common_ompix_reqfn_lock);
    if (0 == layer->refs++) {
        mca_common_ompix_reqfn_link(layer);
    }
    OPAL_THREAD_UNLOCK(&mca_common_ompix_reqfn_lock);
}

void mca_common_ompix_reqfn_pop(mca_common_ompix_reqfn_layer_t *layer)
{
    OPAL_THREAD_LOCK(&mca_common_ompix_reqfn_lock);
    if (layer->refs > 0 && 0 == --layer->refs) {
        mca_common_ompix_reqfn_unlink(layer);
        layer->next = NULL;
    }
    OPAL_THREAD_UNLOCK(&mca_common_ompix_reqfn_lock);
}
