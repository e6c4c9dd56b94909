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

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_MPIT_H */
