/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Plugin build only.  Open MPI's opal/mca/common/ucx/common_ucx.h includes
 * "opal/include/opal/constants.h", a path of the source tree; an installed
 * Open MPI has that header as opal/constants.h.  configure puts this
 * directory on the include path only when the installed headers need it.
 */
#include "opal/constants.h"
