/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The window's synchronization object (osc_rdma2_sync.h): its lifetime
 * and the PSCW group caches it keeps.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/constants.h"

#include "osc_rdma2_sync.h"

int mca_osc_rdma2_sync_init(mca_osc_rdma2_sync_t *sync, int size)
{
    memset(sync, 0, sizeof(*sync));
    sync->target = calloc(size, sizeof(*sync->target));
    return NULL == sync->target ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
}

void mca_osc_rdma2_sync_fini(mca_osc_rdma2_sync_t *sync)
{
    mca_osc_rdma2_group_cache_clear(&sync->post_cache);
    mca_osc_rdma2_group_cache_clear(&sync->start_cache);
    free(sync->target);
    sync->target = NULL;
}

void mca_osc_rdma2_group_cache_clear(mca_osc_rdma2_group_cache_t *cache)
{
    if (NULL != cache->group) {
        OBJ_RELEASE(cache->group);
        free(cache->ranks);
        cache->group = NULL;
        cache->ranks = NULL;
    }
}
