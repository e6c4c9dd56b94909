/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What a persistent point-to-point request was created with.  pml/chan
 * records it for every PML (its describe() through the registry) from the
 * moment it is loaded; a request created before (pml/chan loaded by the
 * extension at its first bind, ../README-design.md) or without it is read
 * from the selected PML's own request: ob1's carry it all in Open MPI's
 * mca_pml_base_request_t; pml ucx's persistent requests keep the buffer,
 * count, datatype and send mode, the communicator in the generic request,
 * and peer and tag encoded in the UCX tag, mask and endpoint.  cm's
 * requests keep no buffer, count, peer or tag: only pml/chan describes
 * them.
 */

#include "ompi_config.h"

#include <string.h>

#include "ompi/mca/common/ompix/common_ompix_compat_comm.h"
#include "ompi/mca/pml/base/base.h"
#include "ompi/mca/pml/base/pml_base_request.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/proc/proc.h"
#include "opal/util/show_help.h"

#include "mpiext_chan_bundle.h"
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

/* The persistent request of Open MPI 4.1's pml ucx
 * (ompi/mca/pml/ucx/pml_ucx_request.h, not installed by Open MPI's
 * packages): read only for a request whose req_start is pml ucx's start,
 * and only after the fields that can be checked agree (the context id in
 * the UCX tag, the datatype's class, the endpoint among the
 * communicator's).  UCX tag: MPI tag (24 bits) | source rank (20) |
 * context id (20): the local one, c_index on 5.0 (mca_common_ompix_comm_local_cid). */
typedef struct ompix_chan_ucx_preq_t {
    ompi_request_t ompi;
    ompi_request_t *tmp_req;
    unsigned flags;                    /* bit 0: a send */
    void *buffer;
    size_t count;
    uint64_t ucp_datatype;
    ompi_datatype_t *ompi_datatype;
    uint64_t tag;
    struct {
        mca_pml_base_send_mode_t mode;
        void *ep;                      /* ucp_ep_h of the destination */
    } send;
    struct {
        uint64_t tag_mask;
    } recv;
} ompix_chan_ucx_preq_t;

#define OMPIX_CHAN_UCX_FLAG_SEND 0x1
#define OMPIX_CHAN_UCX_CID_MASK  0xfffffull
#define OMPIX_CHAN_UCX_SRC_SHIFT 20
#define OMPIX_CHAN_UCX_SRC_MASK  (0xfffffull << 20)
#define OMPIX_CHAN_UCX_TAG_SHIFT 40
#define OMPIX_CHAN_UCX_TAG_MASK  0x7fffff0000000000ull

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

/* The rank in comm's remote group (its group, for an intracommunicator)
 * whose PML endpoint is ep, or -1. */
static int ompix_chan_ucx_peer(ompi_communicator_t *comm, void *ep)
{
    int n = comm->c_remote_group->grp_proc_count;

    for (int i = 0; i < n; ++i) {
        ompi_proc_t *proc = ompi_group_peer_lookup_existing(comm->c_remote_group, i);

        if (NULL != proc && proc->proc_endpoints[OMPI_PROC_ENDPOINT_TAG_PML] == ep) {
            return i;
        }
    }
    return -1;
}

/* A persistent request of pml ucx (req_start checked by the caller). */
static int ompix_chan_describe_ucx(ompi_request_t *req, mca_pml_chan_reqinfo_t *info)
{
    const ompix_chan_ucx_preq_t *u = (const ompix_chan_ucx_preq_t *) req;
    ompi_communicator_t *comm = req->req_mpi_object.comm;

    opal_class_t *cls;

    if (NULL == comm || NULL == u->ompi_datatype
        || (u->tag & OMPIX_CHAN_UCX_CID_MASK) != (mca_common_ompix_comm_local_cid(comm) & OMPIX_CHAN_UCX_CID_MASK)) {
        return MPI_ERR_UNSUPPORTED_OPERATION;  /* not the layout we know */
    }
    /* Predefined datatypes are initialized as opal's class, others as ompi's. */
    cls = ((opal_object_t *) u->ompi_datatype)->obj_class;
    if (OBJ_CLASS(ompi_datatype_t) != cls && OBJ_CLASS(opal_datatype_t) != cls) {
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    info->is_send = 0 != (u->flags & OMPIX_CHAN_UCX_FLAG_SEND);
    info->buf = u->buffer;
    info->count = u->count;
    info->type = u->ompi_datatype;
    info->comm = comm;
    info->tag = (int) (u->tag >> OMPIX_CHAN_UCX_TAG_SHIFT);
    if (info->is_send) {
        info->send_mode = ompix_chan_describe_mode(u->send.mode);
        info->peer = ompix_chan_ucx_peer(comm, u->send.ep);
        return info->peer < 0 ? MPI_ERR_UNSUPPORTED_OPERATION : MPI_SUCCESS;
    }
    info->send_mode = 0;
    info->peer = (u->recv.tag_mask & OMPIX_CHAN_UCX_SRC_MASK)
        ? (int) ((u->tag & OMPIX_CHAN_UCX_SRC_MASK) >> OMPIX_CHAN_UCX_SRC_SHIFT)
        : MPI_ANY_SOURCE;
    if (!(u->recv.tag_mask & OMPIX_CHAN_UCX_TAG_MASK)) {
        info->tag = MPI_ANY_TAG;
    }
    return MPI_SUCCESS;
}

/* A request of the selected PML that pml/chan did not record. */
static int ompix_chan_describe_pml(ompi_request_t *req, mca_pml_chan_reqinfo_t *info,
                                   const char **why)
{
    int rc = MPI_ERR_UNSUPPORTED_OPERATION;

    if (req->req_start != mca_pml.pml_start) {
        *why = "the request is not a persistent point-to-point request";
        return MPI_ERR_REQUEST;
    }
    if (ompix_chan_pml_is("ob1")) {
        rc = ompix_chan_describe_base(req, info);
    } else if (ompix_chan_pml_is("ucx")) {
        rc = ompix_chan_describe_ucx(req, info);
    }
    if (MPI_ERR_UNSUPPORTED_OPERATION == rc) {
        opal_show_help("help-mpiext-chan.txt", "no-describe", true,
                       mca_pml_base_selected_component.pmlm_version.mca_component_name);
        *why = "cannot read persistent requests of this PML without pml/chan";
    } else if (MPI_SUCCESS != rc) {
        *why = "the request is not a persistent point-to-point request";
    }
    return rc;
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
    if (NULL != engine && NULL != engine->describe && MPI_SUCCESS == engine->describe(req, info)) {
        return MPI_SUCCESS;
    }
    return ompix_chan_describe_pml(req, info, why);
}

/* Whether a persistent request receives (-1) or sends (1), where that is
 * cheap to know (a fallback channel, a request of pml ob1 or pml ucx);
 * 0 otherwise.  For the start order within a bundle's round
 * (mpiext_chan_bundle_member.c), so never an error or a help message. */
int ompix_chan_request_dir(ompi_request_t *req, bool *ob1_send)
{
    void *kind = ompix_chan_kind(req);

    *ob1_send = false;
    if (OMPIX_CHAN_KIND_FALLBACK == kind) {
        return ((ompix_chan_fb_t *) req)->is_send ? 1 : -1;
    }
    if (NULL != kind) {                 /* an engine channel: the engine knows */
        const mca_pml_chan_api_t *engine = ompix_chan_global.engine;

        return NULL != engine && NULL != engine->direction ? engine->direction(req) : 0;
    }
    if ( OMPI_REQUEST_PML != req->req_type || req->req_start != mca_pml.pml_start) {
        return 0;
    }
    if (ompix_chan_pml_is("ob1")) {
        *ob1_send = MCA_PML_REQUEST_SEND == ((mca_pml_base_request_t *) req)->req_type;
        return *ob1_send ? 1 : -1;
    }
    if (ompix_chan_pml_is("ucx")) {
        const ompix_chan_ucx_preq_t *u = (const ompix_chan_ucx_preq_t *) req;

        return (u->flags & OMPIX_CHAN_UCX_FLAG_SEND) ? 1 : -1;
    }
    return 0;
}
