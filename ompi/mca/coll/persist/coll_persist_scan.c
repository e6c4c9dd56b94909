/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Inclusive and exclusive scan.  Commutative operations: recursive
 * doubling, ceil(log2 p) rounds; in round k a rank swaps with rank ^ 2^k
 * the combination of a block of 2^k ranks it has so far, and takes the
 * partner's into its result only when the partner is lower.  Other
 * operations: along the rank chain, rank r receiving the prefix of ranks
 * 0..r-1 from r-1 and passing its own on, the prefix always the left
 * operand.
 */
#include "ompi_config.h"

#include "coll_persist.h"

static void *mca_coll_persist_scan_scratch(mca_coll_persist_request_t *req, ompi_datatype_t *dtype)
{
    ptrdiff_t true_lb, true_extent;
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    return (char *) req->tmp - true_lb;
}

static size_t mca_coll_persist_scan_scratch_bytes(int count, ompi_datatype_t *dtype)
{
    ptrdiff_t true_lb;
    return mca_coll_persist_span(count, dtype, &true_lb);
}

/* Recursive doubling over a commutative op.  partial (the combination of
 * the block of ranks this rank speaks for) starts as its own input, which
 * the start actions already put where own points; result, when given,
 * accumulates the lower partners' blocks: inclusive scans start it from
 * the own input, exclusive ones from the first lower block received. */
static int mca_coll_persist_scan_doubling_rounds(mca_coll_persist_builder_t *b, void *partial,
                                                 void *incoming, void *result, bool result_has_own,
                                                 int count, ompi_datatype_t *dtype, ompi_op_t *op,
                                                 int rank, int size)
{
    bool empty = !result_has_own;
    int rc = OMPI_SUCCESS;

    for (int mask = 1; OMPI_SUCCESS == rc && mask < size; mask <<= 1) {
        int peer = rank ^ mask;
        if (peer >= size) {
            continue;
        }
        rc = mca_coll_persist_round(b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(b, incoming, count, dtype, peer);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(b, partial, count, dtype, peer);
        }
        if (OMPI_SUCCESS == rc && peer < rank) {
            rc = empty ? mca_coll_persist_action(b, MCA_COLL_PERSIST_COPY, incoming, result,
                                                 count, dtype, NULL)
                       : mca_coll_persist_action(b, MCA_COLL_PERSIST_REDUCE, incoming, result,
                                                 count, dtype, op);
            empty = false;
        }
        if (OMPI_SUCCESS == rc && mask << 1 < size) {   /* the last round's partial is not needed */
            rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_REDUCE, incoming, partial, count,
                                         dtype, op);
        }
    }
    return rc;
}

/* Two scratch buffers of count elements: the partial and the incoming. */
static int mca_coll_persist_scan_doubling(const void *sbuf, void *rbuf, int count,
                                          ompi_datatype_t *dtype, ompi_op_t *op, bool exclusive,
                                          ompi_communicator_t *comm, ompi_request_t **request)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    size_t span = mca_coll_persist_scan_scratch_bytes(count, dtype);
    mca_coll_persist_builder_t b;
    char *partial, *incoming;
    const void *input = MPI_IN_PLACE == sbuf ? rbuf : sbuf;
    int rc = mca_coll_persist_request_new(comm, op, dtype, 2 * span, &b);

    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(&b);
        return rc;
    }
    partial = mca_coll_persist_scan_scratch(b.req, dtype);
    incoming = partial + span;
    rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, input, partial, count, dtype, NULL);
    if (OMPI_SUCCESS == rc && !exclusive && MPI_IN_PLACE != sbuf) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, sbuf, rbuf, count, dtype, NULL);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_scan_doubling_rounds(&b, partial, incoming, rbuf, !exclusive, count,
                                                   dtype, op, rank, size);
    }
    return mca_coll_persist_end(&b, rc, request);
}

int mca_coll_persist_scan_init(const void *sbuf, void *rbuf, int count,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                               struct ompi_communicator_t *comm, struct ompi_info_t *info,
                               ompi_request_t **request,
                               mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    mca_coll_persist_builder_t b;
    int rc;
    rc = mca_coll_persist_check_args(comm, count, dtype, op, MCA_COLL_PERSIST_NO_ROOT);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }

    (void) info;
    (void) module;
    if (ompi_op_is_commute(op) && size > 1) {
        return mca_coll_persist_scan_doubling(sbuf, rbuf, count, dtype, op, false, comm, request);
    }
    rc = mca_coll_persist_request_new(
        comm, op, dtype, rank > 0 ? mca_coll_persist_scan_scratch_bytes(count, dtype) : 0, &b);
    if (OMPI_SUCCESS == rc && MPI_IN_PLACE != sbuf) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, sbuf, rbuf, count, dtype, NULL);
    }
    if (OMPI_SUCCESS == rc && rank > 0) {
        void *tmp = mca_coll_persist_scan_scratch(b.req, dtype);
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
                                 mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    mca_coll_persist_builder_t b;
    void *own;
    int rc;
    rc = mca_coll_persist_check_args(comm, count, dtype, op, MCA_COLL_PERSIST_NO_ROOT);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }

    (void) info;
    (void) module;
    if (ompi_op_is_commute(op) && size > 1) {
        return mca_coll_persist_scan_doubling(sbuf, rbuf, count, dtype, op, true, comm, request);
    }
    /* The scratch buffer holds this rank's input, then the prefix it sends:
     * with MPI_IN_PLACE the input is in rbuf, which receives the result. */
    rc = mca_coll_persist_request_new(comm, op, dtype,
                                      mca_coll_persist_scan_scratch_bytes(count, dtype), &b);
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(&b);
        return rc;
    }
    own = mca_coll_persist_scan_scratch(b.req, dtype);
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
