/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Help files (opal_show_help) of ompix's components.  Open MPI looks for
 * them in its own data directory, where an Open MPI tree installs them; the
 * plugin build installs them there too unless given --prefix, and then
 * defines OMPIX_HELP_DIR, the directory it used.
 */
#ifndef MCA_COMMON_OMPIX_HELP_H
#define MCA_COMMON_OMPIX_HELP_H

#include "ompi_config.h"

BEGIN_C_DECLS

/* Makes our help files findable; components call it when they open (any
 * number of times). */
OMPI_DECLSPEC void mca_common_ompix_help_init(void);

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_HELP_H */
