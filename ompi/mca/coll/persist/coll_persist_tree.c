/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Gather and scatter along a binomial tree over ranks relative to the root
 * (vrank).  A subtree's blocks travel as one message, in vrank order:
 * inner ranks stage them in a scratch buffer, laid out with the datatype
 * they know (a non-root rank only knows its own send or receive type; the
 * type signatures match the root's by the MPI rules).  A root other than
 * rank 0 reorders between vrank and rank order with two local copies.
 */
#include "ompi_config.h"

#include "coll_persist.h"

/* Copies blocks between rank order (user buffer) and vrank order (staging
 * buffer): vranks [0, size-root) are ranks [root, size), the rest [0, root). */
static int mca_coll_persist_tree_reorder(mca_coll_persist_builder_t *b, bool to_vrank, void *user,
                                         void *stage, int count, ompi_datatype_t *dtype, int root,
                                         int size)
{
    char *u = user, *s = stage;
    ptrdiff_t blk = count * mca_coll_persist_extent(dtype);
    int head = size - root, rc;
    char *u_hi = u + root * blk, *s_lo = s, *u_lo = u, *s_hi = s + head * blk;

    rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_COPY, to_vrank ? u_hi : s_lo,
                                 to_vrank ? s_lo : u_hi, head * count, dtype, NULL);
    if (OMPI_SUCCESS == rc && root > 0) {
        rc = mca_coll_persist_action(b, MCA_COLL_PERSIST_COPY, to_vrank ? u_lo : s_hi,
                                     to_vrank ? s_hi : u_lo, root * count, dtype, NULL);
    }
    return rc;
}

int mca_coll_persist_gather_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                 void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                 int root, struct ompi_communicator_t *comm,
                                 struct ompi_info_t *info, ompi_request_t **request,
                                 mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int vrank = (rank - root + size) % size, sub = mca_coll_persist_subtree(vrank, size);
    bool is_root = rank == root, direct = is_root && 0 == root;
    /* what this rank stages: root in its receive type, others in their send type */
    int cnt = is_root ? rcount : scount;
    ompi_datatype_t *dt = is_root ? rdtype : sdtype;
    ptrdiff_t true_lb = 0;
    size_t bytes = (direct || 1 == sub) ? 0 : mca_coll_persist_span(sub * cnt, dt, &true_lb);
    mca_coll_persist_builder_t b;
    char *stage;
    int rc;
    rc = mca_coll_persist_check_args(comm, cnt, dt, NULL, root);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }

    (void) info;
    (void) module;
    rc = mca_coll_persist_request_new(comm, NULL, dt, bytes, &b);
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(&b);
        return rc;
    }
    stage = direct ? rbuf : (char *) b.req->tmp - true_lb;
    /* own block at vrank offset 0 of the staging area */
    if (is_root && MPI_IN_PLACE == sbuf) {
        if (!direct) {
            rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY,
                                         (char *) rbuf + root * rcount * mca_coll_persist_extent(rdtype),
                                         stage, rcount, rdtype, NULL);
        }
    } else if (is_root) {
        rc = mca_coll_persist_action2(&b, sbuf, scount, sdtype, stage, rcount, rdtype);
    } else if (sub > 1) {
        rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, sbuf, stage, scount, sdtype, NULL);
    }
    /* receive every child's subtree at once */
    if (OMPI_SUCCESS == rc && sub > 1) {
        rc = mca_coll_persist_round(&b);
        for (int mask = 1; OMPI_SUCCESS == rc && mask < sub; mask <<= 1) {
            int child = vrank + mask;
            rc = mca_coll_persist_recv(&b, stage + mask * cnt * mca_coll_persist_extent(dt),
                                       mca_coll_persist_subtree(child, size) * cnt, dt, (child + root) % size);
        }
    }
    if (OMPI_SUCCESS == rc && !is_root) {
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            int parent = (mca_coll_persist_parent(vrank) + root) % size;
            rc = 1 == sub ? mca_coll_persist_send(&b, sbuf, scount, sdtype, parent)
                          : mca_coll_persist_send(&b, stage, sub * scount, sdtype, parent);
        }
    }
    if (OMPI_SUCCESS == rc && is_root && !direct) {
        rc = mca_coll_persist_tree_reorder(&b, false, rbuf, stage, rcount, rdtype, root, size);
    }
    return mca_coll_persist_end(&b, rc, request);
}

int mca_coll_persist_scatter_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                                  void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                                  int root, struct ompi_communicator_t *comm,
                                  struct ompi_info_t *info, ompi_request_t **request,
                                  mca_coll_base_module_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int vrank = (rank - root + size) % size, sub = mca_coll_persist_subtree(vrank, size);
    bool is_root = rank == root, direct = is_root && 0 == root;
    int cnt = is_root ? scount : rcount;
    ompi_datatype_t *dt = is_root ? sdtype : rdtype;
    ptrdiff_t true_lb = 0;
    size_t bytes = (direct || (!is_root && 1 == sub)) ? 0 : mca_coll_persist_span(sub * cnt, dt, &true_lb);
    mca_coll_persist_builder_t b;
    char *stage;
    int rc;

    rc = mca_coll_persist_check_args(comm, cnt, dt, NULL, root);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }

    (void) info;
    (void) module;
    rc = mca_coll_persist_request_new(comm, NULL, dt, bytes, &b);
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(&b);
        return rc;
    }
    stage = direct ? (char *) sbuf : (char *) b.req->tmp - true_lb;
    if (is_root && !direct) {
        rc = mca_coll_persist_tree_reorder(&b, true, (void *) sbuf, stage, scount, sdtype, root,
                                           size);
    }
    if (OMPI_SUCCESS == rc && !is_root) {
        int parent = (mca_coll_persist_parent(vrank) + root) % size;
        rc = mca_coll_persist_round(&b);
        if (OMPI_SUCCESS == rc) {
            rc = 1 == sub ? mca_coll_persist_recv(&b, rbuf, rcount, rdtype, parent)
                          : mca_coll_persist_recv(&b, stage, sub * rcount, rdtype, parent);
        }
    }
    if (OMPI_SUCCESS == rc && sub > 1) {
        rc = mca_coll_persist_round(&b);
        for (int mask = 1; OMPI_SUCCESS == rc && mask < sub; mask <<= 1) {
            int child = vrank + mask;
            rc = mca_coll_persist_send(&b, stage + mask * cnt * mca_coll_persist_extent(dt),
                                       mca_coll_persist_subtree(child, size) * cnt, dt, (child + root) % size);
        }
        /* own block */
        if (OMPI_SUCCESS == rc && is_root && MPI_IN_PLACE != rbuf) {
            rc = mca_coll_persist_action2(&b, stage, scount, sdtype, rbuf, rcount, rdtype);
        } else if (OMPI_SUCCESS == rc && !is_root) {
            rc = mca_coll_persist_action(&b, MCA_COLL_PERSIST_COPY, stage, rbuf, rcount, rdtype, NULL);
        }
    } else if (OMPI_SUCCESS == rc && is_root && MPI_IN_PLACE != rbuf) {
        rc = mca_coll_persist_action2(&b, stage, scount, sdtype, rbuf, rcount, rdtype);
    }
    return mca_coll_persist_end(&b, rc, request);
}
