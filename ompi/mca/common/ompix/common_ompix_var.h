/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MCA variables whose values are a choice, registered one way by every ompix
 * component.
 */
#ifndef MCA_COMMON_OMPIX_VAR_H
#define MCA_COMMON_OMPIX_VAR_H

#include "ompi_config.h"

#include "opal/mca/base/mca_base_var.h"

BEGIN_C_DECLS

/* Registers COMPONENT's int variable NAME whose values have names (VALUES,
 * ending with { 0, NULL }): Open MPI's variable system then refuses any
 * other value (a message, and the default stays), and ompi_info lists the
 * names.  FLAGS as mca_base_var_register's: MCA_BASE_VAR_FLAG_DWG, which
 * mca_base_component_var_register always adds, deregisters the variable
 * with the component's group when the framework closes the component. */
OMPI_DECLSPEC void mca_common_ompix_var_register_enum(const mca_base_component_t *component,
                                                      const char *name, const char *description,
                                                      const mca_base_var_enum_value_t *values,
                                                      mca_base_var_flag_t flags,
                                                      mca_base_var_info_lvl_t level,
                                                      mca_base_var_scope_t scope, int *storage);

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_VAR_H */
