/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan's own UCX context and worker, brought up by common/ompix at the
 * first prepare() (programs that bind no channel pay nothing), so channels
 * work whichever PML carries the rest; its active message handler
 * (pml_chan_path_am.c) and the progress callback, registered with it; what the
 * TAG path (pml_chan_path_tag.c) needs to know of it.
 */
#include "ompi_config.h"

#include "opal/runtime/opal_progress.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/mpiruntime.h"

#include "pml_chan_path.h"

/* Whether a peer on this node can map memory our context allocates
 * (ucp_rkey_ptr: UCX has a shared-memory memory domain here), found the
 * only way UCX 1.13 tells: mapping a block of ours through an endpoint to
 * ourselves.  Both ends of a channel ship this in their blobs, so that
 * they choose the TAG path alike (pml_chan_path_tag.c:mca_pml_chan_tag_wanted). */
static bool mca_pml_chan_ucx_mappable(mca_pml_chan_component_t *c)
{
    ompi_proc_t *self = ompi_proc_local();
    ucp_mem_h memh;
    ucp_rkey_h rkey;
    ucp_ep_h ep;
    void *base = NULL, *rkey_buf, *ptr;
    size_t rkey_len;
    bool ok = false;

    if (OMPI_SUCCESS != mca_common_ompix_ucx_mem_map(&c->ucx, NULL, 64, true, &memh, &base)) {
        return false;
    }
    if (UCS_OK == ucp_rkey_pack(c->ucx.context, memh, &rkey_buf, &rkey_len)) {
        if (OMPI_SUCCESS == mca_common_ompix_ucx_proc_set_address(&c->ucx, self,
                                                                  c->worker_address,
                                                                  c->worker_address_len) &&
            OMPI_SUCCESS == mca_common_ompix_ucx_proc_ep(&c->ucx, self, &ep) &&
            UCS_OK == ucp_ep_rkey_unpack(ep, rkey_buf, &rkey)) {
            ok = UCS_OK == ucp_rkey_ptr(rkey, (uint64_t) (uintptr_t) base, &ptr);
            ucp_rkey_destroy(rkey);
        }
        ucp_rkey_buffer_release(rkey_buf);
    }
    ucp_mem_unmap(c->ucx.context, memh);
    return ok;
}

/* Under the component lock. */
int mca_pml_chan_ucx_init(void)
{
    mca_pml_chan_component_t *c = &mca_pml_chan_component;
    const mca_common_ompix_ucx_params_t params = {
        .features = UCP_FEATURE_RMA | UCP_FEATURE_AM | UCP_FEATURE_TAG,
        .multi_threaded = ompi_mpi_thread_multiple,
        .cpu_atomics = false,
    };
    ucp_context_attr_t attr;
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
    attr.field_mask = UCP_ATTR_FIELD_REQUEST_SIZE;
    if (OMPI_SUCCESS != mca_pml_chan_am_init(c->ucx.worker) ||
        UCS_OK != ucp_context_query(c->ucx.context, &attr) ||
        UCS_OK != ucp_worker_get_address(c->ucx.worker, &addr, &c->worker_address_len)) {
        mca_common_ompix_ucx_close(&c->ucx);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    c->worker_address = addr;
    c->request_size = attr.request_size;
    c->mappable = mca_pml_chan_ucx_mappable(c);
    if (!c->progress_registered) {
        opal_progress_register(mca_pml_chan_progress);
        c->progress_registered = true;
    }
    c->ucx_ready = true;
    c->ucx_failed = false;
    MCA_PML_CHAN_VERBOSE(10, "UCX context and worker created (worker address %zu bytes); "
                         "same-node peers %s map its memory",
                         c->worker_address_len, c->mappable ? "can" : "can not");
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
