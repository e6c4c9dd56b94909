/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Allreduce by recursive doubling on the largest power of two pof2 <= p
 * (small messages, and any non-commutative operation), or by a ring
 * (large messages, commutative operations).
 * The first 2*(p - pof2) ranks fold in pairs before and unfold after.  The
 * reduction order is the rank order throughout (a lower partner's data
 * always goes on the left), so non-commutative operations are correct.
 * The user's receive buffer accumulates; one scratch buffer receives.
 */
#include "ompi_config.h"

#include "coll_persist.h"

/* acc = partner op acc when the partner is lower, else acc = acc op partner
 * (through the scratch buffer, which then holds the result to copy back). */
static int mca_coll_persist_allreduce_combine(mca_coll_persist_builder_t *b, bool partner_lower,
                                              void *acc, void *tmp, int count,
                                              ompi_datatype_t *dtype, ompi_op_t *op)
{
    int rc;
    if (partner_lower || ompi_op_is_commute(op)) {
        return mca_coll_persist_action(b, MCA_COLL_PERSIST_REDUCE, tmp, acc, count, dtype, op);
    }
    rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_REDUCE, acc, tmp, count, dtype, op);
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_COPY, tmp, acc, count, dtype, NULL);
    }
    return rc;
}

/* Large messages, commutative operations: ring reduce-scatter (p - 1
 * rounds; after round k a rank has combined k + 2 contributions of chunk
 * rank - k - 1), then ring allgather of the finished chunks. */
static int mca_coll_persist_allreduce_ring(mca_coll_persist_builder_t *b, void *rbuf, char *tmp,
                                           int count, ompi_datatype_t *dtype, ompi_op_t *op,
                                           int rank, int size)
{
    ptrdiff_t lb, ext;
    int rc = OMPI_SUCCESS, right = (rank + 1) % size, left = (rank - 1 + size) % size;

    ompi_datatype_get_extent(dtype, &lb, &ext);
    for (int phase = 0; phase < 2; ++phase) {
        for (int k = 0; OMPI_SUCCESS == rc && k < size - 1; ++k) {
            /* reduce-scatter: send chunk r-k, combine chunk r-k-1;
             * allgather: send chunk r+1-k, receive chunk r-k */
            int out = ((0 == phase ? rank - k : rank + 1 - k) % size + size) % size;
            int in = ((0 == phase ? rank - k - 1 : rank - k) % size + size) % size;
            int of, on, inf, inn;
            mca_coll_persist_chunk(out, count, size, &of, &on);
            mca_coll_persist_chunk(in, count, size, &inf, &inn);
            rc = mca_coll_persist_round(b);
            if (OMPI_SUCCESS == rc && inn > 0) {
                char *dst = (char *) rbuf + (ptrdiff_t) inf * ext;
                rc = mca_coll_persist_recv(b, 0 == phase ? tmp : dst, inn, dtype, left);
                if (OMPI_SUCCESS == rc && 0 == phase) {
                    rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_REDUCE, tmp, dst, inn, dtype, op);
                }
            }
            if (OMPI_SUCCESS == rc && on > 0) {
                rc = mca_coll_persist_send(b, (char *) rbuf + (ptrdiff_t) of * ext, on, dtype, right);
            }
        }
    }
    return rc;
}

int mca_coll_persist_allreduce_init(const void *sbuf, void *rbuf, int count,
                                    struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    mca_coll_base_module_t *module)
{
    int algorithm = mca_coll_persist_component.allreduce_algorithm;
    size_t bytes;
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int pof2 = 1, rem, newrank;
    ptrdiff_t lb, extent, true_lb, true_extent;
    mca_coll_persist_builder_t b;
    char *tmp;
    int rc;
    rc = mca_coll_persist_check_args(comm, count, dtype, op, MCA_COLL_PERSIST_NO_ROOT);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }

    (void) info;
    (void) module;
    if (MCA_COLL_PERSIST_AUTO == algorithm) {
        rc = mca_coll_persist_shm_try(comm, MCA_COLL_PERSIST_SHM_ALLREDUCE, sbuf, rbuf, count,
                                      dtype, op, 0, request);
        if (OMPI_ERR_NOT_AVAILABLE != rc) {
            return rc;
        }
    }
    while (pof2 * 2 <= size) {
        pof2 *= 2;
    }
    rem = size - pof2;
    ompi_datatype_get_extent(dtype, &lb, &extent);
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    size_t tmp_bytes = (size_t) true_extent + (size_t) (count > 0 ? count - 1 : 0) * extent;
    rc = mca_coll_persist_request_new(comm, op, dtype, size > 1 ? tmp_bytes : 0, &b);
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(&b);
        return rc;
    }
    tmp = (char *) b.req->tmp - true_lb;

    if (MPI_IN_PLACE != sbuf) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, sbuf, rbuf, count, dtype, NULL);
    }
    ompi_datatype_type_size(dtype, &bytes);
    bytes *= (size_t) count;
    if (MCA_COLL_PERSIST_AUTO == algorithm) {
        algorithm = bytes >= (size_t) mca_coll_persist_component.allreduce_large
                    ? MCA_COLL_PERSIST_ALLREDUCE_RING : MCA_COLL_PERSIST_ALLREDUCE_RECURSIVE_DOUBLING;
    }
    if (MCA_COLL_PERSIST_ALLREDUCE_RING == algorithm && ompi_op_is_commute(op) && size > 1
        && count >= size) {
        b.req->algorithm = MCA_COLL_PERSIST_ALG_ALLREDUCE_RING;
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_allreduce_ring(&b, rbuf, tmp, count, dtype, op, rank, size);
        }
        if (OMPI_SUCCESS != rc) {
            mca_coll_persist_abandon(&b);
            return rc;
        }
        return mca_coll_persist_finish(&b, request);
    }

    b.req->algorithm = MCA_COLL_PERSIST_ALG_ALLREDUCE_RECURSIVE_DOUBLING;
    /* Fold: even ranks below 2*rem hand their data to the odd rank above. */
    newrank = rank < 2 * rem ? (rank % 2 ? rank / 2 : -1) : rank - rem;
    if (OMPI_SUCCESS == rc && rank < 2 * rem) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc && 0 == rank % 2) {
            rc = mca_coll_persist_send(&b, rbuf, count, dtype, rank + 1);
        } else if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, tmp, count, dtype, rank - 1);
            if (OMPI_SUCCESS == rc) {
                rc = mca_coll_persist_allreduce_combine(&b, true, rbuf, tmp, count, dtype, op);
            }
        }
    }

    for (int mask = 1; OMPI_SUCCESS == rc && -1 != newrank && mask < pof2; mask <<= 1) {
        int newpeer = newrank ^ mask;
        int peer = newpeer < rem ? 2 * newpeer + 1 : newpeer + rem;
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, tmp, count, dtype, peer);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, rbuf, count, dtype, peer);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_allreduce_combine(&b, peer < rank, rbuf, tmp, count, dtype, op);
        }
    }

    /* Unfold: the odd ranks return the result to their even partners. */
    if (OMPI_SUCCESS == rc && rank < 2 * rem) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = rank % 2 ? mca_coll_persist_send(&b, rbuf, count, dtype, rank - 1)
                          : mca_coll_persist_recv(&b, rbuf, count, dtype, rank + 1);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}
