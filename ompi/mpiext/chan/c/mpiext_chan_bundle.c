/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Bundles (MPIX_Bundle_init): a persistent request over rounds of
 * persistent members.  MPI_Start starts round 0; progress (the callback of
 * mpiext_chan_bundle_progress.c) starts round r+1 once every member of
 * round r is complete and completes the bundle after the last round.  The
 * generic engine: it starts each member with its own req_start and reads
 * its completion, so members may be of any kind, on any communicator.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/runtime/params.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

static int ompix_bundle_start(size_t count, ompi_request_t **reqs);
static int ompix_bundle_free(ompi_request_t **req);
static bool ompix_bundle_poll(ompix_bundle_active_t *a);
static void ompix_bundle_done(ompix_bundle_active_t *a, bool freed);

static void ompix_bundle_construct(ompix_bundle_t *b)
{
    OMPI_REQUEST_INIT(&b->super, true);
    b->super.req_type = OMPI_REQUEST_COLL;
    b->super.req_start = ompix_bundle_start;
    b->super.req_free = ompix_bundle_free;
    b->super.req_cancel = ompix_bundle_refuse_cancel;
    b->super.req_status = ompi_status_empty;
    b->super.req_mpi_object.comm = &ompi_mpi_comm_world.comm;
    OBJ_CONSTRUCT(&b->active, ompix_bundle_active_t);
    b->active.poll = ompix_bundle_poll;
    b->active.done = ompix_bundle_done;
    b->active.req = &b->super;
    b->nrounds = b->round = b->next = 0;
    b->round_end = NULL;
    b->members = NULL;
    b->error = MPI_SUCCESS;
    b->error_comm = NULL;
    b->chans = NULL;
    b->chan_end = NULL;
    b->left = 0;
    b->engine_state = 0;                /* OMPIX_BUNDLE_ENGINE_IDLE */
    b->mt = b->yield = false;
    b->member_done = NULL;
}

static void ompix_bundle_destruct(ompix_bundle_t *b)
{
    free(b->round_end);
    free(b->members);
    free(b->chans);
    free(b->chan_end);
    OBJ_DESTRUCT(&b->active);
    OMPI_REQUEST_FINI(&b->super);
}
OBJ_CLASS_INSTANCE(ompix_bundle_t, ompi_request_t, ompix_bundle_construct, ompix_bundle_destruct);

/* MPI_PARAM_CHECK's checks of MPIX_Bundle_init's arguments (the members'
 * own are made whatever MPI_PARAM_CHECK says: a member taken twice would
 * lose its functions). */
int ompix_bundle_check_args(int nrounds, const int round_sizes[], MPI_Request members[],
                            MPI_Info info, MPI_Request *bundle, const char *func)
{
    long total = 0;

    if (nrounds < 0 || (nrounds > 0 && NULL == round_sizes) || NULL == bundle) {
        return ompix_chan_error(NULL, MPI_ERR_ARG, func,
                                nrounds < 0 ? "nrounds is negative"
                                            : "round_sizes or bundle is NULL");
    }
    for (int r = 0; r < nrounds; ++r) {
        if (round_sizes[r] < 0) {
            return ompix_chan_error(NULL, MPI_ERR_ARG, func, "a round size is negative");
        }
        total += round_sizes[r];
    }
    if (total > INT32_MAX) {
        return ompix_chan_error(NULL, MPI_ERR_ARG, func, "more than 2^31-1 members");
    }
    if (total > 0 && NULL == members) {
        return ompix_chan_error(NULL, MPI_ERR_ARG, func, "members is NULL");
    }
    if (NULL == info || ompi_info_is_freed(info)) {
        return ompix_chan_error(NULL, MPI_ERR_INFO, func, "the info object is not valid");
    }
    return MPI_SUCCESS;
}

int ompix_bundle_create(int nrounds, const int round_sizes[], MPI_Request members[],
                        MPI_Request *bundle, const char *func)
{
    ompix_bundle_t *b = OBJ_NEW(ompix_bundle_t);
    int n = 0, rc;

    if (NULL != b && nrounds > 0) {
        b->round_end = malloc(nrounds * sizeof(int));
    }
    for (int r = 0; NULL != b && NULL != b->round_end && r < nrounds; ++r) {
        b->round_end[r] = n += round_sizes[r];
    }
    if (NULL != b && n > 0) {
        b->members = calloc(n, sizeof(*b->members));
    }
    if (NULL == b || (nrounds > 0 && NULL == b->round_end) || (n > 0 && NULL == b->members)) {
        if (NULL != b) {
            OBJ_RELEASE(b);
        }
        return ompix_chan_error(NULL, MPI_ERR_NO_MEM, func, "cannot allocate the bundle");
    }
    b->nrounds = nrounds;
    if (MPI_SUCCESS != (rc = ompix_bundle_members_take(b, n, members, func))) {
        OBJ_RELEASE(b);
        return rc;
    }
    ompix_bundle_members_order(b);
    ompix_bundle_engine_choose(b);
    *bundle = &b->super;
    return MPI_SUCCESS;
}

static void ompix_bundle_start_round(ompix_bundle_t *b)
{
    int first = b->round > 0 ? b->round_end[b->round - 1] : 0;

    b->next = first;
    for (int i = first; i < b->round_end[b->round]; ++i) {
        ompix_bundle_member_start(&b->members[i]);
    }
}

/* Looks at the running round from its first member not yet seen complete;
 * starts the next round when it is complete.  True after the last round. */
static bool ompix_bundle_poll(ompix_bundle_active_t *a)
{
    ompix_bundle_t *b = (ompix_bundle_t *) a->req;

    while (b->round < b->nrounds) {
        for (; b->next < b->round_end[b->round]; ++b->next) {
            if (!ompix_bundle_member_done(b, &b->members[b->next])) {
                return false;
            }
        }
        if (++b->round < b->nrounds) {
            ompix_bundle_start_round(b);
        }
    }
    return true;
}

/* After the last round: completed (status: the first failed member's
 * error; Wait reports it through that member's communicator: see
 * ompix_bundle_finish), or released if MPI_Request_free came meanwhile. */
void ompix_bundle_release(ompix_bundle_t *b)
{
    ompix_bundle_members_restore(b, b->nrounds > 0 ? b->round_end[b->nrounds - 1] : 0);
    OBJ_RELEASE(b);
}

void ompix_bundle_finish(ompix_bundle_t *b, bool freed)
{
    if (freed) {
        ompix_bundle_release(b);
        return;
    }
    b->super.req_status.MPI_ERROR = b->error;
    b->super.req_mpi_object.comm = NULL != b->error_comm ? b->error_comm
                                                         : &ompi_mpi_comm_world.comm;
    ompi_request_complete(&b->super, true);
}

static void ompix_bundle_done(ompix_bundle_active_t *a, bool freed)
{
    ompix_bundle_finish((ompix_bundle_t *) a->req, freed);
}

/* The start of either engine: MPI_ERR_REQUEST when the bundle is active;
 * else it is active, pending, at round 0 with no error. */
int ompix_bundle_reset(ompix_bundle_t *b)
{
    if (OMPI_REQUEST_ACTIVE == b->super.req_state) {
        return MPI_ERR_REQUEST;         /* reported by ompix_bundle_start_each */
    }
    ompix_bundle_request_reset(&b->super);
    b->round = 0;
    b->next = 0;
    b->error = MPI_SUCCESS;
    b->error_comm = NULL;
    return MPI_SUCCESS;
}

static int ompix_bundle_start_one(ompi_request_t *req)
{
    ompix_bundle_t *b = (ompix_bundle_t *) req;
    int rc = ompix_bundle_reset(b);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (b->nrounds > 0) {
        ompix_bundle_start_round(b);
    }
    ompix_bundle_launch(&b->active);
    return MPI_SUCCESS;
}

/* req_start of a bundle (MPI_Start, MPI_Startall, or the bundle holding
 * it). */
static int ompix_bundle_start(size_t count, ompi_request_t **reqs)
{
    return ompix_bundle_start_each(count, reqs, ompix_bundle_start_one,
                                   MCA_COMMON_OMPIX_REQUEST_CALLER());
}

/* MPI_Request_free: releases the bundle and gives the members back (they
 * are then inactive and usable on their own); an active bundle goes when
 * its last round is complete.  Open MPI's Wait/Test call it too, right
 * after reporting an error in a request's status (as they free every
 * persistent request then): the bundle goes as well, and the user's handle
 * becomes MPI_REQUEST_NULL. */
static int ompix_bundle_free(ompi_request_t **req)
{
    ompix_bundle_t *b = (ompix_bundle_t *) *req;

    if (NULL != b->chans) {             /* the engine path */
        *req = MPI_REQUEST_NULL;
        if (ompix_bundle_engine_free(b)) {
            ompix_bundle_release(b);
        }
        return OMPI_SUCCESS;
    }
    if (ompix_bundle_mark_freed(req, &b->active)) {
        ompix_bundle_release(b);
    }
    return OMPI_SUCCESS;
}
