/*
 * ompix-test: np=1,2,3 tls=shm,tcp pml=ob1 timeout=60
 *
 * Bad arguments to the persistent collectives return the proper error
 * class through the communicator's error handler (Open MPI's MPIX_*_init
 * bindings check them before the component plans anything, so no rank is
 * left half-way through a collective init), and the communicator works
 * afterwards; starting an active request and freeing an active one are
 * MPI_ERR_REQUEST.
 */
#include "ompix_test.h"




static void bad_init_arguments(void)
{
    int in[4] = {1, 2, 3, 4}, out[4];
    int displs[4] = {0, 1, 2, 3};
    MPI_Request req = MPI_REQUEST_NULL;

    CHECK_ERR(MPIX_Allreduce_init(in, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                      MPI_INFO_NULL, &req), MPI_ERR_COUNT);
    CHECK_ERR(MPIX_Bcast_init(in, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                                  &req), MPI_ERR_TYPE);
    CHECK_ERR(MPIX_Allreduce_init(in, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD,
                                      MPI_INFO_NULL, &req), MPI_ERR_OP);
    /* a predefined operation on a type it is not defined for */
    CHECK_ERR(MPIX_Allreduce_init(in, out, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD,
                                      MPI_INFO_NULL, &req), MPI_ERR_OP);
    CHECK_ERR(MPIX_Allreduce_init(in, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                      MPI_INFO_NULL, &req), MPI_ERR_BUFFER);
    CHECK_ERR(MPIX_Bcast_init(in, 1, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
                  MPI_ERR_ROOT);
    CHECK_ERR(MPIX_Bcast_init(in, 1, MPI_INT, -1, MPI_COMM_WORLD, MPI_INFO_NULL, &req),
                  MPI_ERR_ROOT);
    CHECK_ERR(MPIX_Bcast_init(in, 1, MPI_INT, 0, MPI_COMM_NULL, MPI_INFO_NULL, &req),
                  MPI_ERR_COMM);
    CHECK_ERR(MPIX_Reduce_init(in, out, 1, MPI_INT, MPI_MAX, size + 3, MPI_COMM_WORLD,
                                   MPI_INFO_NULL, &req), MPI_ERR_ROOT);
    CHECK_ERR(MPIX_Gather_init(in, -2, MPI_INT, out, 1, MPI_INT, 0, MPI_COMM_WORLD,
                                   MPI_INFO_NULL, &req), MPI_ERR_COUNT);
    CHECK_ERR(MPIX_Alltoall_init(in, 1, MPI_DATATYPE_NULL, out, 1, MPI_INT, MPI_COMM_WORLD,
                                     MPI_INFO_NULL, &req), MPI_ERR_TYPE);
    CHECK_ERR(MPIX_Allgatherv_init(in, 1, MPI_INT, out, NULL, displs, MPI_INT,
                                       MPI_COMM_WORLD, MPI_INFO_NULL, &req), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Scan_init(in, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &req), MPI_ERR_OP);
    /* Neighborhood collectives need a topology.  Open MPI 4.1's binding
     * invokes the handler and then calls the component anyway, which
     * refuses too: the handler runs twice, with the right class. */
    int before = err_handler_calls;
    CHECK_CLASS(MPIX_Neighbor_allgather_init(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD,
                                             MPI_INFO_NULL, &req), MPI_ERR_TOPOLOGY);
    CHECK(err_handler_calls > before && err_handler_class == MPI_ERR_TOPOLOGY);
    CHECK(MPI_REQUEST_NULL == req);
}

/* Arrays of the v- and w-variants that the bindings do not check are
 * checked by coll/persist: missing ones and negative counts. */
static void bad_arrays(void)
{
    int in[4] = {0}, out[4], ones[4] = {1, 1, 1, 1}, neg[4] = {1, -1, 1, 1};
    int displs[4] = {0, 1, 2, 3};
    MPI_Datatype types[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
    MPI_Datatype nulls[4] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL,
                             MPI_DATATYPE_NULL};
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm ring;
    int periodic = 1;

    CHECK_ERR(MPIX_Allgatherv_init(in, 1, MPI_INT, out, ones, NULL, MPI_INT, MPI_COMM_WORLD,
                                       MPI_INFO_NULL, &req), MPI_ERR_BUFFER);
    if (size > 1) {
        CHECK_ERR(MPIX_Reduce_scatter_init(in, out, neg, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                               MPI_INFO_NULL, &req), MPI_ERR_COUNT);
    }
    CHECK_ERR(MPIX_Alltoallw_init(in, ones, displs, nulls, out, ones, displs, types,
                                      MPI_COMM_WORLD, MPI_INFO_NULL, &req), MPI_ERR_TYPE);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    CHECK_CLASS(MPIX_Neighbor_alltoallv_init(in, ones, NULL, MPI_INT, out, ones, displs, MPI_INT,
                                             ring, MPI_INFO_NULL, &req), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Neighbor_allgatherv_init(in, 1, MPI_INT, out, neg, displs, MPI_INT, ring,
                                              MPI_INFO_NULL, &req), MPI_ERR_COUNT);
    MPI_Comm_free(&ring);
    CHECK(MPI_REQUEST_NULL == req);
}

/* A started request may not be started again before it completes and is
 * waited for, nor freed while active. */
static void active_requests(void)
{
    int in = rank + 1, out = 0;
    MPI_Request req;

    CHECK(MPI_SUCCESS == MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                             MPI_INFO_NULL, &req));
    if (0 == rank) {
        MPI_Start(&req);
        CHECK_CLASS(MPI_Start(&req), MPI_ERR_REQUEST);
        if (size > 1) {
            /* the others start after the barrier: it cannot be complete */
            CHECK_CLASS(MPI_Request_free(&req), MPI_ERR_REQUEST);
            CHECK(MPI_REQUEST_NULL != req);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 != rank) {
        MPI_Start(&req);
    }
    CHECK(MPI_SUCCESS == MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(out == size * (size + 1) / 2);
    CHECK(MPI_SUCCESS == MPI_Request_free(&req));
}

/* After all of the above the communicator still plans and runs
 * collectives correctly. */
static void still_works(void)
{
    int in = rank, out = -1;
    MPI_Request req;
    CHECK(MPI_SUCCESS == MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD,
                                             MPI_INFO_NULL, &req));
    for (int it = 0; it < 3; ++it) {
        in = rank + it;
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(out == size - 1 + it);
    }
    MPI_Request_free(&req);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;

    ompix_test_init(&argc, &argv);
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    bad_init_arguments();
    bad_arrays();
    active_requests();
    still_works();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("persist_errors");
}
