/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What a persistent point-to-point request was created with.  pml/chan
 * records it for every PML (its describe() through the registry); without
 * it, ob1's requests carry it in Open MPI's mca_pml_base_request_t.  cm's
 * requests share only the first fields of that struct (no buffer, count,
 * peer or tag) and pml ucx keeps no communicator or peer at all, so those
 * PMLs need pml/chan.
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/mca/pml/base/base.h"
#include "ompi/mca/pml/base/pml_base_request.h"
#include "opal/util/show_help.h"

#include "mpiext_chan_internal.h"

/* The head of Open MPI's mca_pml_base_send_request_t, whose header can not
 * be included from Debian's packages (it needs ompi/peruse/peruse.h, which
 * is not installed). */
typedef struct ompix_chan_base_send_t {
    mca_pml_base_request_t req_base;
    const void *req_addr;
    size_t req_bytes_packed;
    mca_pml_base_send_mode_t req_send_mode;
} ompix_chan_base_send_t;

/* Open MPI's send mode as the contract numbers it (MCA_PML_CHAN_MODE_*). */
static int ompix_chan_describe_mode(mca_pml_base_send_mode_t mode)
{
    switch (mode) {
    case MCA_PML_BASE_SEND_SYNCHRONOUS:
        return MCA_PML_CHAN_MODE_SYNCHRONOUS;
    case MCA_PML_BASE_SEND_BUFFERED:
        return MCA_PML_CHAN_MODE_BUFFERED;
    case MCA_PML_BASE_SEND_READY:
        return MCA_PML_CHAN_MODE_READY;
    default:
        return MCA_PML_CHAN_MODE_STANDARD;
    }
}

static bool ompix_chan_pml_is(const char *name)
{
    return 0 == strcmp(mca_pml_base_selected_component.pmlm_version.mca_component_name, name);
}

static int ompix_chan_describe_base(ompi_request_t *req, mca_pml_chan_reqinfo_t *info)
{
    mca_pml_base_request_t *base = (mca_pml_base_request_t *) req;

    info->is_send = MCA_PML_REQUEST_SEND == base->req_type;
    if (!info->is_send && MCA_PML_REQUEST_RECV != base->req_type) {
        return MPI_ERR_REQUEST;
    }
    info->send_mode = info->is_send
        ? ompix_chan_describe_mode(((ompix_chan_base_send_t *) req)->req_send_mode) : 0;
    info->buf = base->req_addr;
    info->count = base->req_count;
    info->type = base->req_datatype;
    info->peer = base->req_peer;
    info->tag = base->req_tag;
    info->comm = base->req_comm;
    return MPI_SUCCESS;
}

/* MPI_SUCCESS and *info; MPI_ERR_REQUEST (not a persistent point-to-point
 * request, or a channel) or MPI_ERR_UNSUPPORTED_OPERATION (no way to read
 * it under this PML), with *why. */
int ompix_chan_describe(ompi_request_t *req, mca_pml_chan_reqinfo_t *info, const char **why)
{
    const mca_pml_chan_api_t *engine = ompix_chan_global.engine;

    if (NULL != ompix_chan_kind(req)) {
        *why = "the request is a bound channel already";
        return MPI_ERR_REQUEST;
    }
    if (req->req_persistent && OMPI_REQUEST_NOOP == req->req_type
        && OMPI_REQUEST_INACTIVE == req->req_state) {
        /* Open MPI's MPI_Send_init & co. return such a request for
         * MPI_PROC_NULL without asking the PML (a persistent collective
         * with nothing to do gets one too: the two can not be told apart). */
        memset(info, 0, sizeof(*info));
        info->peer = MPI_PROC_NULL;
        return MPI_SUCCESS;
    }
    if (!req->req_persistent || OMPI_REQUEST_PML != req->req_type) {
        *why = "the request is not a persistent point-to-point request";
        return MPI_ERR_REQUEST;
    }
    if (OMPI_REQUEST_INACTIVE != req->req_state) {
        *why = "the request is active";
        return MPI_ERR_REQUEST;
    }
    if (NULL != engine && NULL != engine->describe) {
        if (MPI_SUCCESS != engine->describe(req, info)) {
            *why = "the request is not a persistent point-to-point request";
            return MPI_ERR_REQUEST;
        }
        return MPI_SUCCESS;
    }
    if (ompix_chan_pml_is("ob1")) {
        if (MPI_SUCCESS != ompix_chan_describe_base(req, info)) {
            *why = "the request is not a persistent point-to-point request";
            return MPI_ERR_REQUEST;
        }
        return MPI_SUCCESS;
    }
    opal_show_help("help-mpiext-chan.txt", "no-describe", true,
                   mca_pml_base_selected_component.pmlm_version.mca_component_name);
    *why = "cannot read persistent requests of this PML without pml/chan";
    return MPI_ERR_UNSUPPORTED_OPERATION;
}
