/*
 * Copyright (c) 2026 The ompix developers.
 *
 * ompix's version and what it provides as read-only MCA variables: an Open
 * MPI user finds them with ompi_info (ompi_info --param pml chan,
 * ompi_info --all | grep ompix) or reads them through MPI_T.
 */
#include "ompi_config.h"

#include "common_ompix_version.h"

static void mca_common_ompix_version_var(const mca_base_component_t *component,
                                         const char *name, const char *description,
                                         char **storage)
{
    (void) mca_base_component_var_register(component, name, description,
                                           MCA_BASE_VAR_TYPE_STRING, NULL, 0,
                                           MCA_BASE_VAR_FLAG_DEFAULT_ONLY, OPAL_INFO_LVL_1,
                                           MCA_BASE_VAR_SCOPE_CONSTANT, storage);
}

void mca_common_ompix_version_register(const mca_base_component_t *component,
                                       char **version, char **provides)
{
    /* The variable system keeps its own copy of the string in *storage. */
    *version = (char *) MCA_COMMON_OMPIX_VERSION;
    mca_common_ompix_version_var(component, "ompix_version",
                                 "Version of ompix, the extensions for Open MPI this component "
                                 "comes with (NEWS says what changed; README.md says how to "
                                 "report bugs)",
                                 version);
    *provides = (char *) ("MPI extensions " MCA_COMMON_OMPIX_MPI_EXTENSIONS
                          " (<mpi-ext.h>, MPIX_ functions); MCA components "
                          MCA_COMMON_OMPIX_COMPONENTS);
    mca_common_ompix_version_var(component, "ompix_provides",
                                 "What ompix " MCA_COMMON_OMPIX_VERSION " provides", provides);
}
