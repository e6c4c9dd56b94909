/*
 * Copyright (c) 2026 The ompix developers.
 *
 * How an MPI extension reaches a component that Open MPI loaded with
 * dlopen.  The extension lives in libompix (plugin build) or libmpi
 * (in-tree build) and can not link against a component's DSO, which may
 * not even be loaded; both link this library, which exists once per
 * process (libmca_common_ompix, or libmpi itself in-tree), so a component
 * publishes a table of entry points here when it opens and the extension
 * looks it up by name.  No environment variables, no dlsym.
 *
 * A table's layout is declared in a header of the component that the
 * extension includes, with a version number bumped on every change: a
 * lookup with another version finds nothing, and the extension then uses
 * its generic path, as it does when the component is not loaded.
 */
#ifndef MCA_COMMON_OMPIX_REGISTRY_H
#define MCA_COMMON_OMPIX_REGISTRY_H

#include "ompi_config.h"

#include <stdint.h>

BEGIN_C_DECLS

typedef struct mca_common_ompix_registry_entry_t {
    struct mca_common_ompix_registry_entry_t *next;  /* the registry's own */
    const char *name;           /* "<framework>/<component>", e.g. "osc/rdma2" */
    uint32_t version;           /* layout of *table */
    const void *table;          /* the component's entry points */
} mca_common_ompix_registry_entry_t;

/* The entry (owned by the component, usually static) is listed until
 * withdrawn; publish it when the component opens, withdraw it before the
 * component closes (Open MPI unloads it after that). */
OMPI_DECLSPEC void mca_common_ompix_registry_publish(mca_common_ompix_registry_entry_t *entry);
OMPI_DECLSPEC void mca_common_ompix_registry_withdraw(mca_common_ompix_registry_entry_t *entry);

/* The table published under `name` with this version, or NULL.  Valid
 * until the component closes (MPI_Finalize for the frameworks ompix uses). */
OMPI_DECLSPEC const void *mca_common_ompix_registry_lookup(const char *name, uint32_t version);

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_REGISTRY_H */
