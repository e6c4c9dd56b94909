/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What ompix's request wrappers share about Open MPI's request engine
 * (common_ompix_request.h): the request a layer is starting on this
 * thread.
 */
#include "ompi_config.h"

#include "common_ompix_request.h"

__thread ompi_request_t *mca_common_ompix_request_layer_start = NULL;
