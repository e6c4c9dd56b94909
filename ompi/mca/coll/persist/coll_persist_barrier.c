/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Barrier by dissemination: in round k every rank sends an empty message
 * 2^k ranks ahead and receives one from 2^k ranks behind; ceil(log2 p)
 * rounds for any p.
 */
#include "ompi_config.h"

#include "coll_persist.h"

int mca_coll_persist_barrier_init(struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                  ompi_request_t **request,
                                  mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    mca_coll_persist_builder_t b;
    int rc;

    (void) info;
    (void) module;
    rc = mca_coll_persist_shm_try(comm, MCA_COLL_PERSIST_SHM_BARRIER, NULL, NULL, 0, NULL, NULL,
                                  0, request);
    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        return rc;
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
