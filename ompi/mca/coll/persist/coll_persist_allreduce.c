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

/* Recursive doubling, with the fold and unfold of the ranks above the
 * largest power of two. */
static int mca_coll_persist_allreduce_rd(mca_coll_persist_builder_t *b, void *rbuf, char *tmp,
                                         int count, ompi_datatype_t *dtype, ompi_op_t *op,
                                         int rank, int size)
{
    int pof2 = 1, rem, newrank, rc = OMPI_SUCCESS;

    while (pof2 * 2 <= size) {
        pof2 *= 2;
    }
    rem = size - pof2;
    /* Fold: even ranks below 2*rem hand their data to the odd rank above. */
    newrank = rank < 2 * rem ? (rank % 2 ? rank / 2 : -1) : rank - rem;
    if (rank < 2 * rem) {
        rc = mca_coll_persist_round(b);
        if (OMPI_SUCCESS == rc && 0 == rank % 2) {
            rc = mca_coll_persist_send(b, rbuf, count, dtype, rank + 1);
        } else if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(b, tmp, count, dtype, rank - 1);
            if (OMPI_SUCCESS == rc) {
                rc = mca_coll_persist_allreduce_combine(b, true, rbuf, tmp, count, dtype, op);
            }
        }
    }

    for (int mask = 1; OMPI_SUCCESS == rc && -1 != newrank && mask < pof2; mask <<= 1) {
        int newpeer = newrank ^ mask;
        int peer = newpeer < rem ? 2 * newpeer + 1 : newpeer + rem;
        rc = mca_coll_persist_round(b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(b, tmp, count, dtype, peer);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(b, rbuf, count, dtype, peer);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_allreduce_combine(b, peer < rank, rbuf, tmp, count, dtype, op);
        }
    }

    /* Unfold: the odd ranks return the result to their even partners. */
    if (OMPI_SUCCESS == rc && rank < 2 * rem) {
        rc = mca_coll_persist_round(b);
        if (OMPI_SUCCESS == rc) {
            rc = rank % 2 ? mca_coll_persist_send(b, rbuf, count, dtype, rank - 1)
                          : mca_coll_persist_recv(b, rbuf, count, dtype, rank + 1);
        }
    }
    return rc;
}

/* The ring serves commutative operations with at least a chunk per rank. */
static bool mca_coll_persist_allreduce_ring_ok(const mca_coll_persist_call_t *call)
{
    int size = ompi_comm_size(call->comm);
    return ompi_op_is_commute(call->op) && size > 1 && call->rcount >= size;
}

static int mca_coll_persist_allreduce_plan(const mca_coll_persist_call_t *call,
                                           mca_coll_persist_alg_t alg, ompi_request_t **request)
{
    ompi_communicator_t *comm = call->comm;
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm), count = call->rcount;
    ompi_datatype_t *dtype = call->rdtype;
    ompi_op_t *op = call->op;
    void *rbuf = call->rbuf;
    ptrdiff_t true_lb;
    mca_coll_persist_builder_t b;
    int rc;

    if (MCA_COLL_PERSIST_ALG_ALLREDUCE_SHM == alg) {
        return mca_coll_persist_shm_try(comm, MCA_COLL_PERSIST_SHM_ALLREDUCE, call->sbuf, rbuf,
                                        count, dtype, op, 0, request);
    }
    size_t tmp_bytes = mca_coll_persist_span(count > 0 ? count : 1, dtype, &true_lb);
    rc = mca_coll_persist_request_new(comm, op, dtype, size > 1 ? tmp_bytes : 0, &b);
    if (OMPI_SUCCESS == rc && MPI_IN_PLACE != call->sbuf) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, call->sbuf, rbuf, count, dtype,
                                     NULL);
    }
    if (OMPI_SUCCESS != rc) {
        return mca_coll_persist_end(&b, rc, request);
    }
    if (MCA_COLL_PERSIST_ALG_ALLREDUCE_RING == alg && mca_coll_persist_allreduce_ring_ok(call)) {
        b.req->algorithm = MCA_COLL_PERSIST_ALG_ALLREDUCE_RING;
        rc = mca_coll_persist_allreduce_ring(&b, rbuf, (char *) b.req->tmp - true_lb, count,
                                             dtype, op, rank, size);
    } else {
        b.req->algorithm = MCA_COLL_PERSIST_ALG_ALLREDUCE_RECURSIVE_DOUBLING;
        rc = mca_coll_persist_allreduce_rd(&b, rbuf, (char *) b.req->tmp - true_lb, count, dtype,
                                           op, rank, size);
    }
    return mca_coll_persist_end(&b, rc, request);
}

/* A forced algorithm alone; low: recursive doubling (log p rounds, no
 * shared segment); tune: the shared-memory plan, recursive doubling and
 * the ring where it serves; normal: the shared-memory plan, then by size. */
static int mca_coll_persist_allreduce_candidates(const mca_coll_persist_call_t *call,
                                                 mca_coll_persist_effort_t effort,
                                                 mca_coll_persist_alg_t *algs)
{
    int n = 0;
    size_t bytes;

    switch (mca_coll_persist_component.allreduce_algorithm) {
    case MCA_COLL_PERSIST_ALLREDUCE_RECURSIVE_DOUBLING:
        algs[0] = MCA_COLL_PERSIST_ALG_ALLREDUCE_RECURSIVE_DOUBLING;
        return 1;
    case MCA_COLL_PERSIST_ALLREDUCE_RING:
        algs[0] = MCA_COLL_PERSIST_ALG_ALLREDUCE_RING;
        return 1;
    }
    if (MCA_COLL_PERSIST_EFFORT_LOW == effort) {
        algs[0] = MCA_COLL_PERSIST_ALG_ALLREDUCE_RECURSIVE_DOUBLING;
        return 1;
    }
    algs[n++] = MCA_COLL_PERSIST_ALG_ALLREDUCE_SHM;
    if (MCA_COLL_PERSIST_EFFORT_TUNE == effort) {
        algs[n++] = MCA_COLL_PERSIST_ALG_ALLREDUCE_RECURSIVE_DOUBLING;
        if (mca_coll_persist_allreduce_ring_ok(call)) {
            algs[n++] = MCA_COLL_PERSIST_ALG_ALLREDUCE_RING;
        }
        return n;
    }
    ompi_datatype_type_size(call->rdtype, &bytes);
    bytes *= (size_t) call->rcount;
    algs[n++] = bytes >= (size_t) mca_coll_persist_component.allreduce_large
                ? MCA_COLL_PERSIST_ALG_ALLREDUCE_RING
                : MCA_COLL_PERSIST_ALG_ALLREDUCE_RECURSIVE_DOUBLING;
    return n;
}

static const mca_coll_persist_family_t mca_coll_persist_allreduce_family = {
    .candidates = mca_coll_persist_allreduce_candidates,
    .plan = mca_coll_persist_allreduce_plan,
};

int mca_coll_persist_allreduce_init(const void *sbuf, void *rbuf, int count,
                                    struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    mca_coll_base_module_t *module)
{
    mca_coll_persist_call_t call = {.sbuf = sbuf, .rbuf = rbuf, .scount = count,
                                    .rcount = count, .sdtype = dtype, .rdtype = dtype, .op = op,
                                    .root = MCA_COLL_PERSIST_NO_ROOT, .sblocks = 1,
                                    .rblocks = 1, .comm = comm};
    int rc = mca_coll_persist_check_args(comm, count, dtype, op, MCA_COLL_PERSIST_NO_ROOT);

    (void) module;
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    return mca_coll_persist_plan(&call, &mca_coll_persist_allreduce_family, info, request);
}
