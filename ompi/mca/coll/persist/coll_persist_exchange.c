/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Block exchanges.  Small messages by Bruck's algorithms, ceil(log2 p)
 * rounds through a scratch buffer that holds the blocks rotated by this
 * rank's number: allgather doubles the blocks it holds each round;
 * alltoall sends, in round k, the blocks whose index has bit k set,
 * packed by copies planned at init.  Large messages on the user's
 * buffers: allgather by a ring (p - 1 rounds, each forwarding the block
 * received in the previous one), alltoall pairwise (round k exchanges with
 * rank +/- k).
 */
#include "ompi_config.h"

#include "coll_persist.h"

/* Block i (of count elements) of a buffer of such blocks. */
static char *mca_coll_persist_block(const void *buf, int i, int count, ompi_datatype_t *dtype)
{
    return mca_coll_persist_at(buf, (ptrdiff_t) i * count, dtype);
}

/* A scratch area of nblocks blocks, from offset *used of the request's
 * scratch memory, as the datatype addresses it. */
static char *mca_coll_persist_scratch_blocks(mca_coll_persist_builder_t *b, size_t *used,
                                             int nblocks, int count, ompi_datatype_t *dtype)
{
    ptrdiff_t true_lb;
    size_t span = mca_coll_persist_span(nblocks * count, dtype, &true_lb);
    char *at = (char *) b->req->tmp + *used - true_lb;
    *used += span;
    return at;
}

static size_t mca_coll_persist_blocks_bytes(int nblocks, int count, ompi_datatype_t *dtype)
{
    ptrdiff_t true_lb;
    return mca_coll_persist_span(nblocks * count, dtype, &true_lb);
}

/* Whether Bruck's algorithm can serve the exchange. */
static bool mca_coll_persist_bruck_ok(const mca_coll_persist_call_t *call)
{
    return ompi_comm_size(call->comm) >= 2 && call->rcount > 0;
}

/* What allgather and alltoall choose between: Bruck's algorithm and the
 * linear one (ring, pairwise), the algorithm parameter, and the size
 * limit (total bytes for allgather, block bytes for alltoall). */
typedef struct {
    mca_coll_persist_alg_t bruck, linear;
    const int *forced, *limit;
    bool total;
} mca_coll_persist_exchange_kind_t;

/* A forced algorithm alone; low: Bruck's on more than 2 ranks (fewest
 * requests: 2 ceil(log2 p) instead of 2 (p - 1)); tune: both; normal:
 * Bruck's on more than 2 ranks below the limit. */
static int mca_coll_persist_exchange_candidates(const mca_coll_persist_call_t *call,
                                                mca_coll_persist_effort_t effort,
                                                const mca_coll_persist_exchange_kind_t *k,
                                                mca_coll_persist_alg_t *algs)
{
    int size = ompi_comm_size(call->comm);
    bool small = size > 2 && mca_coll_persist_bruck_ok(call);
    size_t bytes;

    if (MCA_COLL_PERSIST_AUTO != *k->forced) {
        algs[0] = MCA_COLL_PERSIST_EXCHANGE_BRUCK == *k->forced ? k->bruck : k->linear;
        return 1;
    }
    if (MCA_COLL_PERSIST_EFFORT_TUNE == effort && mca_coll_persist_bruck_ok(call)) {
        algs[0] = k->bruck;
        algs[1] = k->linear;
        return 2;
    }
    if (MCA_COLL_PERSIST_EFFORT_NORMAL == effort) {
        ompi_datatype_type_size(call->rdtype, &bytes);
        bytes *= (size_t) call->rcount * (size_t) (k->total ? size : 1);
        small = small && bytes < (size_t) *k->limit;
    }
    algs[0] = small ? k->bruck : k->linear;
    return 1;
}

/* allgather's and alltoall's init: the arguments every rank checks alike,
 * then the plan; sblocks: blocks in the send buffer. */
static int mca_coll_persist_exchange_init(const void *sbuf, int scount, ompi_datatype_t *sdtype,
                                          int sblocks, void *rbuf, int rcount,
                                          ompi_datatype_t *rdtype, ompi_communicator_t *comm,
                                          struct ompi_info_t *info,
                                          const mca_coll_persist_family_t *family,
                                          ompi_request_t **request)
{
    mca_coll_persist_call_t call = {.sbuf = sbuf, .rbuf = rbuf, .scount = scount,
                                    .rcount = rcount, .sdtype = sdtype, .rdtype = rdtype,
                                    .root = MCA_COLL_PERSIST_NO_ROOT, .sblocks = sblocks,
                                    .rblocks = ompi_comm_size(comm), .comm = comm};
    int rc = mca_coll_persist_check_args(comm, rcount, rdtype, NULL, MCA_COLL_PERSIST_NO_ROOT);

    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    return mca_coll_persist_plan(&call, family, info, request);
}

/* Bruck allgather: tmp[i] ends up holding the block of rank + i; in the
 * round of distance d a rank sends its first min(d, p - d) blocks to
 * rank - d and receives as many from rank + d behind the d it has. */
static int mca_coll_persist_allgather_bruck(mca_coll_persist_builder_t *b, const void *sbuf,
                                            int scount, ompi_datatype_t *sdtype, void *rbuf,
                                            int rcount, ompi_datatype_t *rdtype, int rank, int size)
{
    size_t used = 0;
    char *tmp = mca_coll_persist_scratch_blocks(b, &used, size, rcount, rdtype);
    int rc = MPI_IN_PLACE == sbuf
             ? mca_coll_persist_action(b, MCA_COLL_PERSIST_COPY,
                                       mca_coll_persist_block(rbuf, rank, rcount, rdtype), tmp,
                                       rcount, rdtype, NULL)
             : mca_coll_persist_action2(b, sbuf, scount, sdtype, tmp, rcount, rdtype);

    for (int d = 1; OMPI_SUCCESS == rc && d < size; d <<= 1) {
        int n = d < size - d ? d : size - d;
        rc = mca_coll_persist_round(b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(b, mca_coll_persist_block(tmp, d, rcount, rdtype),
                                       n * rcount, rdtype, (rank + d) % size);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(b, tmp, n * rcount, rdtype, (rank - d + size) % size);
        }
    }
    /* rotate into place: rbuf[rank + i] = tmp[i] */
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_COPY, tmp,
                                     mca_coll_persist_block(rbuf, rank, rcount, rdtype),
                                     (size - rank) * rcount, rdtype, NULL);
    }
    if (OMPI_SUCCESS == rc && rank > 0) {
        rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_COPY,
                                     mca_coll_persist_block(tmp, size - rank, rcount, rdtype), rbuf,
                                     rank * rcount, rdtype, NULL);
    }
    return rc;
}

/* Bruck alltoall: tmp[i] starts as the block for rank + i; in round k
 * the blocks with bit k set go to rank + 2^k, packed contiguously, and
 * the ones received from rank - 2^k replace them; finally the block in
 * tmp[i] is the one from rank - i. */
static int mca_coll_persist_alltoall_bruck(mca_coll_persist_builder_t *b, const void *sbuf,
                                           int scount, ompi_datatype_t *sdtype, void *rbuf,
                                           int rcount, ompi_datatype_t *rdtype, int rank, int size)
{
    size_t used = 0;
    char *tmp = mca_coll_persist_scratch_blocks(b, &used, size, rcount, rdtype);
    char *out = mca_coll_persist_scratch_blocks(b, &used, size, rcount, rdtype);
    char *in = mca_coll_persist_scratch_blocks(b, &used, size, rcount, rdtype);
    int rc;

    if (MPI_IN_PLACE == sbuf) {        /* read before anything writes rbuf */
        sbuf = rbuf;
        scount = rcount;
        sdtype = rdtype;
    }
    rc = mca_coll_persist_action2(b, mca_coll_persist_block(sbuf, rank, scount, sdtype),
                                  (size - rank) * scount, sdtype, tmp, (size - rank) * rcount,
                                  rdtype);
    if (OMPI_SUCCESS == rc && rank > 0) {
        rc = mca_coll_persist_action2(b, sbuf, rank * scount, sdtype,
                                      mca_coll_persist_block(tmp, size - rank, rcount, rdtype),
                                      rank * rcount, rdtype);
    }
    for (int d = 1; OMPI_SUCCESS == rc && d < size; d <<= 1) {
        int n = 0;
        for (int i = 0; OMPI_SUCCESS == rc && i < size; ++i) {
            if (i & d) {
                rc = mca_coll_persist_action(
                    b, MCA_COLL_PERSIST_COPY, mca_coll_persist_block(tmp, i, rcount, rdtype),
                    mca_coll_persist_block(out, n++, rcount, rdtype), rcount, rdtype, NULL);
            }
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_round(b);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(b, in, n * rcount, rdtype, (rank - d + size) % size);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(b, out, n * rcount, rdtype, (rank + d) % size);
        }
        for (int i = 0, j = 0; OMPI_SUCCESS == rc && i < size; ++i) {
            if (i & d) {
                rc = mca_coll_persist_action(
                    b, MCA_COLL_PERSIST_COPY, mca_coll_persist_block(in, j++, rcount, rdtype),
                    mca_coll_persist_block(tmp, i, rcount, rdtype), rcount, rdtype, NULL);
            }
        }
    }
    for (int i = 0; OMPI_SUCCESS == rc && i < size; ++i) {
        rc = mca_coll_persist_action(
            b, MCA_COLL_PERSIST_COPY, mca_coll_persist_block(tmp, i, rcount, rdtype),
            mca_coll_persist_block(rbuf, (rank - i + size) % size, rcount, rdtype), rcount, rdtype,
            NULL);
    }
    return rc;
}

static int mca_coll_persist_allgather_plan(const mca_coll_persist_call_t *call,
                                           mca_coll_persist_alg_t alg, ompi_request_t **request)
{
    ompi_communicator_t *comm = call->comm;
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int rcount = call->rcount;
    ompi_datatype_t *rdtype = call->rdtype;
    void *rbuf = call->rbuf;
    mca_coll_persist_builder_t b;
    int rc;

    if (MCA_COLL_PERSIST_ALG_ALLGATHER_BRUCK == alg && mca_coll_persist_bruck_ok(call)) {
        rc = mca_coll_persist_request_new(comm, NULL, rdtype,
                                          mca_coll_persist_blocks_bytes(size, rcount, rdtype), &b);
        if (OMPI_SUCCESS == rc) {
            b.req->algorithm = MCA_COLL_PERSIST_ALG_ALLGATHER_BRUCK;
            rc = mca_coll_persist_allgather_bruck(&b, call->sbuf, call->scount, call->sdtype,
                                                  rbuf, rcount, rdtype, rank, size);
        }
        return mca_coll_persist_end(&b, rc, request);
    }
    rc = mca_coll_persist_request_new(comm, NULL, rdtype, 0, &b);
    if (OMPI_SUCCESS == rc) {
        b.req->algorithm = MCA_COLL_PERSIST_ALG_ALLGATHER_RING;
    }
    if (OMPI_SUCCESS == rc && MPI_IN_PLACE != call->sbuf) {
        rc = mca_coll_persist_action2(&b, call->sbuf, call->scount, call->sdtype,
                                      mca_coll_persist_block(rbuf, rank, rcount, rdtype), rcount,
                                      rdtype);
    }
    for (int k = 0; OMPI_SUCCESS == rc && k < size - 1; ++k) {
        int out = (rank - k + size) % size, in = (rank - k - 1 + size) % size;
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, mca_coll_persist_block(rbuf, in, rcount, rdtype),
                                       rcount, rdtype, left);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, mca_coll_persist_block(rbuf, out, rcount, rdtype),
                                       rcount, rdtype, right);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}

static int mca_coll_persist_allgather_candidates(const mca_coll_persist_call_t *call,
                                                 mca_coll_persist_effort_t effort,
                                                 mca_coll_persist_alg_t *algs)
{
    static const mca_coll_persist_exchange_kind_t kind = {
        MCA_COLL_PERSIST_ALG_ALLGATHER_BRUCK, MCA_COLL_PERSIST_ALG_ALLGATHER_RING,
        &mca_coll_persist_component.allgather_algorithm,
        &mca_coll_persist_component.allgather_large, true};
    return mca_coll_persist_exchange_candidates(call, effort, &kind, algs);
}

static const mca_coll_persist_family_t mca_coll_persist_allgather_family = {
    .candidates = mca_coll_persist_allgather_candidates,
    .plan = mca_coll_persist_allgather_plan,
};

int mca_coll_persist_allgather_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                    void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    mca_coll_base_module_t *module)
{
    (void) module;
    return mca_coll_persist_exchange_init(sbuf, scount, sdtype, 1, rbuf, rcount, rdtype, comm,
                                          info, &mca_coll_persist_allgather_family, request);
}

/* Pairwise exchange on the user's buffers; in place, sending from a copy
 * of the receive blocks taken at every start. */
static int mca_coll_persist_alltoall_pairwise(mca_coll_persist_builder_t *b,
                                              const mca_coll_persist_call_t *call, int rank,
                                              int size)
{
    const void *sbuf = call->sbuf;
    void *rbuf = call->rbuf;
    int scount = call->scount, rcount = call->rcount, rc = OMPI_SUCCESS;
    ompi_datatype_t *sdtype = call->sdtype, *rdtype = call->rdtype;
    ptrdiff_t true_lb;

    if (MPI_IN_PLACE == sbuf) {
        mca_coll_persist_span(1, rdtype, &true_lb);
        sbuf = (char *) b->req->tmp - true_lb;
        scount = rcount;
        sdtype = rdtype;
        rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_COPY, rbuf, (void *) sbuf,
                                     size * rcount, rdtype, NULL);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_action2(b, mca_coll_persist_block(sbuf, rank, scount, sdtype),
                                      scount, sdtype,
                                      mca_coll_persist_block(rbuf, rank, rcount, rdtype), rcount,
                                      rdtype);
    }
    for (int k = 1; OMPI_SUCCESS == rc && k < size; ++k) {
        int to = (rank + k) % size, from = (rank - k + size) % size;
        rc = mca_coll_persist_round(b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(b, mca_coll_persist_block(rbuf, from, rcount, rdtype),
                                       rcount, rdtype, from);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(b, mca_coll_persist_block(sbuf, to, scount, sdtype),
                                       scount, sdtype, to);
        }
    }
    return rc;
}

static int mca_coll_persist_alltoall_plan(const mca_coll_persist_call_t *call,
                                          mca_coll_persist_alg_t alg, ompi_request_t **request)
{
    ompi_communicator_t *comm = call->comm;
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm), rcount = call->rcount;
    ompi_datatype_t *rdtype = call->rdtype;
    mca_coll_persist_builder_t b;
    size_t tmp_bytes = 0;
    int rc;

    if (MCA_COLL_PERSIST_ALG_ALLTOALL_BRUCK == alg && mca_coll_persist_bruck_ok(call)) {
        rc = mca_coll_persist_request_new(
            comm, NULL, rdtype, 3 * mca_coll_persist_blocks_bytes(size, rcount, rdtype), &b);
        if (OMPI_SUCCESS == rc) {
            b.req->algorithm = MCA_COLL_PERSIST_ALG_ALLTOALL_BRUCK;
            rc = mca_coll_persist_alltoall_bruck(&b, call->sbuf, call->scount, call->sdtype,
                                                 call->rbuf, rcount, rdtype, rank, size);
        }
        return mca_coll_persist_end(&b, rc, request);
    }
    if (MPI_IN_PLACE == call->sbuf) {
        tmp_bytes = mca_coll_persist_blocks_bytes(size, rcount, rdtype);
    }
    rc = mca_coll_persist_request_new(comm, NULL, rdtype, rcount > 0 ? tmp_bytes : 0, &b);
    if (OMPI_SUCCESS == rc) {
        b.req->algorithm = MCA_COLL_PERSIST_ALG_ALLTOALL_PAIRWISE;
        rc = mca_coll_persist_alltoall_pairwise(&b, call, rank, size);
    }
    return mca_coll_persist_end(&b, rc, request);
}

static int mca_coll_persist_alltoall_candidates(const mca_coll_persist_call_t *call,
                                                mca_coll_persist_effort_t effort,
                                                mca_coll_persist_alg_t *algs)
{
    static const mca_coll_persist_exchange_kind_t kind = {
        MCA_COLL_PERSIST_ALG_ALLTOALL_BRUCK, MCA_COLL_PERSIST_ALG_ALLTOALL_PAIRWISE,
        &mca_coll_persist_component.alltoall_algorithm,
        &mca_coll_persist_component.alltoall_small, false};
    return mca_coll_persist_exchange_candidates(call, effort, &kind, algs);
}

static const mca_coll_persist_family_t mca_coll_persist_alltoall_family = {
    .candidates = mca_coll_persist_alltoall_candidates,
    .plan = mca_coll_persist_alltoall_plan,
};

int mca_coll_persist_alltoall_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                   void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                   struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                   ompi_request_t **request,
                                   mca_coll_base_module_t *module)
{
    (void) module;
    return mca_coll_persist_exchange_init(sbuf, scount, sdtype, ompi_comm_size(comm), rbuf,
                                          rcount, rdtype, comm, info,
                                          &mca_coll_persist_alltoall_family, request);
}
