/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MCA variables whose values are a choice (common_ompix_var.h).
 */
#include "ompi_config.h"

#include <stdio.h>

#include "opal/class/opal_object.h"

#include "common_ompix_var.h"

void mca_common_ompix_var_register_enum(const mca_base_component_t *component, const char *name,
                                        const char *description,
                                        const mca_base_var_enum_value_t *values,
                                        mca_base_var_flag_t flags, mca_base_var_info_lvl_t level,
                                        mca_base_var_scope_t scope, int *storage)
{
    mca_base_var_enum_t *enumerator = NULL;
    /* Room for the type and component names whole, as the component holds them. */
    char enum_name[sizeof(component->mca_type_name) + sizeof(component->mca_component_name)
                   + 64];

    snprintf(enum_name, sizeof(enum_name), "%s_%s_%s", component->mca_type_name,
             component->mca_component_name, name);
    (void) mca_base_var_enum_create(enum_name, values, &enumerator);
    (void) mca_base_var_register(component->mca_project_name, component->mca_type_name,
                                 component->mca_component_name, name, description,
                                 MCA_BASE_VAR_TYPE_INT, enumerator, 0, flags, level, scope,
                                 storage);
    /* The variable keeps its own reference. */
    if (NULL != enumerator) {
        OBJ_RELEASE(enumerator);
    }
}
