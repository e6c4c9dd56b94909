/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Reduce along a binomial tree, and reduce_scatter(_block) by direct
 * exchange.  For a non-commutative operation every combination keeps rank
 * order: in the tree a node's children hold the ranks just above it, taken
 * in increasing order (the tree is rooted at rank 0, and the result then
 * moves to the root); in reduce_scatter the blocks are combined 0, 1, ...
 */
#include "ompi_config.h"

#include "coll_persist.h"

/* acc = acc op in (acc holds the lower ranks), through `in` when the
 * operation does not commute. */
static int mca_coll_persist_reduce_combine_right(mca_coll_persist_builder_t *b, void *acc, void *in,
                                                 int count, ompi_datatype_t *dtype, ompi_op_t *op)
{
    int rc;
    if (ompi_op_is_commute(op)) {
        return mca_coll_persist_action(b, MCA_COLL_PERSIST_REDUCE, in, acc, count, dtype, op);
    }
    rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_REDUCE, acc, in, count, dtype, op);
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_COPY, in, acc, count, dtype, NULL);
    }
    return rc;
}

int mca_coll_persist_reduce_init(const void *sbuf, void *rbuf, int count,
                                 struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                                 struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                 ompi_request_t **request,
                                 mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int troot = ompi_op_is_commute(op) ? root : 0;
    int v = (rank - troot + size) % size;
    int sub = mca_coll_persist_subtree(v, size);
    const void *input = (rank == root && MPI_IN_PLACE == sbuf) ? rbuf : sbuf;
    bool acc_is_rbuf = rank == root && rank == troot;
    ptrdiff_t true_lb;
    size_t one = mca_coll_persist_span(count, dtype, &true_lb);
    mca_coll_persist_builder_t b;
    char *acc, *in;
    int rc;
    rc = mca_coll_persist_check_args(comm, count, dtype, op, root);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }

    (void) info;
    (void) module;
    rc = mca_coll_persist_request_new(comm, op, dtype, sub > 1 || rank == troot ? 2 * one : 0, &b);
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(&b);
        return rc;
    }
    acc = acc_is_rbuf ? (char *) rbuf : (char *) b.req->tmp - true_lb;
    in = (char *) b.req->tmp + one - true_lb;
    if ((sub > 1 || rank == troot) && acc != input) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, input, acc, count, dtype, NULL);
    }
    for (int mask = 1; OMPI_SUCCESS == rc && mask < sub; mask <<= 1) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, in, count, dtype, (v + mask + troot) % size);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_reduce_combine_right(&b, acc, in, count, dtype, op);
        }
    }
    if (OMPI_SUCCESS == rc && 0 != v) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, sub > 1 ? acc : input, count, dtype,
                                       (mca_coll_persist_parent(v) + troot) % size);
        }
    }
    /* non-commutative with root != 0: the result moves from rank 0 */
    if (OMPI_SUCCESS == rc && troot != root && (rank == troot || rank == root)) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = rank == troot ? mca_coll_persist_send(&b, acc, count, dtype, root)
                               : mca_coll_persist_recv(&b, rbuf, count, dtype, troot);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}

/* Each rank sends block q of its input to rank q and receives its own
 * block from everyone into slot q, then combines slots 0..p-1 in order. */
static int mca_coll_persist_reduce_scatter_direct(const void *sbuf, void *rbuf, const int *counts,
                                                  int fixed, ompi_datatype_t *dtype, ompi_op_t *op,
                                                  ompi_communicator_t *comm,
                                                  ompi_request_t **request)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int mine = counts ? counts[rank] : fixed;
    ptrdiff_t ext = mca_coll_persist_extent(dtype), true_lb, slot_stride;
    size_t one = mca_coll_persist_span(mine, dtype, &true_lb);
    const char *input = MPI_IN_PLACE == sbuf ? rbuf : sbuf;
    mca_coll_persist_builder_t b;
    ptrdiff_t off = 0, my_off = 0;
    char *slots;
    int rc;

    slot_stride = (ptrdiff_t) mine * ext;
    rc = mca_coll_persist_request_new(comm, op, dtype,
                                      mine > 0 ? (size_t) (size - 1) * slot_stride + one : 0, &b);
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(&b);
        return rc;
    }
    slots = (char *) b.req->tmp - true_lb;
    for (int q = 0; q < rank; ++q) {
        my_off += (ptrdiff_t) (counts ? counts[q] : fixed) * ext;
    }
    if (mine > 0) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, input + my_off,
                                     slots + rank * slot_stride, mine, dtype, NULL);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_round(&b);
    }
    for (int q = 0; OMPI_SUCCESS == rc && q < size; off += (ptrdiff_t) (counts ? counts[q] : fixed) * ext, ++q) {
        int n = counts ? counts[q] : fixed;
        if (q == rank) {
            continue;
        }
        if (n > 0) {
            rc = mca_coll_persist_send(&b, input + off, n, dtype, q);
        }
        if (OMPI_SUCCESS == rc && mine > 0) {
            rc = mca_coll_persist_recv(&b, slots + q * slot_stride, mine, dtype, q);
        }
    }
    if (OMPI_SUCCESS == rc && mine > 0) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, slots, rbuf, mine, dtype, NULL);
    }
    for (int q = 1; OMPI_SUCCESS == rc && mine > 0 && q < size; ++q) {
        rc = mca_coll_persist_reduce_combine_right(&b, rbuf, slots + q * slot_stride, mine, dtype,
                                                   op);
    }
    return mca_coll_persist_end(&b, rc, request);
}

int mca_coll_persist_reduce_scatter_block_init(const void *sbuf, void *rbuf, int rcount,
                                               struct ompi_datatype_t *dtype,
                                               struct ompi_op_t *op,
                                               struct ompi_communicator_t *comm,
                                               struct ompi_info_t *info, ompi_request_t **request,
                                               mca_coll_base_module_t *module)
{
    (void) info;
    (void) module;
    return mca_coll_persist_reduce_scatter_direct(sbuf, rbuf, NULL, rcount, dtype, op, comm,
                                                  request);
}

int mca_coll_persist_reduce_scatter_init(const void *sbuf, void *rbuf, const int *rcounts,
                                         struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                         struct ompi_communicator_t *comm,
                                         struct ompi_info_t *info, ompi_request_t **request,
                                         mca_coll_base_module_t *module)
{
    int rc = mca_coll_persist_check_blocks(ompi_comm_size(comm), rcounts, rcounts, NULL, false);
    (void) info;
    (void) module;
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    return mca_coll_persist_reduce_scatter_direct(sbuf, rbuf, rcounts, 0, dtype, op, comm, request);
}
