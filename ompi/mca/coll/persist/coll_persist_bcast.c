/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Broadcast along a binomial tree rooted at root: receive from the parent,
 * then send to every child at once.  Works on the user's buffer directly,
 * for any datatype.
 */
#include "ompi_config.h"

#include "coll_persist.h"

int mca_coll_persist_bcast_init(void *buff, int count, struct ompi_datatype_t *datatype,
                                int root, struct ompi_communicator_t *comm,
                                struct ompi_info_t *info, ompi_request_t **request,
                                struct mca_coll_base_module_2_3_0_t *module)
{
    int rank = ompi_comm_rank(comm), size = ompi_comm_size(comm);
    int vrank = (rank - root + size) % size, mask = 1;
    mca_coll_persist_builder_t b;
    int rc;

    (void) info;
    (void) module;
    rc = mca_coll_persist_request_new(comm, NULL, datatype, 0, &b);
    /* The parent clears our lowest set bit. */
    while (OMPI_SUCCESS == rc && mask < size) {
        if (vrank & mask) {
            rc = mca_coll_persist_round(&b);
            if (OMPI_SUCCESS == rc) {
                rc = mca_coll_persist_recv(&b, buff, count, datatype,
                                           (vrank - mask + root) % size);
            }
            break;
        }
        mask <<= 1;
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_persist_round(&b);
    }
    for (mask >>= 1; OMPI_SUCCESS == rc && mask > 0; mask >>= 1) {
        if (vrank + mask < size) {
            rc = mca_coll_persist_send(&b, buff, count, datatype, (vrank + mask + root) % size);
        }
    }
    if (OMPI_SUCCESS != rc) {
        mca_coll_persist_abandon(&b);
        return rc;
    }
    return mca_coll_persist_finish(&b, request);
}
