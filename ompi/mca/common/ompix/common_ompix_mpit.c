/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Registration of ompix's MPI_T performance variables, and the watch
 * records of the counters bound to an object (common_ompix_mpit.h).
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "common_ompix_mpit.h"

int mca_common_ompix_pvar_register(const mca_base_component_t *component, bool with_group,
                                   const mca_common_ompix_pvar_t *pvar)
{
    int flags = MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS;

    if (with_group) {
        flags |= MCA_BASE_PVAR_FLAG_IWG;
    }
    return mca_base_pvar_register(component->mca_project_name, component->mca_type_name,
                                  component->mca_component_name, pvar->name, pvar->description,
                                  OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_COUNTER,
                                  MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL, pvar->bind,
                                  (mca_base_pvar_flag_t) flags, pvar->get_value, NULL,
                                  pvar->notify, pvar->ctx);
}

static mca_common_ompix_pvar_watch_t *
mca_common_ompix_pvar_watch_find(const mca_common_ompix_pvar_watches_t *set, const void *obj)
{
    mca_common_ompix_pvar_watch_t *w = set->head;

    while (NULL != w && w->obj != obj) {
        w = w->next;
    }
    return w;
}

unsigned long long *
mca_common_ompix_pvar_watch_counts(const mca_common_ompix_pvar_watches_t *set, const void *obj)
{
    mca_common_ompix_pvar_watch_t *w = mca_common_ompix_pvar_watch_find(set, obj);

    return NULL != w ? w->counts : NULL;
}

/* A handle bound to obj: its record made or joined. */
static int mca_common_ompix_pvar_watch_bind(mca_common_ompix_pvar_watches_t *set,
                                            const void *obj)
{
    mca_common_ompix_pvar_watch_t *w = mca_common_ompix_pvar_watch_find(set, obj);

    if (NULL == w) {
        w = calloc(1, sizeof(*w) + (size_t) set->ncounts * sizeof(w->counts[0]));
        if (NULL == w) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        w->obj = obj;
        w->next = set->head;
        set->head = w;
    }
    w->handles++;
    return OPAL_SUCCESS;
}

/* A handle on obj freed: the last one removes the record. */
static void mca_common_ompix_pvar_watch_unbind(mca_common_ompix_pvar_watches_t *set,
                                               const void *obj)
{
    mca_common_ompix_pvar_watch_t **pp = &set->head, *w;

    while (NULL != *pp && (*pp)->obj != obj) {
        pp = &(*pp)->next;
    }
    w = *pp;
    if (NULL != w && 0 == --w->handles) {
        *pp = w->next;
        free(w);
    }
}

int mca_common_ompix_pvar_watch_notify(mca_common_ompix_pvar_watches_t *set,
                                       mca_base_pvar_event_t event, const void *obj, int *count)
{
    int rc = OPAL_SUCCESS;

    OPAL_THREAD_LOCK(set->lock);
    if (MCA_BASE_PVAR_HANDLE_BIND == event) {
        *count = 1;
        rc = mca_common_ompix_pvar_watch_bind(set, obj);
    } else if (MCA_BASE_PVAR_HANDLE_UNBIND == event) {
        mca_common_ompix_pvar_watch_unbind(set, obj);
    }
    OPAL_THREAD_UNLOCK(set->lock);
    return rc;
}
