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

int mca_coll_persist_bcast_init(void *buff, int count, struct ompi_datatype_t *datatype,
                                int root, struct ompi_communicator_t *comm,
                                struct ompi_info_t *info, ompi_request_t **request,
                                mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int algorithm = mca_coll_persist_component.bcast_algorithm;
    mca_coll_persist_builder_t b;
    size_t bytes;
    int rc;
    rc = mca_coll_persist_check_args(comm, count, datatype, NULL, root);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }

    (void) info;
    (void) module;
    ompi_datatype_type_size(datatype, &bytes);
    bytes *= (size_t) count;
    if (MCA_COLL_PERSIST_AUTO == algorithm) {
        rc = mca_coll_persist_shm_try(comm, MCA_COLL_PERSIST_SHM_BCAST, buff, buff, count,
                                      datatype, NULL, root, request);
        if (OMPI_ERR_NOT_AVAILABLE != rc) {
            return rc;
        }
        algorithm = bytes >= (size_t) mca_coll_persist_component.bcast_large && size > 2
                    ? MCA_COLL_PERSIST_BCAST_SCATTER_ALLGATHER : MCA_COLL_PERSIST_BCAST_BINOMIAL;
    }
    rc = mca_coll_persist_request_new(comm, NULL, datatype, 0, &b);
    if (OMPI_SUCCESS == rc) {
        b.req->algorithm = MCA_COLL_PERSIST_BCAST_SCATTER_ALLGATHER == algorithm
                           ? MCA_COLL_PERSIST_ALG_BCAST_SCATTER_ALLGATHER
                           : MCA_COLL_PERSIST_ALG_BCAST_BINOMIAL;
        rc = MCA_COLL_PERSIST_BCAST_SCATTER_ALLGATHER == algorithm
             ? mca_coll_persist_bcast_scatter_allgather(&b, buff, count, datatype, root, rank, size)
             : mca_coll_persist_bcast_binomial(&b, buff, count, datatype, root, rank, size);
    }
    return mca_coll_persist_end(&b, rc, request);
}
