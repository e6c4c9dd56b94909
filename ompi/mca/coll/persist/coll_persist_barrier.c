/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Barrier by dissemination: in round k every rank sends an empty message
 * 2^k ranks ahead and receives one from 2^k ranks behind; ceil(log2 p)
 * rounds for any p.
 */
#include "ompi_config.h"

#include "coll_persist.h"

static int mca_coll_persist_barrier_plan(const mca_coll_persist_call_t *call,
                                         mca_coll_persist_alg_t alg, ompi_request_t **request)
{
    ompi_communicator_t *comm = call->comm;
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    mca_coll_persist_builder_t b;
    int rc;

    if (MCA_COLL_PERSIST_ALG_BARRIER_SHM == alg) {
        return mca_coll_persist_shm_try(comm, MCA_COLL_PERSIST_SHM_BARRIER, NULL, NULL, 0, NULL,
                                        NULL, 0, request);
    }
    rc = mca_coll_persist_request_new(comm, NULL, NULL, 0, &b);
    if (OMPI_SUCCESS == rc) {
        b.req->algorithm = MCA_COLL_PERSIST_ALG_BARRIER_DISSEMINATION;
    }
    for (int dist = 1; OMPI_SUCCESS == rc && dist < size; dist <<= 1) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, NULL, 0, MPI_BYTE, (rank - dist + size) % size);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, NULL, 0, MPI_BYTE, (rank + dist) % size);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}

/* The shared-memory plan unless effort is low (its setup communicates). */
static int mca_coll_persist_barrier_candidates(const mca_coll_persist_call_t *call,
                                               mca_coll_persist_effort_t effort,
                                               mca_coll_persist_alg_t *algs)
{
    int n = 0;
    (void) call;
    if (MCA_COLL_PERSIST_EFFORT_LOW != effort) {
        algs[n++] = MCA_COLL_PERSIST_ALG_BARRIER_SHM;
    }
    algs[n++] = MCA_COLL_PERSIST_ALG_BARRIER_DISSEMINATION;
    return n;
}

static const mca_coll_persist_family_t mca_coll_persist_barrier_family = {
    .candidates = mca_coll_persist_barrier_candidates,
    .plan = mca_coll_persist_barrier_plan,
};

int mca_coll_persist_barrier_init(struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                  ompi_request_t **request,
                                  mca_coll_base_module_t *module)
{
    mca_coll_persist_call_t call = {.comm = comm, .root = MCA_COLL_PERSIST_NO_ROOT};

    (void) module;
    return mca_coll_persist_plan(&call, &mca_coll_persist_barrier_family, info, request);
}
