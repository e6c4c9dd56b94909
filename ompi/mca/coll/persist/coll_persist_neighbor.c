/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Neighborhood collectives by direct exchange on cartesian, graph and
 * distributed-graph communicators: one round with a send to every
 * out-neighbor and a receive from every in-neighbor (MPI_PROC_NULL
 * neighbors leave their block alone).  On a cartesian grid a rank can be
 * both neighbors along one dimension (a periodic dimension of size 1 or
 * 2), so messages sent toward the negative and the positive side carry
 * different tags: each lands in the block of the direction it came from.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "coll_persist.h"

typedef struct {
    int indeg, outdeg;
    int *in, *out;
    int *in_tag, *out_tag;     /* which of the two tags each message uses */
} neighbors_t;

static void mca_coll_persist_neighbors_free(neighbors_t *nb)
{
    free(nb->in);
    free(nb->out);
    free(nb->in_tag);
    free(nb->out_tag);
}

/* Init-time only: the neighbor lists, in the order MPI defines. */
static int mca_coll_persist_neighbors_get(ompi_communicator_t *comm, neighbors_t *nb)
{
    int kind, rc = MPI_SUCCESS;

    memset(nb, 0, sizeof(*nb));
    PMPI_Topo_test(comm, &kind);
    if (MPI_CART == kind) {
        int ndims;
        PMPI_Cartdim_get(comm, &ndims);
        nb->indeg = nb->outdeg = 2 * ndims;
    } else if (MPI_GRAPH == kind) {
        PMPI_Graph_neighbors_count(comm, ompi_comm_rank(comm), &nb->indeg);
        nb->outdeg = nb->indeg;
    } else if (MPI_DIST_GRAPH == kind) {
        int weighted;
        PMPI_Dist_graph_neighbors_count(comm, &nb->indeg, &nb->outdeg, &weighted);
    } else {
        return MPI_ERR_TOPOLOGY;
    }
    nb->in = calloc(nb->indeg + 1, sizeof(int));
    nb->out = calloc(nb->outdeg + 1, sizeof(int));
    nb->in_tag = calloc(nb->indeg + 1, sizeof(int));
    nb->out_tag = calloc(nb->outdeg + 1, sizeof(int));
    if (!nb->in || !nb->out || !nb->in_tag || !nb->out_tag) {
        mca_coll_persist_neighbors_free(nb);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (MPI_CART == kind) {
        for (int d = 0; d < nb->indeg / 2; ++d) {
            PMPI_Cart_shift(comm, d, 1, &nb->in[2 * d], &nb->in[2 * d + 1]);
            nb->out[2 * d] = nb->in[2 * d];
            nb->out[2 * d + 1] = nb->in[2 * d + 1];
            /* sent toward the negative side: tag 1; toward the positive: 0 */
            nb->out_tag[2 * d] = 1;
            nb->in_tag[2 * d + 1] = 1;
        }
    } else if (MPI_GRAPH == kind) {
        rc = PMPI_Graph_neighbors(comm, ompi_comm_rank(comm), nb->indeg, nb->in);
        memcpy(nb->out, nb->in, sizeof(int) * nb->indeg);
    } else {
        /* weights are not needed, but a weighted graph fills them */
        int *w = calloc(nb->indeg + nb->outdeg + 2, sizeof(int));
        if (NULL == w) {
            mca_coll_persist_neighbors_free(nb);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        rc = PMPI_Dist_graph_neighbors(comm, nb->indeg, nb->in, w, nb->outdeg, nb->out,
                                       w + nb->indeg + 1);
        free(w);
    }
    return rc;
}

/* One block per neighbor: count/type/address per in- and out-neighbor. */
typedef struct {
    const int *counts;
    const void *disps;          /* int (elements), MPI_Aint (bytes) or NULL */
    bool aint;
    int count;                  /* when counts is NULL */
    ompi_datatype_t *const *types;
    bool per_peer_type;
    bool given;                 /* counts and disps come from the user: check them */
} layout_t;

static ompi_datatype_t *mca_coll_persist_layout_type(const layout_t *l, int i)
{
    return l->types[l->per_peer_type ? i : 0];
}

static int mca_coll_persist_layout_count(const layout_t *l, int i)
{
    return l->counts ? l->counts[i] : l->count;
}

static char *mca_coll_persist_layout_addr(const layout_t *l, const void *buf, int i)
{
    ptrdiff_t lb, extent;
    if (l->aint) {
        return (char *) buf + ((const MPI_Aint *) l->disps)[i];
    }
    ompi_datatype_get_extent(mca_coll_persist_layout_type(l, i), &lb, &extent);
    if (NULL == l->disps) {
        return (char *) buf + (ptrdiff_t) i * l->count * extent;
    }
    return (char *) buf + (ptrdiff_t) ((const int *) l->disps)[i] * extent;
}

/* same_send: every out-neighbor gets the whole send buffer (allgather). */
static int mca_coll_persist_neighbor_exchange(const void *sbuf, layout_t snd, bool same_send,
                                              void *rbuf, layout_t rcv, ompi_communicator_t *comm,
                                              struct ompi_info_t *info, ompi_request_t **request)
{
    mca_coll_persist_builder_t b;
    neighbors_t nb;
    int tags[2];
    int rc = mca_coll_persist_neighbors_get(comm, &nb);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (snd.given) {
        rc = mca_coll_persist_check_blocks(nb.outdeg, snd.counts, snd.disps, snd.types,
                                           snd.per_peer_type);
    }
    if (OMPI_SUCCESS == rc && rcv.given) {
        rc = mca_coll_persist_check_blocks(nb.indeg, rcv.counts, rcv.disps, rcv.types,
                                           rcv.per_peer_type);
    }
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_neighbors_free(&nb);
        return rc;
    }
    rc = mca_coll_persist_request_new(comm, NULL, NULL, 0, &b);
    if (OMPI_SUCCESS == rc) {
        tags[0] = b.req->tag;
        tags[1] = ompi_coll_base_nbc_reserve_tags(comm, 1);
        rc = mca_coll_persist_round(&b);
    }
    for (int i = 0; OMPI_SUCCESS == rc && i < nb.indeg; ++i) {
        if (MPI_PROC_NULL == nb.in[i]) {
            continue;
        }
        b.req->tag = tags[nb.in_tag[i]];
        rc = mca_coll_persist_recv(&b, mca_coll_persist_layout_addr(&rcv, rbuf, i),
                                   mca_coll_persist_layout_count(&rcv, i),
                                   mca_coll_persist_layout_type(&rcv, i), nb.in[i]);
    }
    for (int i = 0; OMPI_SUCCESS == rc && i < nb.outdeg; ++i) {
        if (MPI_PROC_NULL == nb.out[i]) {
            continue;
        }
        b.req->tag = tags[nb.out_tag[i]];
        rc = same_send ? mca_coll_persist_send(&b, sbuf, snd.count, snd.types[0], nb.out[i])
                       : mca_coll_persist_send(&b, mca_coll_persist_layout_addr(&snd, sbuf, i),
                                               mca_coll_persist_layout_count(&snd, i),
                                               mca_coll_persist_layout_type(&snd, i), nb.out[i]);
    }
    mca_coll_persist_neighbors_free(&nb);
    rc = mca_coll_persist_end(&b, rc, request);
    /* a halo exchange with no user code: the neighbours' channels, one bundle */
    mca_coll_persist_bundle_try(comm, OMPI_SUCCESS == rc ? *request : NULL,
                                mca_coll_persist_effort(info), true);
    return rc;
}

int mca_coll_persist_neighbor_allgather_init(const void *sbuf, int scount,
                                             struct ompi_datatype_t *sdtype, void *rbuf,
                                             int rcount, struct ompi_datatype_t *rdtype,
                                             struct ompi_communicator_t *comm,
                                             struct ompi_info_t *info, ompi_request_t **request,
                                             mca_coll_base_module_t *module)
{
    layout_t snd = {NULL, NULL, false, scount, &sdtype, false, false};
    layout_t rcv = {NULL, NULL, false, rcount, &rdtype, false, false};
    (void) module;
    return mca_coll_persist_neighbor_exchange(sbuf, snd, true, rbuf, rcv, comm, info, request);
}

int mca_coll_persist_neighbor_allgatherv_init(const void *sbuf, int scount,
                                              struct ompi_datatype_t *sdtype, void *rbuf,
                                              const int *rcounts, const int *disps,
                                              struct ompi_datatype_t *rdtype,
                                              struct ompi_communicator_t *comm,
                                              struct ompi_info_t *info, ompi_request_t **request,
                                              mca_coll_base_module_t *module)
{
    layout_t snd = {NULL, NULL, false, scount, &sdtype, false, false};
    layout_t rcv = {rcounts, disps, false, 0, &rdtype, false, true};
    (void) module;
    return mca_coll_persist_neighbor_exchange(sbuf, snd, true, rbuf, rcv, comm, info, request);
}

int mca_coll_persist_neighbor_alltoall_init(const void *sbuf, int scount,
                                            struct ompi_datatype_t *sdtype, void *rbuf,
                                            int rcount, struct ompi_datatype_t *rdtype,
                                            struct ompi_communicator_t *comm,
                                            struct ompi_info_t *info, ompi_request_t **request,
                                            mca_coll_base_module_t *module)
{
    layout_t snd = {NULL, NULL, false, scount, &sdtype, false, false};
    layout_t rcv = {NULL, NULL, false, rcount, &rdtype, false, false};
    (void) module;
    return mca_coll_persist_neighbor_exchange(sbuf, snd, false, rbuf, rcv, comm, info, request);
}

int mca_coll_persist_neighbor_alltoallv_init(const void *sbuf, const int *scounts,
                                             const int *sdisps, struct ompi_datatype_t *sdtype,
                                             void *rbuf, const int *rcounts, const int *rdisps,
                                             struct ompi_datatype_t *rdtype,
                                             struct ompi_communicator_t *comm,
                                             struct ompi_info_t *info, ompi_request_t **request,
                                             mca_coll_base_module_t *module)
{
    layout_t snd = {scounts, sdisps, false, 0, &sdtype, false, true};
    layout_t rcv = {rcounts, rdisps, false, 0, &rdtype, false, true};
    (void) module;
    return mca_coll_persist_neighbor_exchange(sbuf, snd, false, rbuf, rcv, comm, info, request);
}

int mca_coll_persist_neighbor_alltoallw_init(const void *sbuf, const int *scounts,
                                             const MPI_Aint *sdisps,
                                             struct ompi_datatype_t *const *sdtypes, void *rbuf,
                                             const int *rcounts, const MPI_Aint *rdisps,
                                             struct ompi_datatype_t *const *rdtypes,
                                             struct ompi_communicator_t *comm,
                                             struct ompi_info_t *info, ompi_request_t **request,
                                             mca_coll_base_module_t *module)
{
    layout_t snd = {scounts, sdisps, true, 0, sdtypes, true, true};
    layout_t rcv = {rcounts, rdisps, true, 0, rdtypes, true, true};
    (void) module;
    return mca_coll_persist_neighbor_exchange(sbuf, snd, false, rbuf, rcv, comm, info, request);
}
