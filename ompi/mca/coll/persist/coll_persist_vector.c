/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The v- and w-variants, by direct exchange: one round in which every
 * block moves straight between its owner and its destination (the root,
 * for gatherv/scatterv), plus the local copy of this rank's own block.
 * allgatherv forwards blocks around a ring like allgather.
 */
#include "ompi_config.h"

#include "coll_persist.h"

int mca_coll_persist_gatherv_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                  void *rbuf, const int *rcounts, const int *disps,
                                  struct ompi_datatype_t *rdtype, int root,
                                  struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                  ompi_request_t **request,
                                  mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    mca_coll_persist_builder_t b;
    int rc;

    (void) info;
    (void) module;
    if (rank == root && OMPI_SUCCESS != (rc = mca_coll_persist_check_blocks(size, rcounts, disps,
                                                                            NULL, false))) {
        return rc;
    }
    rc = mca_coll_persist_request_new(comm, NULL, NULL, 0, &b);
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_round(&b);
    }
    if (rank != root) {
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, sbuf, scount, sdtype, root);
        }
        return mca_coll_persist_end(&b, rc, request);
    }
    for (int p = 0; OMPI_SUCCESS == rc && p < size; ++p) {
        if (p != rank) {
            rc = mca_coll_persist_recv(&b, mca_coll_persist_at(rbuf, disps[p], rdtype), rcounts[p], rdtype, p);
        }
    }
    if (OMPI_SUCCESS == rc && MPI_IN_PLACE != sbuf) {
        rc = mca_coll_persist_action2(&b, sbuf, scount, sdtype,
                                      mca_coll_persist_at(rbuf, disps[rank], rdtype), rcounts[rank], rdtype);
    }
    return mca_coll_persist_end(&b, rc, request);
}

int mca_coll_persist_scatterv_init(const void *sbuf, const int *scounts, const int *disps,
                                   struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                                   struct ompi_datatype_t *rdtype, int root,
                                   struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                   ompi_request_t **request,
                                   mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    mca_coll_persist_builder_t b;
    int rc;

    (void) info;
    (void) module;
    if (rank == root && OMPI_SUCCESS != (rc = mca_coll_persist_check_blocks(size, scounts, disps,
                                                                            NULL, false))) {
        return rc;
    }
    rc = mca_coll_persist_request_new(comm, NULL, NULL, 0, &b);
    if (OMPI_SUCCESS == rc && rank == root && MPI_IN_PLACE != rbuf) {
        rc = mca_coll_persist_action2(&b, mca_coll_persist_at(sbuf, disps[rank], sdtype), scounts[rank], sdtype,
                                      rbuf, rcount, rdtype);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_round(&b);
    }
    if (rank != root) {
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, rbuf, rcount, rdtype, root);
        }
        return mca_coll_persist_end(&b, rc, request);
    }
    for (int p = 0; OMPI_SUCCESS == rc && p < size; ++p) {
        if (p != rank) {
            rc = mca_coll_persist_send(&b, mca_coll_persist_at(sbuf, disps[p], sdtype), scounts[p], sdtype, p);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}

int mca_coll_persist_allgatherv_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                     void *rbuf, const int *rcounts, const int *disps,
                                     struct ompi_datatype_t *rdtype,
                                     struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                     ompi_request_t **request,
                                     mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    mca_coll_persist_builder_t b;
    int rc;

    (void) info;
    (void) module;
    if (OMPI_SUCCESS != (rc = mca_coll_persist_check_blocks(size, rcounts, disps, NULL, false))) {
        return rc;
    }
    rc = mca_coll_persist_request_new(comm, NULL, NULL, 0, &b);
    if (OMPI_SUCCESS == rc && MPI_IN_PLACE != sbuf) {
        rc = mca_coll_persist_action2(&b, sbuf, scount, sdtype,
                                      mca_coll_persist_at(rbuf, disps[rank], rdtype), rcounts[rank], rdtype);
    }
    for (int k = 0; OMPI_SUCCESS == rc && k < size - 1; ++k) {
        int out = (rank - k + size) % size, in = (rank - k - 1 + size) % size;
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_recv(&b, mca_coll_persist_at(rbuf, disps[in], rdtype), rcounts[in], rdtype, left);
        }
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, mca_coll_persist_at(rbuf, disps[out], rdtype), rcounts[out], rdtype,
                                       right);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}

/* alltoallv and alltoallw: displacements count elements of the one type
 * (v) or bytes, with a type per peer (w). */
typedef struct {
    const int *counts, *disps;
    ompi_datatype_t *const *types;
    bool bytes;
} side_t;

static ompi_datatype_t *mca_coll_persist_side_type(const side_t *s, int p)
{
    return s->types[s->bytes ? p : 0];
}

static ptrdiff_t mca_coll_persist_side_offset(const side_t *s, int p)
{
    ptrdiff_t lb, extent;
    if (s->bytes) {
        return s->disps[p];
    }
    ompi_datatype_get_extent(mca_coll_persist_side_type(s, p), &lb, &extent);
    return (ptrdiff_t) s->disps[p] * extent;
}

static char *mca_coll_persist_side_addr(const side_t *s, const void *buf, int p)
{
    return (char *) buf + mca_coll_persist_side_offset(s, p);
}

/* The byte range [*lo, *hi) of buf that the blocks of s cover. */
static void mca_coll_persist_side_span(const side_t *s, int size, ptrdiff_t *lo, ptrdiff_t *hi)
{
    bool first = true;
    *lo = *hi = 0;
    for (int p = 0; p < size; ++p) {
        ptrdiff_t tlb, text, lb, ext;
        if (0 == s->counts[p]) {
            continue;
        }
        ompi_datatype_get_true_extent(mca_coll_persist_side_type(s, p), &tlb, &text);
        ompi_datatype_get_extent(mca_coll_persist_side_type(s, p), &lb, &ext);
        ptrdiff_t b = mca_coll_persist_side_offset(s, p) + tlb;
        ptrdiff_t e = b + text + (ptrdiff_t) (s->counts[p] - 1) * ext;
        *lo = first || b < *lo ? b : *lo;
        *hi = first || e > *hi ? e : *hi;
        first = false;
    }
}

static int mca_coll_persist_alltoall_direct(const void *sbuf, side_t snd, void *rbuf, side_t rcv,
                                            ompi_communicator_t *comm, ompi_request_t **request)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    bool in_place = MPI_IN_PLACE == sbuf;
    mca_coll_persist_builder_t b;
    ptrdiff_t lo = 0, hi = 0;
    int rc;

    rc = mca_coll_persist_check_blocks(size, rcv.counts, rcv.disps, rcv.types, rcv.bytes);
    if (OMPI_SUCCESS == rc && !in_place) {
        rc = mca_coll_persist_check_blocks(size, snd.counts, snd.disps, snd.types, snd.bytes);
    }
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    if (in_place) {
        /* Send from a copy of the receive blocks taken at every start. */
        mca_coll_persist_side_span(&rcv, size, &lo, &hi);
    }
    rc = mca_coll_persist_request_new(comm, NULL, NULL, (size_t) (hi - lo), &b);
    if (OMPI_SUCCESS == rc && in_place) {
        if (hi > lo) {
            rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, (char *) rbuf + lo,
                                         b.req->tmp, (int) (hi - lo), MPI_BYTE, NULL);
        }
        sbuf = (char *) b.req->tmp - lo;
        snd = rcv;
    } else if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_action2(&b, mca_coll_persist_side_addr(&snd, sbuf, rank),
                                      snd.counts[rank], mca_coll_persist_side_type(&snd, rank),
                                      mca_coll_persist_side_addr(&rcv, rbuf, rank),
                                      rcv.counts[rank], mca_coll_persist_side_type(&rcv, rank));
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_round(&b);
    }
    for (int k = 1; OMPI_SUCCESS == rc && k < size; ++k) {
        int to = (rank + k) % size, from = (rank - k + size) % size;
        rc = mca_coll_persist_recv(&b, mca_coll_persist_side_addr(&rcv, rbuf, from),
                                   rcv.counts[from], mca_coll_persist_side_type(&rcv, from), from);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_persist_send(&b, mca_coll_persist_side_addr(&snd, sbuf, to),
                                       snd.counts[to], mca_coll_persist_side_type(&snd, to), to);
        }
    }
    return mca_coll_persist_end(&b, rc, request);
}

int mca_coll_persist_alltoallv_init(const void *sbuf, const int *scounts, const int *sdisps,
                                    struct ompi_datatype_t *sdtype, void *rbuf,
                                    const int *rcounts, const int *rdisps,
                                    struct ompi_datatype_t *rdtype,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    mca_coll_base_module_t *module)
{
    (void) info;
    (void) module;
    side_t snd = {scounts, sdisps, &sdtype, false}, rcv = {rcounts, rdisps, &rdtype, false};
    return mca_coll_persist_alltoall_direct(sbuf, snd, rbuf, rcv, comm, request);
}

int mca_coll_persist_alltoallw_init(const void *sbuf, const int *scounts, const int *sdisps,
                                    struct ompi_datatype_t *const *sdtypes, void *rbuf,
                                    const int *rcounts, const int *rdisps,
                                    struct ompi_datatype_t *const *rdtypes,
                                    struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                    ompi_request_t **request,
                                    mca_coll_base_module_t *module)
{
    (void) info;
    (void) module;
    side_t snd = {scounts, sdisps, sdtypes, true}, rcv = {rcounts, rdisps, rdtypes, true};
    return mca_coll_persist_alltoall_direct(sbuf, snd, rbuf, rcv, comm, request);
}
