/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Where opal_show_help finds ompix's help files (see common_ompix_help.h).
 */
#include "ompi_config.h"

#include <stdbool.h>
#include <string.h>

#include "opal/mca/installdirs/installdirs.h"
#include "opal/util/show_help.h"

#include "common_ompix_help.h"

void mca_common_ompix_help_init(void)
{
#ifdef OMPIX_HELP_DIR
    static bool added = false;

    if (!added && 0 != strcmp(OMPIX_HELP_DIR, opal_install_dirs.opaldatadir)) {
        (void) opal_show_help_add_dir(OMPIX_HELP_DIR);
    }
    added = true;
#endif
}
