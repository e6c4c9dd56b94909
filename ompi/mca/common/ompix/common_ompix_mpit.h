/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPI_T performance variables of ompix's components, registered one way:
 * read-only, continuous counters of type unsigned long long (MPI_T gives
 * a handle the difference from its creation, so a counter only has to
 * grow), verbosity 4 as Open MPI's own (osc/rdma, pml/ob1), read by a
 * callback from counts the component keeps anyway or keeps off its
 * critical path.
 */
#ifndef MCA_COMMON_OMPIX_MPIT_H
#define MCA_COMMON_OMPIX_MPIT_H

#include "ompi_config.h"

#include <stdbool.h>

#include "opal/mca/base/mca_base_pvar.h"

#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"

BEGIN_C_DECLS

typedef struct mca_common_ompix_pvar_t {
    const char *name;               /* <framework>_<component>_ prefixed by MPI_T */
    const char *description;
    int bind;                       /* MCA_BASE_VAR_BIND_* */
    mca_base_get_value_fn_t get_value;
    mca_base_notify_fn_t notify;    /* NULL: one value, nothing to do on bind */
    void *ctx;                      /* the callbacks find it in pvar->ctx */
} mca_common_ompix_pvar_t;

/* Registers one counter of component.  with_group: invalidated when the
 * component's variable group is deregistered (Open MPI's
 * mca_base_component_pvar_register); pml/chan, closed by PML selection
 * while it stays loaded, registers without.  Returns the index or an
 * OPAL error (Open MPI's registration functions' results are ignored by
 * its components too: a missing counter is no reason to fail). */
OMPI_DECLSPEC int mca_common_ompix_pvar_register(const mca_base_component_t *component,
                                                 bool with_group,
                                                 const mca_common_ompix_pvar_t *pvar);

/* The value of a counter: *(unsigned long long *) value = v. */
static inline int mca_common_ompix_pvar_set(void *value, unsigned long long v)
{
    *(unsigned long long *) value = v;
    return OPAL_SUCCESS;
}

/* Counters bound to an object (a communicator) are read as the sum of the
 * object's live things (walked at read time) and of what its gone ones left
 * in a watch record.  A record exists while a handle is bound to its
 * object: MPI_T reports a counter relative to the handle's creation, so
 * counting from the first handle misses nothing, and nothing is kept for
 * objects nobody watches.  Records are found by the object's address only
 * (never followed); the last handle's free removes the record, so a later
 * object at the same address starts from nothing.  A record outlives its
 * object if a handle does, so a late read (erroneous) neither crashes nor
 * runs backwards. */
typedef struct mca_common_ompix_pvar_watch_t {
    struct mca_common_ompix_pvar_watch_t *next;
    const void *obj;
    int handles;
    unsigned long long counts[];    /* the set's ncounts */
} mca_common_ompix_pvar_watch_t;

/* A component's records, under *lock (the component's: it guards the live
 * things too), each with ncounts counts. */
typedef struct mca_common_ompix_pvar_watches_t {
    opal_mutex_t *lock;
    int ncounts;
    mca_common_ompix_pvar_watch_t *head;
} mca_common_ompix_pvar_watches_t;

/* The notify callback's work, under set->lock: a handle bound to obj makes
 * or joins obj's record (one value; OPAL_ERR_OUT_OF_RESOURCE refuses the
 * handle, which could otherwise run backwards), the last one unbound
 * removes it. */
OMPI_DECLSPEC int mca_common_ompix_pvar_watch_notify(mca_common_ompix_pvar_watches_t *set,
                                                     mca_base_pvar_event_t event,
                                                     const void *obj, int *count);

/* The counts of obj's record, or NULL when no handle watches obj; the
 * caller holds set->lock. */
OMPI_DECLSPEC unsigned long long *
mca_common_ompix_pvar_watch_counts(const mca_common_ompix_pvar_watches_t *set, const void *obj);

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_MPIT_H */
