/*
 * Copyright (c) 2026 The ompix developers.
 *
 * ompix_persist_effort=tune: every candidate algorithm of the call is
 * planned on zero-filled scratch buffers of the call's layout (the user's
 * buffers are neither read nor written at init: an in-place allreduce's
 * input or a bcast root's data must survive it), started once to warm up
 * and MCA_COLL_PERSIST_TUNE_STARTS times timed, and freed.  The times go
 * through an allreduce(MAX), so every rank compares the same numbers, the
 * slowest rank's, and keeps the same candidate.  Every step that may fail
 * on one rank only (allocation, planning) is agreed on before anybody
 * starts anything, so no rank is left inside a collective.
 */
#include "ompi_config.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "coll_persist.h"

#define MCA_COLL_PERSIST_TUNE_STARTS 4

/* Zero-filled memory for blocks x (count x dtype), and the address to
 * pass as the buffer (its true lower bound at the memory's start). */
static void *mca_coll_persist_tune_buffer(int blocks, int count, ompi_datatype_t *dtype,
                                          void **mem)
{
    ptrdiff_t lb, extent, true_lb, true_extent;
    size_t n = (size_t) blocks * (size_t) (count > 0 ? count : 0), bytes = 0;

    ompi_datatype_get_extent(dtype, &lb, &extent);
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    if (n > 0) {
        bytes = (size_t) true_extent + (n - 1) * (size_t) extent;
    }
    *mem = calloc(bytes > 0 ? bytes : 1, 1);
    return NULL == *mem ? NULL : (char *) *mem - true_lb;
}

/* The call with its buffers replaced by scratch ones. */
static bool mca_coll_persist_tune_scratch(const mca_coll_persist_call_t *call,
                                          mca_coll_persist_call_t *s, void **smem, void **rmem)
{
    *s = *call;
    *smem = *rmem = NULL;
    if (NULL != call->rbuf && call->rblocks > 0) {
        s->rbuf = mca_coll_persist_tune_buffer(call->rblocks, call->rcount, call->rdtype, rmem);
        if (NULL == *rmem) {
            return false;
        }
    }
    if (call->sbuf == call->rbuf) {
        s->sbuf = s->rbuf;
    } else if (MPI_IN_PLACE != call->sbuf && NULL != call->sbuf && call->sblocks > 0) {
        s->sbuf = mca_coll_persist_tune_buffer(call->sblocks, call->scount, call->sdtype, smem);
        return NULL != *smem;
    }
    return true;
}

static double mca_coll_persist_tune_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Seconds this rank took for the timed starts of alg (HUGE_VAL: it could
 * not be planned on some rank, e.g. a shared-memory plan declined). */
static double mca_coll_persist_tune_time(const mca_coll_persist_call_t *s,
                                         const mca_coll_persist_family_t *family,
                                         mca_coll_persist_alg_t alg)
{
    ompi_request_t *req = NULL;
    int rc = family->plan(s, alg, &req);
    double t0 = 0.0;

    if (!mca_coll_persist_agree(s->comm, OMPI_SUCCESS == rc)) {
        if (OMPI_SUCCESS == rc) {
            ompi_request_free(&req);
        }
        return HUGE_VAL;
    }
    for (int k = 0; OMPI_SUCCESS == rc && k <= MCA_COLL_PERSIST_TUNE_STARTS; ++k) {
        if (1 == k) {
            t0 = mca_coll_persist_tune_now();
        }
        rc = req->req_start(1, &req);
        if (OMPI_SUCCESS == rc) {
            rc = ompi_request_wait(&req, MPI_STATUS_IGNORE);
        }
    }
    t0 = OMPI_SUCCESS == rc ? mca_coll_persist_tune_now() - t0 : HUGE_VAL;
    ompi_request_free(&req);
    return t0;
}

int mca_coll_persist_tune(const mca_coll_persist_call_t *call,
                          const mca_coll_persist_family_t *family,
                          const mca_coll_persist_alg_t *algs, int n, mca_coll_persist_alg_t *best)
{
    double times[MCA_COLL_PERSIST_MAX_CANDIDATES];
    mca_coll_persist_call_t s;
    void *smem, *rmem;
    int rc, pick = -1;

    if (!mca_coll_persist_agree(call->comm,
                                     mca_coll_persist_tune_scratch(call, &s, &smem, &rmem))) {
        free(smem);
        free(rmem);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (int i = 0; i < n; ++i) {
        times[i] = mca_coll_persist_tune_time(&s, family, algs[i]);
    }
    free(smem);
    free(rmem);
    rc = call->comm->c_coll->coll_allreduce(MPI_IN_PLACE, times, n, MPI_DOUBLE, MPI_MAX,
                                            call->comm, call->comm->c_coll->coll_allreduce_module);
    for (int i = 0; OMPI_SUCCESS == rc && i < n; ++i) {
        if (times[i] < HUGE_VAL && (pick < 0 || times[i] < times[pick])) {
            pick = i;
        }
    }
    if (pick < 0) {
        return OMPI_SUCCESS == rc ? OMPI_ERR_NOT_AVAILABLE : rc;
    }
    *best = algs[pick];
    return OMPI_SUCCESS;
}
