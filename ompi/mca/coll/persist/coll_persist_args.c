/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The argument checks of the *_init calls that Open MPI's bindings make
 * only while mpi_param_check is on: with it off, a null datatype or
 * operation, a negative count or a root out of range would otherwise
 * reach the planners (and a rank could be left half-way through a
 * collective init).  Every rank checks the same arguments, so all of them
 * refuse together.
 */
#include "ompi_config.h"

#include "coll_persist.h"

int mca_coll_persist_check_args(struct ompi_communicator_t *comm, int count,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root)
{
    if (count < 0) {
        return MPI_ERR_COUNT;
    }
    if (NULL == dtype || &ompi_mpi_datatype_null.dt == dtype) {
        return MPI_ERR_TYPE;
    }
    if (NULL != op && &ompi_mpi_op_null.op == op) {
        return MPI_ERR_OP;
    }
    if (MCA_COLL_PERSIST_NO_ROOT != root && (root < 0 || root >= ompi_comm_size(comm))) {
        return MPI_ERR_ROOT;
    }
    return OMPI_SUCCESS;
}
