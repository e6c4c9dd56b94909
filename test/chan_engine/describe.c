/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * pml/chan loads beside the selected PML (ob1 or ucx), publishes its table
 * in common/ompix's registry, and describe() reports what each kind of
 * persistent point-to-point request was created with: MPI_Send_init,
 * MPI_Bsend_init, MPI_Ssend_init, MPI_Rsend_init (their send modes) and
 * MPI_Recv_init with wildcards, on a communicator and datatype the user
 * frees right after.  Ordinary requests, freed requests' handles and
 * persistent collectives are not described.  The engine entries are there
 * (pml_chan_enable defaults to 1); describe_off.c runs with it off.
 */
#include "chan_engine.h"

#ifndef EXPECT_ENGINE
#define EXPECT_ENGINE 1
#endif
#ifndef TEST_NAME
#define TEST_NAME "chan_engine/describe"
#endif

static void check_info(MPI_Request req, int is_send, int mode, void *buf, int count,
                       MPI_Datatype type, int peer, int tag, MPI_Comm comm)
{
    mca_pml_chan_reqinfo_t info;

    memset(&info, 0xff, sizeof(info));
    CHECK(MPI_SUCCESS == chan_api->describe(req, &info));
    CHECK(info.is_send == is_send);
    CHECK(info.send_mode == mode);
    CHECK(info.buf == buf);
    CHECK(info.count == (size_t) count);
    CHECK(info.type == type);
    CHECK(info.peer == peer);
    CHECK(info.tag == tag);
    CHECK(info.comm == comm);
}

int main(int argc, char **argv)
{
    int buf[16], other = 0;
    MPI_Request req[5], plain;
    MPI_Comm dup;
    MPI_Datatype pair;
    mca_pml_chan_reqinfo_t info;
    char bsend[1024];

    chan_engine_init(&argc, &argv);
    CHECK(NULL != chan_api);
    if (NULL == chan_api) {
        return ompix_test_finish(TEST_NAME);
    }
    CHECK(NULL != chan_api->describe);
    CHECK(EXPECT_ENGINE == (NULL != chan_api->prepare));
    CHECK(EXPECT_ENGINE == (NULL != chan_api->connect));
    CHECK(EXPECT_ENGINE == (NULL != chan_api->abandon));
    CHECK(EXPECT_ENGINE == (NULL != chan_api->unbind));

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Buffer_attach(bsend, sizeof(bsend));
    MPI_Send_init(buf, 3, pair, right, 7, dup, &req[0]);
    MPI_Bsend_init(buf + 1, 2, MPI_INT, right, 8, dup, &req[1]);
    MPI_Ssend_init(buf + 2, 1, MPI_INT, left, 9, dup, &req[2]);
    MPI_Rsend_init(buf + 3, 4, MPI_INT, left, 10, dup, &req[3]);
    MPI_Recv_init(buf + 4, 5, pair, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &req[4]);
    /* Both stay valid while the requests live. */
    MPI_Comm d = dup;
    MPI_Datatype p = pair;
    MPI_Comm_free(&dup);
    MPI_Type_free(&pair);

    check_info(req[0], 1, 0, buf, 3, p, right, 7, d);
    check_info(req[1], 1, 1, buf + 1, 2, MPI_INT, right, 8, d);
    check_info(req[2], 1, 2, buf + 2, 1, MPI_INT, left, 9, d);
    check_info(req[3], 1, 3, buf + 3, 4, MPI_INT, left, 10, d);
    check_info(req[4], 0, 0, buf + 4, 5, p, MPI_ANY_SOURCE, MPI_ANY_TAG, d);

    /* Started and completed requests keep their description. */
    if (0 == rank) {
        MPI_Start(&req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&other, 6, MPI_INT, left, 7, d, MPI_STATUS_IGNORE);
    }
    check_info(req[0], 1, 0, buf, 3, p, right, 7, d);

    /* Not persistent point-to-point: not described. */
    MPI_Irecv(&other, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &plain);
    CHECK(MPI_ERR_REQUEST == chan_api->describe(plain, &info));
    MPI_Wait(&plain, MPI_STATUS_IGNORE);
    MPI_Isend(&other, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &plain);
    CHECK(MPI_ERR_REQUEST == chan_api->describe(plain, &info));
    MPI_Recv(&other, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&plain, MPI_STATUS_IGNORE);
    CHECK(MPI_ERR_REQUEST == chan_api->describe(MPI_REQUEST_NULL, &info));

    for (int i = 0; i < 5; ++i) {
        MPI_Request keep = req[i];
        MPI_Request_free(&req[i]);
        (void) keep;
    }
    /* A freed request's slot, reused by an ordinary message, is not
     * described (the PML's own req_free is back in place). */
    for (int i = 0; i < 4; ++i) {
        MPI_Isend(&other, 1, MPI_INT, rank, 4, MPI_COMM_WORLD, &plain);
        CHECK(MPI_ERR_REQUEST == chan_api->describe(plain, &info));
        MPI_Recv(&other, 1, MPI_INT, rank, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&plain, MPI_STATUS_IGNORE);
    }
    int sz;
    void *b;
    MPI_Buffer_detach(&b, &sz);
    return ompix_test_finish(TEST_NAME);
}
