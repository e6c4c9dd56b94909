/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Layers over Open MPI's request functions (ompi_request_functions, the
 * table behind MPI_Test/MPI_Wait and their any/all/some forms).  Several
 * MPI extensions wrap that table (continue: polling runs continuations;
 * chan: engine channels wait in the engine); each is one layer here, and
 * one rule installs and removes them all:
 *
 * - a layer is pushed on top of whatever the table holds and remembers it
 *   in its own `below`, which its wrappers call (kept in the layer, i.e. in
 *   the extension's own data, so a wrapper's call below costs what a call
 *   through its own copy cost);
 * - pushes are counted per layer: the first links it, the last pop
 *   unlinks it;
 * - a layer unlinks from anywhere in the stack: the layer above it takes
 *   over its `below`, so the table is restored to Open MPI's own functions
 *   once every layer is gone, whatever the order the extensions finalize in.
 */
#ifndef MCA_COMMON_OMPIX_REQFN_H
#define MCA_COMMON_OMPIX_REQFN_H

#include "ompi_config.h"

#include "ompi/request/request.h"

BEGIN_C_DECLS

typedef struct mca_common_ompix_reqfn_layer_t {
    /* Set by the extension: the layer's name (for debugging) and its
     * wrappers, all eight entries. */
    const char *name;
    const ompi_request_fns_t *fns;
    /* Set here: the functions the wrappers call (what the table held when
     * the layer went on, or what the unlinked layer below held). */
    ompi_request_fns_t below;
    /* Private to common_ompix_reqfn.c. */
    struct mca_common_ompix_reqfn_layer_t *next; /* the layer below in the stack */
    int refs;
} mca_common_ompix_reqfn_layer_t;

/* Puts layer on top of the request functions if it is not on yet, and
 * counts the push.  layer must outlive MPI (a static). */
OMPI_DECLSPEC void mca_common_ompix_reqfn_push(mca_common_ompix_reqfn_layer_t *layer);

/* Undoes one push; the last one unlinks the layer.  No-op for a layer
 * that is not on. */
OMPI_DECLSPEC void mca_common_ompix_reqfn_pop(mca_common_ompix_reqfn_layer_t *layer);

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_REQFN_H */
