/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Inclusive and exclusive scan along the rank chain: rank r receives the
 * prefix of ranks 0..r-1 from r-1 and passes its own prefix on to r+1.
 * The prefix is always the left operand, so any operation is correct.
 */
#include "ompi_config.h"

#include "coll_persist.h"

static void *scratch(mca_coll_persist_request_t *req, ompi_datatype_t *dtype)
{
    ptrdiff_t true_lb, true_extent;
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    return (char *) req->tmp - true_lb;
}

static size_t scratch_bytes(int count, ompi_datatype_t *dtype)
{
    ptrdiff_t lb, extent, true_lb, true_extent;
    ompi_datatype_get_extent(dtype, &lb, &extent);
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    return count > 0 ? (size_t) true_extent + (size_t) (count - 1) * extent : 0;
}

int mca_coll_persist_scan_init(const void *sbuf, void *rbuf, int count,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                               struct ompi_communicator_t *comm, struct ompi_info_t *info,
                               ompi_request_t **request,
                               struct mca_coll_base_module_2_3_0_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    mca_coll_persist_builder_t b;
    int rc;

    (void) info;
    (void) module;
    rc = mca_coll_persist_request_new(comm, op, dtype, rank > 0 ? scratch_bytes(count, dtype) : 0, &b);
    if (OMPI_SUCCESS == rc && MPI_IN_PLACE != sbuf) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, sbuf, rbuf, count, dtype, NULL);
    }
    if (OMPI_SUCCESS == rc && rank > 0) {
        void *tmp = scratch(b.req, dtype);
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, tmp, count, dtype, rank - 1);
        }
        if (OMPI_SUCCESS == rc) {   /* rbuf = prefix(r-1) op own */
            rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_REDUCE, tmp, rbuf, count, dtype, op);
        }
    }
    if (OMPI_SUCCESS == rc && rank < size - 1) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, rbuf, count, dtype, rank + 1);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}

int mca_coll_persist_exscan_init(const void *sbuf, void *rbuf, int count,
                                 struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                 struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                 ompi_request_t **request,
                                 struct mca_coll_base_module_2_3_0_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    mca_coll_persist_builder_t b;
    void *own;
    int rc;

    (void) info;
    (void) module;
    /* The scratch buffer holds this rank's input, then the prefix it sends:
     * with MPI_IN_PLACE the input is in rbuf, which receives the result. */
    rc = mca_coll_persist_request_new(comm, op, dtype, scratch_bytes(count, dtype), &b);
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(&b);
        return rc;
    }
    own = scratch(b.req, dtype);
    if (rank < size - 1) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, MPI_IN_PLACE == sbuf ? rbuf : sbuf,
                                     own, count, dtype, NULL);
    }
    if (OMPI_SUCCESS == rc && rank > 0) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, rbuf, count, dtype, rank - 1);
        }
        if (OMPI_SUCCESS == rc && rank < size - 1) {   /* own = prefix(r-1) op own */
            rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_REDUCE, rbuf, own, count, dtype, op);
        }
    }
    if (OMPI_SUCCESS == rc && rank < size - 1) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, own, count, dtype, rank + 1);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}
