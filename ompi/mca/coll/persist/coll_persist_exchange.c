/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Block exchanges on the user's buffers: allgather by a ring (p - 1
 * rounds, each forwarding the block received in the previous one) and
 * alltoall pairwise (round k exchanges with rank +/- k).
 */
#include "ompi_config.h"

#include "coll_persist.h"

int mca_coll_persist_allgather_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                    void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    struct mca_coll_base_module_2_3_0_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    mca_coll_persist_builder_t b;
    int rc;

    (void) info;
    (void) module;
    rc = mca_coll_persist_request_new(comm, NULL, rdtype, 0, &b);
    if (OMPI_SUCCESS == rc && MPI_IN_PLACE != sbuf) {
        rc = mca_coll_persist_action2(&b, sbuf, scount, sdtype,
                                      mca_coll_persist_at(rbuf, (ptrdiff_t) (rank) * (rcount), rdtype), rcount, rdtype);
    }
    for (int k = 0; OMPI_SUCCESS == rc && k < size - 1; ++k) {
        int out = (rank - k + size) % size, in = (rank - k - 1 + size) % size;
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, mca_coll_persist_at(rbuf, (ptrdiff_t) (in) * (rcount), rdtype), rcount, rdtype, left);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, mca_coll_persist_at(rbuf, (ptrdiff_t) (out) * (rcount), rdtype), rcount, rdtype, right);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}

int mca_coll_persist_alltoall_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                   void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                   struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                   ompi_request_t **request,
                                   struct mca_coll_base_module_2_3_0_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    ptrdiff_t true_lb, true_extent, lb, extent;
    mca_coll_persist_builder_t b;
    size_t tmp_bytes = 0;
    int rc;

    (void) info;
    (void) module;
    if (MPI_IN_PLACE == sbuf) {
        /* The data to send is in rbuf, which receives: send from a copy
         * taken at every start. */
        ompi_datatype_get_extent(rdtype, &lb, &extent);
        ompi_datatype_get_true_extent(rdtype, &true_lb, &true_extent);
        tmp_bytes = (size_t) true_extent + (size_t) (size * rcount - 1) * extent;
    }
    rc = mca_coll_persist_request_new(comm, NULL, rdtype, rcount > 0 ? tmp_bytes : 0, &b);
    if (OMPI_SUCCESS == rc && MPI_IN_PLACE == sbuf) {
        sbuf = (char *) b.req->tmp - true_lb;
        scount = rcount;
        sdtype = rdtype;
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, rbuf, (void *) sbuf,
                                     size * rcount, rdtype, NULL);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_action2(&b, mca_coll_persist_at(sbuf, (ptrdiff_t) (rank) * (scount), sdtype), scount, sdtype,
                                      mca_coll_persist_at(rbuf, (ptrdiff_t) (rank) * (rcount), rdtype), rcount, rdtype);
    }
    for (int k = 1; OMPI_SUCCESS == rc && k < size; ++k) {
        int to = (rank + k) % size, from = (rank - k + size) % size;
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, mca_coll_persist_at(rbuf, (ptrdiff_t) (from) * (rcount), rdtype), rcount, rdtype, from);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, mca_coll_persist_at(sbuf, (ptrdiff_t) (to) * (scount), sdtype), scount, sdtype, to);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}
