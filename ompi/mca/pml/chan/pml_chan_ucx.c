/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan's own UCX context and worker, brought up by common/ompix at the
 * first prepare() (programs that bind no channel pay nothing), so channels
 * work whichever PML carries the rest; its active message handler
 * (pml_chan_am.c) and the progress callback, registered with it.
 */
#include "ompi_config.h"

#include "opal/runtime/opal_progress.h"
#include "ompi/runtime/mpiruntime.h"

#include "pml_chan_end.h"

/* Under the component lock. */
int mca_pml_chan_ucx_init(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    const mca_common_ompix_ucx_params_t params = {
        .features = UCP_FEATURE_RMA | UCP_FEATURE_AM,
        .multi_threaded = ompi_mpi_thread_multiple,
        .cpu_atomics = false,
    };
    ucp_address_t *addr;

    if (c->ucx_ready) {
        return OMPI_SUCCESS;
    }
    if (c->ucx_failed) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    c->ucx_failed = true;               /* tried once */
    if (OMPI_SUCCESS != mca_common_ompix_ucx_open(&c->ucx, "pml/chan", &params)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (OMPI_SUCCESS != mca_pml_chan_am_init(c->ucx.worker) ||
        UCS_OK != ucp_worker_get_address(c->ucx.worker, &addr, &c->worker_address_len)) {
        mca_common_ompix_ucx_close(&c->ucx);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    c->worker_address = addr;
    if (!c->progress_registered) {
        opal_progress_register(mca_pml_chan_progress);
        c->progress_registered = true;
    }
    c->ucx_ready = true;
    c->ucx_failed = false;
    MCA_PML_CHAN_VERBOSE(10, "UCX context and worker created (worker address %zu bytes)",
                         c->worker_address_len);
    return OMPI_SUCCESS;
}

void mca_pml_chan_ucx_fini(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;

    if (c->progress_registered) {
        opal_progress_unregister(mca_pml_chan_progress);
        c->progress_registered = false;
    }
    if (!c->ucx_ready) {
        return;
    }
    ucp_worker_release_address(c->ucx.worker, (ucp_address_t *) c->worker_address);
    c->worker_address = NULL;
    c->ucx_ready = false;
    mca_common_ompix_ucx_close(&c->ucx);
}
