/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Registration of ompix's MPI_T performance variables
 * (common_ompix_mpit.h).
 */
#include "ompi_config.h"

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
