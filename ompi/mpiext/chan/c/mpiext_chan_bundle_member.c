/*
 * Copyright (c) 2026 The ompix developers.
 *
 * A bundle's members: taken at MPIX_Bundle_init (checked, their request
 * functions replaced by refusing ones: a bundled member is started only by
 * its bundle), ordered receives first within each round, started and
 * watched by the bundle, given back when the bundle is freed.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/pml/base/pml_base_request.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

/* The communicator a member's errors go to: its own, if it has one. */
static ompi_communicator_t *ompix_bundle_member_comm(ompi_request_t *req)
{
    if (OMPI_REQUEST_PML == req->req_type || OMPI_REQUEST_COLL == req->req_type) {
        return req->req_mpi_object.comm;
    }
    return NULL;
}

/* A bundled member's req_start: MPI_Start and MPI_Startall of it are
 * erroneous until its bundle is freed (reported once: 5.0's MPI_Start
 * without parameter checks reports it itself). */
static int ompix_bundle_refuse_start(size_t count, ompi_request_t **reqs)
{
    (void) count;
    return mca_common_ompix_request_start_error(ompix_bundle_member_comm(reqs[0]),
                                                MPI_ERR_REQUEST,
                                                MCA_COMMON_OMPIX_REQUEST_CALLER(),
                                                "the request is a member of a bundle "
                                                "(MPIX_Bundle_init) until the bundle is freed");
}

/* Whether req is held by a bundle (its req_start is the refusing one). */
bool ompix_bundle_member_taken(const ompi_request_t *req)
{
    return ompix_bundle_refuse_start == req->req_start;
}

/* Its req_free: MPI_Request_free reports the class through
 * MPI_COMM_WORLD's handler; the member stays in its bundle. */
static int ompix_bundle_refuse_free(ompi_request_t **req)
{
    (void) req;
    return MPI_ERR_REQUEST;
}

static const char *ompix_bundle_member_why(ompi_request_t *req)
{
    if (NULL == req || MPI_REQUEST_NULL == req) {
        return "a member is MPI_REQUEST_NULL";
    }
    if (!req->req_persistent
        || (OMPI_REQUEST_PML != req->req_type && OMPI_REQUEST_COLL != req->req_type
            && OMPI_REQUEST_NOOP != req->req_type)) {
        return "a member is not a persistent request";
    }
    if (ompix_bundle_refuse_start == req->req_start) {
        return "a member belongs to a bundle already (or is listed twice)";
    }
    if (OMPI_REQUEST_INACTIVE != req->req_state) {
        return "a member is active";
    }
    return NULL;
}

static void ompix_bundle_member_take(ompix_bundle_member_t *m, ompi_request_t *req)
{
    m->req = req;
    m->start = req->req_start;
    m->free = req->req_free;
    m->cancel = req->req_cancel;
    m->type = req->req_type;
    m->noop = OMPI_REQUEST_NOOP == req->req_type;
    m->ob1_send = false;
    m->dir = m->noop ? 0 : ompix_chan_request_dir(req, &m->ob1_send);
    m->failed = false;
    m->rc = MPI_SUCCESS;
    /* A NOOP request (to MPI_PROC_NULL) has no req_start: Open MPI's
     * MPI_Start just marks it active.  As a PML request it calls ours. */
    req->req_type = OMPI_REQUEST_PML;
    req->req_start = ompix_bundle_refuse_start;
    req->req_free = ompix_bundle_refuse_free;
    req->req_cancel = ompix_bundle_refuse_cancel;
    mca_common_ompix_request_refuse(req);
}

/* Every member checked and taken, or none (the error reported through the
 * failing member's communicator). */
int ompix_bundle_members_take(ompix_bundle_t *b, int n, MPI_Request members[], const char *func)
{
    for (int i = 0; i < n; ++i) {
        const char *why = ompix_bundle_member_why(members[i]);

        if (NULL != why) {
            ompi_communicator_t *comm = NULL;

            ompix_bundle_members_restore(b, i);
            if (NULL != members[i] && MPI_REQUEST_NULL != members[i]) {
                comm = ompix_bundle_member_comm(members[i]);
            }
            return ompix_chan_error(comm, MPI_ERR_REQUEST, func, why);
        }
        ompix_bundle_member_take(&b->members[i], members[i]);
    }
    return MPI_SUCCESS;
}

/* req_start last: it tells a bundled member (ompix_bundle_member_taken),
 * and with threads the release of a bundle freed while active runs on
 * whichever thread completed it, while the owner may be unbinding the
 * members as soon as they are given back. */
void ompix_bundle_members_restore(ompix_bundle_t *b, int n)
{
    for (int i = 0; i < n; ++i) {
        ompix_bundle_member_t *m = &b->members[i];

        m->req->req_type = m->type;
        m->req->req_free = m->free;
        m->req->req_cancel = m->cancel;
        mca_common_ompix_request_unrefuse(m->req);
        opal_atomic_wmb();
        m->req->req_start = m->start;
    }
}

/* Within each round: receives, then members that are neither (or not
 * known), then sends, each in the order given.  Starts are nonblocking, so
 * this is not needed to avoid deadlock; it lets a peer's early message
 * meet a posted receive rather than the unexpected queue. */
void ompix_bundle_members_order(ompix_bundle_t *b)
{
    int n = b->nrounds > 0 ? b->round_end[b->nrounds - 1] : 0, first = 0;
    ompix_bundle_member_t *tmp = malloc((n > 0 ? n : 1) * sizeof(*tmp));

    if (NULL == tmp) {
        return;                            /* the order given: correct, just slower */
    }
    for (int r = 0; r < b->nrounds; first = b->round_end[r++]) {
        int k = first;

        for (int dir = -1; dir <= 1; ++dir) {
            for (int i = first; i < b->round_end[r]; ++i) {
                if (b->members[i].dir == dir) {
                    tmp[k++] = b->members[i];
                }
            }
        }
    }
    memcpy(b->members, tmp, n * sizeof(*tmp));
    free(tmp);
}

/* Starts one member with its own req_start.  pml ob1 hands back another
 * request when it restarts a send that is complete for MPI but not yet for
 * the PML (a buffered or eager send whose transport has not let go of
 * it), and frees the one the user holds later: so a member's send is
 * restarted only once the PML is done with it (in practice long before:
 * it was complete when the bundle last saw it). */
void ompix_bundle_member_start(ompix_bundle_member_t *m)
{
    if (m->noop) {
        return;
    }
    if (m->ob1_send) {
        while (!((mca_pml_base_request_t *) m->req)->req_pml_complete) {
            opal_progress();
        }
    }
    mca_common_ompix_request_unrefuse(m->req);
    m->rc = m->start(1, &m->req);
    m->failed = MPI_SUCCESS != m->rc;
    if (m->failed) {
        m->rc = ompi_errcode_get_mpi_code(m->rc);
    }
}

/* Whether a started member is done; if so it is made inactive (as Wait
 * would) and a failure is recorded as the bundle's if it is the first. */
bool ompix_bundle_member_done(ompix_bundle_t *b, ompix_bundle_member_t *m)
{
    int err = m->rc;

    if (m->noop) {
        return true;
    }
    if (!m->failed) {
        if (!REQUEST_COMPLETE(m->req)) {
            return false;
        }
        opal_atomic_rmb();
        m->req->req_state = OMPI_REQUEST_INACTIVE;
        mca_common_ompix_request_refuse(m->req);
        err = m->req->req_status.MPI_ERROR;
    }
    if (MPI_SUCCESS != err && MPI_SUCCESS == b->error) {
        b->error = err;
        b->error_comm = ompix_bundle_member_comm(m->req);
    }
    return true;
}
