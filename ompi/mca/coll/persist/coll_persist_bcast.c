/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Broadcast on the user's buffer, for any datatype: along a binomial tree
 * (receive from the parent, then send to every child at once), or for
 * large messages by scatter and ring allgather.
 */
#include "ompi_config.h"

#include "coll_persist.h"

/* Binomial tree over vrank: receive from the parent, then send to every
 * child at once, the largest subtree first since it has the most to forward. */
static int mca_coll_persist_bcast_binomial(mca_coll_persist_builder_t *b, void *buff, int count,
                                           ompi_datatype_t *datatype, int root, int rank, int size)
{
    int vrank = (rank - root + size) % size, mask = 1, rc = OMPI_SUCCESS;

    /* The parent clears our lowest set bit. */
    while (OMPI_SUCCESS == rc && mask < size) {
        if (vrank & mask) {
            rc = mca_coll_persist_round(b);
            if (OMPI_SUCCESS == rc) {
                rc = mca_coll_persist_recv(b, buff, count, datatype, (vrank - mask + root) % size);
            }
            break;
        }
        mask <<= 1;
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_round(b);
    }
    for (mask >>= 1; OMPI_SUCCESS == rc && mask > 0; mask >>= 1) {
        if (vrank + mask < size) {
            rc = mca_coll_persist_send(b, buff, count, datatype, (vrank + mask + root) % size);
        }
    }
    return rc;
}

/* Large messages: the root scatters chunk v to vrank v along a binomial
 * tree (a subtree's chunks are contiguous in every rank's buffer, so no
 * staging), then the chunks travel around a ring in p - 1 rounds. */
static int mca_coll_persist_bcast_scatter_allgather(mca_coll_persist_builder_t *b, void *buff,
                                                    int count, ompi_datatype_t *dtype, int root,
                                                    int rank, int size)
{
    int vrank = (rank - root + size) % size, rc = OMPI_SUCCESS;
    int sub = mca_coll_persist_subtree(vrank, size);
    int first, n, last_first, last_n;

    /* my subtree's range of elements */
    mca_coll_persist_chunk(vrank, count, size, &first, &n);
    mca_coll_persist_chunk(vrank + sub - 1, count, size, &last_first, &last_n);
    if (0 != vrank) {
        rc = mca_coll_persist_round(b);
        if (OMPI_SUCCESS == rc && last_first + last_n > first) {
            rc = mca_coll_persist_recv(b, mca_coll_persist_at(buff, first, dtype), last_first + last_n - first,
                                       dtype, (mca_coll_persist_parent(vrank) + root) % size);
        }
    }
    if (OMPI_SUCCESS == rc && sub > 1) {
        rc = mca_coll_persist_round(b);
        for (int mask = 1; OMPI_SUCCESS == rc && mask < sub; mask <<= 1) {
            int child = vrank + mask;
            int csub = mca_coll_persist_subtree(child, size);
            int cf, cn, lf, ln;
            mca_coll_persist_chunk(child, count, size, &cf, &cn);
            mca_coll_persist_chunk(child + csub - 1, count, size, &lf, &ln);
            if (lf + ln > cf) {
                rc = mca_coll_persist_send(b, mca_coll_persist_at(buff, cf, dtype), lf + ln - cf, dtype,
                                           (child + root) % size);
            }
        }
    }
    for (int k = 0; OMPI_SUCCESS == rc && k < size - 1; ++k) {
        int out = (vrank - k + size) % size, in = (vrank - k - 1 + size) % size;
        int of, on, inf, inn;
        mca_coll_persist_chunk(out, count, size, &of, &on);
        mca_coll_persist_chunk(in, count, size, &inf, &inn);
        rc = mca_coll_persist_round(b);
        if (OMPI_SUCCESS == rc && inn > 0) {
            rc = mca_coll_persist_recv(b, mca_coll_persist_at(buff, inf, dtype), inn, dtype,
                                       ((vrank - 1 + size) % size + root) % size);
        }
        if (OMPI_SUCCESS == rc && on > 0) {
            rc = mca_coll_persist_send(b, mca_coll_persist_at(buff, of, dtype), on, dtype,
                                       ((vrank + 1) % size + root) % size);
        }
    }
    return rc;
}

static int mca_coll_persist_bcast_plan(const mca_coll_persist_call_t *call,
                                       mca_coll_persist_alg_t alg, ompi_request_t **request)
{
    ompi_communicator_t *comm = call->comm;
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    mca_coll_persist_builder_t b;
    int rc;

    if (MCA_COLL_PERSIST_ALG_BCAST_SHM == alg) {
        return mca_coll_persist_shm_try(comm, MCA_COLL_PERSIST_SHM_BCAST, call->rbuf, call->rbuf,
                                        call->rcount, call->rdtype, NULL, call->root, request);
    }
    rc = mca_coll_persist_request_new(comm, NULL, call->rdtype, 0, &b);
    if (OMPI_SUCCESS == rc) {
        b.req->algorithm = alg;
        rc = MCA_COLL_PERSIST_ALG_BCAST_SCATTER_ALLGATHER == alg
             ? mca_coll_persist_bcast_scatter_allgather(&b, call->rbuf, call->rcount, call->rdtype,
                                                        call->root, rank, size)
             : mca_coll_persist_bcast_binomial(&b, call->rbuf, call->rcount, call->rdtype,
                                               call->root, rank, size);
    }
    return mca_coll_persist_end(&b, rc, request);
}

/* A forced algorithm alone; low: the binomial tree (fewest requests, no
 * shared segment); tune: all three; normal: the shared-memory plan, then
 * by size. */
static int mca_coll_persist_bcast_candidates(const mca_coll_persist_call_t *call,
                                             mca_coll_persist_effort_t effort,
                                             mca_coll_persist_alg_t *algs)
{
    int size = ompi_comm_size(call->comm), n = 0;
    size_t bytes;

    switch (mca_coll_persist_component.bcast_algorithm) {
    case MCA_COLL_PERSIST_BCAST_BINOMIAL:
        algs[0] = MCA_COLL_PERSIST_ALG_BCAST_BINOMIAL;
        return 1;
    case MCA_COLL_PERSIST_BCAST_SCATTER_ALLGATHER:
        algs[0] = MCA_COLL_PERSIST_ALG_BCAST_SCATTER_ALLGATHER;
        return 1;
    }
    if (MCA_COLL_PERSIST_EFFORT_LOW == effort) {
        algs[0] = MCA_COLL_PERSIST_ALG_BCAST_BINOMIAL;
        return 1;
    }
    ompi_datatype_type_size(call->rdtype, &bytes);
    bytes *= (size_t) call->rcount;
    algs[n++] = MCA_COLL_PERSIST_ALG_BCAST_SHM;
    if (MCA_COLL_PERSIST_EFFORT_TUNE == effort) {
        algs[n++] = MCA_COLL_PERSIST_ALG_BCAST_BINOMIAL;
        algs[n++] = MCA_COLL_PERSIST_ALG_BCAST_SCATTER_ALLGATHER;
        return n;
    }
    algs[n++] = bytes >= (size_t) mca_coll_persist_component.bcast_large && size > 2
                ? MCA_COLL_PERSIST_ALG_BCAST_SCATTER_ALLGATHER
                : MCA_COLL_PERSIST_ALG_BCAST_BINOMIAL;
    return n;
}

static const mca_coll_persist_family_t mca_coll_persist_bcast_family = {
    .candidates = mca_coll_persist_bcast_candidates,
    .plan = mca_coll_persist_bcast_plan,
};

int mca_coll_persist_bcast_init(void *buff, int count, struct ompi_datatype_t *datatype,
                                int root, struct ompi_communicator_t *comm,
                                struct ompi_info_t *info, ompi_request_t **request,
                                mca_coll_base_module_t *module)
{
    mca_coll_persist_call_t call = {.sbuf = buff, .rbuf = buff, .rcount = count,
                                    .rdtype = datatype, .root = root, .rblocks = 1,
                                    .comm = comm};
    int rc = mca_coll_persist_check_args(comm, count, datatype, NULL, root);

    (void) module;
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    return mca_coll_persist_plan(&call, &mca_coll_persist_bcast_family, info, request);
}
