/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Finding the engine.  pml/chan publishes its table when Open MPI opened
 * it beside the selected PML: with no --mca pml at all, or with
 * --mca pml X,chan.  With an explicit list that does not name it
 * (--mca pml ucx, OMPI_MCA_pml=ucx, "pml = ucx" in a params file: how UCX
 * sites run) Open MPI never opens it, and channels would be left to the
 * fallback, or to nothing under a PML whose requests the fallback can not
 * read.  So at its first bind the extension opens pml/chan itself through
 * the MCA base: the component among the pml framework's static
 * components (linked into libmpi: 5.0's default in-tree build) or found in
 * the repository (a DSO: the plugin build, 4.1's default in-tree build),
 * then its register, open and close functions, which is the sequence Open MPI runs for a PML it did not
 * select and in which pml/chan stays loaded beside the selected one.  It
 * is not added to the framework's list of open components, whose close at
 * MPI_Finalize would run pml/chan's close once more.  A list that
 * excludes it (--mca pml ^chan) is obeyed.
 */

#include "ompi_config.h"

#include <string.h>

#include "opal/mca/base/mca_base_component_repository.h"
#include "opal/util/argv.h"
#include "ompi/mca/common/ompix/common_ompix_registry.h"
#include "ompi/mca/pml/base/base.h"
#include "ompi/mca/pml/pml.h"

#include "mpiext_chan_internal.h"

#define OMPIX_CHAN_ENGINE_NAME "chan"

/* Whether the pml selection is an exclusion list that names chan. */
static bool ompix_chan_selection_excludes_chan(const char *list)
{
    char **names;
    bool found = false;

    if ('^' != list[0]) {
        return false;
    }
    names = opal_argv_split(list + 1, ',');
    for (int i = 0; NULL != names && NULL != names[i]; ++i) {
        found = found || 0 == strcmp(names[i], OMPIX_CHAN_ENGINE_NAME);
    }
    opal_argv_free(names);
    return found;
}

/* pml/chan's component from the pml framework's static components. */
static const mca_base_component_t *ompix_chan_engine_static(void)
{
    const mca_base_component_t **c = ompi_pml_base_framework.framework_static_components;

    for (int i = 0; NULL != c && NULL != c[i]; ++i) {
        if (0 == strcmp(c[i]->mca_component_name, OMPIX_CHAN_ENGINE_NAME)) {
            return c[i];
        }
    }
    return NULL;
}

/* pml/chan's component opened from the repository (its DSO loaded), not
 * left in the framework's list (see above). */
static const mca_base_component_t *ompix_chan_engine_dso(void)
{
    mca_base_component_repository_item_t *ri, *found = NULL;
    mca_base_component_list_item_t *cli;
    opal_list_t *items = NULL;

    if (OPAL_SUCCESS != mca_base_component_repository_get_components(&ompi_pml_base_framework,
                                                                     &items)) {
        return NULL;
    }
    OPAL_LIST_FOREACH (ri, items, mca_base_component_repository_item_t) {
        if (0 == strcmp(ri->ri_name, OMPIX_CHAN_ENGINE_NAME)) {
            found = ri;
        }
    }
    if (NULL == found
        || OPAL_SUCCESS != mca_base_component_repository_open(&ompi_pml_base_framework, found)) {
        return NULL;
    }
    OPAL_LIST_FOREACH (cli, &ompi_pml_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        if (cli->cli_component == found->ri_component_struct) {
            opal_list_remove_item(&ompi_pml_base_framework.framework_components, &cli->super);
            OBJ_RELEASE(cli);
            break;
        }
    }
    return found->ri_component_struct;
}

/* Loads pml/chan beside the selected PML when Open MPI did not. */
static void ompix_chan_engine_load(void)
{
    const char *selection = ompi_pml_base_framework.framework_selection;
    const mca_base_component_t *c;

    if (NULL == mca_pml.pml_isend_init || NULL == selection
        || ompix_chan_selection_excludes_chan(selection)) {
        return;         /* no PML selected, no explicit list, or chan excluded */
    }
    c = ompix_chan_engine_static();
    if (NULL == c) {
        c = ompix_chan_engine_dso();
    }
    if (NULL == c || NULL == c->mca_open_component || NULL == c->mca_close_component) {
        return;
    }
    if (NULL != c->mca_register_component_params
        && OPAL_SUCCESS != c->mca_register_component_params()) {
        return;
    }
    if (OPAL_SUCCESS == c->mca_open_component()) {
        (void) c->mca_close_component();    /* stays loaded, publishes its table */
    }
}

/* The engine's table: pml/chan's, loaded here if needed; NULL without it. */
const mca_pml_chan_api_t *ompix_chan_engine_find(void)
{
    const mca_pml_chan_api_t *engine = (const mca_pml_chan_api_t *)
        mca_common_ompix_registry_lookup(MCA_PML_CHAN_API_NAME, MCA_PML_CHAN_API_VERSION);

    if (NULL == engine) {
        ompix_chan_engine_load();
        engine = (const mca_pml_chan_api_t *)
            mca_common_ompix_registry_lookup(MCA_PML_CHAN_API_NAME, MCA_PML_CHAN_API_VERSION);
    }
    return engine;
}
