/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The registry of component entry points (see common_ompix_registry.h).
 * A handful of entries at most, looked up when an extension object is
 * created, so a list under a spinlock is enough; the lock is a static
 * opal atomic lock because the registry is used before and outside any
 * component's initialisation.
 */
#include "ompi_config.h"

#include <string.h>

#include "ompi/mca/common/ompix/common_ompix_compat_atomic.h"

#include "common_ompix_registry.h"

static mca_common_ompix_registry_entry_t *mca_common_ompix_registry_head = NULL;
static opal_atomic_lock_t mca_common_ompix_registry_lock = OMPIX_ATOMIC_LOCK_INITIALIZER;

/* Unlinks the entry named `name`, if listed; the lock is held. */
static void mca_common_ompix_registry_unlink(const char *name)
{
    mca_common_ompix_registry_entry_t **p = &mca_common_ompix_registry_head;

    for (; NULL != *p; p = &(*p)->next) {
        if (0 == strcmp((*p)->name, name)) {
            *p = (*p)->next;
            return;
        }
    }
}

void mca_common_ompix_registry_publish(mca_common_ompix_registry_entry_t *entry)
{
    opal_atomic_lock(&mca_common_ompix_registry_lock);
    /* A component opened again (ompi_info, re-initialisation) replaces
     * its earlier entry. */
    mca_common_ompix_registry_unlink(entry->name);
    entry->next = mca_common_ompix_registry_head;
    mca_common_ompix_registry_head = entry;
    opal_atomic_unlock(&mca_common_ompix_registry_lock);
}

void mca_common_ompix_registry_withdraw(mca_common_ompix_registry_entry_t *entry)
{
    mca_common_ompix_registry_entry_t **p;

    opal_atomic_lock(&mca_common_ompix_registry_lock);
    for (p = &mca_common_ompix_registry_head; NULL != *p; p = &(*p)->next) {
        if (*p == entry) {
            *p = entry->next;
            break;
        }
    }
    opal_atomic_unlock(&mca_common_ompix_registry_lock);
}

const void *mca_common_ompix_registry_lookup(const char *name, uint32_t version)
{
    const mca_common_ompix_registry_entry_t *e;
    const void *table = NULL;

    opal_atomic_lock(&mca_common_ompix_registry_lock);
    for (e = mca_common_ompix_registry_head; NULL != e; e = e->next) {
        if (0 == strcmp(e->name, name)) {
            table = e->version == version ? e->table : NULL;
            break;
        }
    }
    opal_atomic_unlock(&mca_common_ompix_registry_lock);
    return table;
}
