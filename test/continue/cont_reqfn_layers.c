/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60 mca="pml_chan_enable 0"
 *
 * The layers over Open MPI's request functions (common_ompix_reqfn.h):
 * the continue extension's and the channel extension's wrap the table
 * behind MPI_Wait/MPI_Test at the first continuation request and the first
 * slack channel, both stay on while both extensions are in use, and
 * MPI_Finalize leaves exactly Open MPI's own functions whatever the order
 * the extensions finalize in.  Rank 0 initializes continuations before its
 * first channel (the channel layer goes on top and comes off first); rank 1
 * binds a channel of slack 1 first (no layer: the fallback without threads
 * does not wrap), then initializes continuations, then binds a slack-2
 * channel: the channel layer goes on above the continue layer, but the
 * continue extension, registered later, finalizes first, so its layer
 * comes off from under the channel layer's.  An observer attribute on
 * MPI_COMM_SELF, set before either extension's, runs after both cleanups
 * and compares the table with the one MPI_Init left.  On Open MPI 5.0
 * (no channel extension) only the continue layer is exercised.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <string.h>

/* Open MPI's ompi_request_functions (ompi/request/request.h): eight
 * function pointers, exported by libmpi. */
typedef struct {
    void (*fn[8])(void);
} reqfn_table_t;
extern reqfn_table_t ompi_request_functions;

static reqfn_table_t at_init;
static int observed, restored;

static int observer_cb(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void) comm; (void) value; (void) extra;
    observed = 1;
    restored = 0 == memcmp(&ompi_request_functions, &at_init, sizeof(at_init));
    MPI_Comm_free_keyval(&keyval);
    return MPI_SUCCESS;
}

static void observe_finalize(void)
{
    int keyval;

    at_init = ompi_request_functions;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, observer_cb, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
}

static void count_cb(MPI_Status *st, void *data)
{
    (void) st;
    ++*(int *) data;
}

#ifdef OMPI_HAVE_MPI_EXT_CHAN
/* A channel from rank 0 to rank 1 of the given slack, tag tag. */
static MPI_Request chan_bind(int *buf, int slack, int tag)
{
    MPI_Request req, chan = MPI_REQUEST_NULL;

    if (0 == rank) {
        MPI_Send_init(buf, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(buf, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_slack_channel(req, &chan, slack, MPI_INFO_NULL));
    MPI_Request_free(&req);
    return chan;
}

/* Ten rounds on chan, the receiver's through a persistent continuation
 * (counted by cr's callbacks) when cr is given. */
static void chan_rounds(MPI_Request chan, int *buf, MPI_Request cr, int *ran)
{
    MPI_Status st;

    if (MPI_REQUEST_NULL != cr) {
        CHECK(MPI_SUCCESS == MPIX_Continue(&chan, count_cb, ran, MPIX_CONT_PERSISTENT,
                                           MPI_STATUS_IGNORE, cr));
    }
    for (int r = 0; r < 10; ++r) {
        *buf = 0 == rank ? r : -1;
        CHECK(MPI_SUCCESS == MPI_Start(&chan));
        if (MPI_REQUEST_NULL != cr) {
            CHECK(MPI_SUCCESS == MPI_Wait(&cr, &st));
            CHECK(r + 1 == *ran);
        } else {
            CHECK(MPI_SUCCESS == MPI_Wait(&chan, &st));
        }
        CHECK(r == *buf);
    }
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
}
#endif

int main(int argc, char **argv)
{
    MPI_Request cr = MPI_REQUEST_NULL;
    int buf[2], ran = 0;

#ifdef OMPI_HAVE_MPI_EXT_CHAN
    ompix_chan_add_to_pml_list();
#endif
    ompix_test_init(&argc, &argv);
    CHECK(2 == size);
    observe_finalize();
    if (0 == rank) {
        CHECK(MPI_SUCCESS == MPIX_Continue_init(MPI_INFO_NULL, &cr));
    }
#ifdef OMPI_HAVE_MPI_EXT_CHAN
    MPI_Request plain = chan_bind(&buf[0], 1, 5);
    if (1 == rank) {
        CHECK(MPI_SUCCESS == MPIX_Continue_init(MPI_INFO_NULL, &cr));
    }
    MPI_Request slack = chan_bind(&buf[1], 2, 6);
    CHECK(0 != memcmp(&ompi_request_functions, &at_init, sizeof(at_init)));
    chan_rounds(plain, &buf[0], MPI_REQUEST_NULL, &ran);
    chan_rounds(slack, &buf[1], 1 == rank ? cr : MPI_REQUEST_NULL, &ran);
    CHECK((1 == rank ? 10 : 0) == ran);
#else
    if (1 == rank) {
        CHECK(MPI_SUCCESS == MPIX_Continue_init(MPI_INFO_NULL, &cr));
    }
    CHECK(0 != memcmp(&ompi_request_functions, &at_init, sizeof(at_init)));
    /* a continuation through the layer: a message to the other rank */
    MPI_Request op[2];
    buf[0] = rank;
    MPI_Irecv(&buf[1], 1, MPI_INT, 1 - rank, 7, MPI_COMM_WORLD, &op[0]);
    MPI_Isend(&buf[0], 1, MPI_INT, 1 - rank, 7, MPI_COMM_WORLD, &op[1]);
    CHECK(MPI_SUCCESS == MPIX_Continueall(2, op, count_cb, &ran, 0, MPI_STATUSES_IGNORE, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(1 == ran && 1 - rank == buf[1]);
#endif
    MPI_Request_free(&cr);
    int rc = ompix_test_finish("cont_reqfn_layers");
    if (!observed || !restored) {
        printf("rank %d: request functions %s at MPI_Finalize\n", rank,
               observed ? "not restored" : "not observed");
        rc = 1;
    }
    return rc;
}
