/*
 * ompix-test: np=2,4 tls=shm,tcp,net pml=ob1,ucx timeout=120 mca="pml_chan_large_min 16384"
 *
 * Large messages on bound channels (pml/chan's large path: a contiguous
 * receive of at least pml_chan_large_min bytes takes the data in place,
 * written by the sender with cma on one node or UCX puts; smaller or
 * non-contiguous receives keep the ring).  Pairs (2k, 2k+1), the even rank
 * sends.  Sizes just under, at and above the threshold up to 1 MiB; slack
 * 1 and 4 with address_base_increment positive and negative; ready
 * channels (the receiver starts its K receives, then tells the sender) and
 * synchronous ones; a receive buffer bigger than the send (its tail must
 * stay untouched); a non-contiguous type at both ends (the ring) and a
 * non-contiguous send into a contiguous receive (packed, then in place).
 * Data, count and the untouched tail are checked on every start.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <stdlib.h>
#include <string.h>

#define ROUNDS 5
#define TAG_GO 99

typedef struct {
    int ints;           /* ints per message */
    int slack;
    int incr_sign;      /* -1, 0 (slack 1) or 1 */
    int sync;           /* bound from MPI_Ssend_init */
    int extra;          /* ints the receive holds beyond the message */
    int vector;         /* 1: send type strided; 2: both strided */
} large_case_t;

static int value(int c, long n, int i)
{
    return (int) (c * 1000003L + n * 7919L + i * 31L + 1);
}

/* ints ints, every other one, of extent 2 * ints ints (one slot, so that
 * address_base_increment 1 moves a slot). */
static MPI_Datatype strided(int ints)
{
    MPI_Datatype v, t;

    MPI_Type_vector(ints, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 2 * (MPI_Aint) ints * (MPI_Aint) sizeof(int), &t);
    MPI_Type_free(&v);
    MPI_Type_commit(&t);
    return t;
}

/* Slot k's first int in an area of K slots of len ints (negative
 * increment: the bound buffer is the last slot and k counts down). */
static int *slot(int *area, const large_case_t *lc, int len, int k)
{
    return area + (lc->incr_sign < 0 ? (lc->slack - 1 - k) : k) * (long) len;
}

static MPI_Request bind(const large_case_t *lc, void *buf, int count, MPI_Datatype type,
                        long incr, int peer, int is_send)
{
    MPI_Request req, chan = MPI_REQUEST_NULL;
    MPI_Info info;
    char s[32];

    if (is_send && lc->sync) {
        MPI_Ssend_init(buf, count, type, peer, 3, MPI_COMM_WORLD, &req);
    } else if (is_send) {
        MPI_Send_init(buf, count, type, peer, 3, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(buf, count, type, peer, 3, MPI_COMM_WORLD, &req);
    }
    MPI_Info_create(&info);
    snprintf(s, sizeof(s), "%ld", incr);
    MPI_Info_set(info, "address_base_increment", s);
    CHECK(MPI_SUCCESS == MPIX_Bind_slack_channel(req, &chan, lc->slack, info));
    MPI_Info_free(&info);
    MPI_Request_free(&req);
    return chan;
}

static void run_send(int c, const large_case_t *lc, int peer)
{
    int stride = lc->vector ? 2 : 1, len = lc->ints * stride + lc->extra;
    int *area = calloc((size_t) lc->slack * len, sizeof(int));
    MPI_Datatype type = lc->vector ? strided(lc->ints) : MPI_INT;
    int count = lc->vector ? 1 : lc->ints;
    long incr = (long) lc->incr_sign * (lc->vector ? 1 : len);     /* strided: extra 0 */
    MPI_Request chan;

    chan = bind(lc, slot(area, lc, len, 0), count, type, incr, peer, 1);
    for (long r = 0; r < ROUNDS && MPI_REQUEST_NULL != chan; ++r) {
        if (!lc->sync) {
            MPI_Recv(NULL, 0, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        for (int k = 0; k < lc->slack; ++k) {
            int *p = slot(area, lc, len, k);
            for (int i = 0; i < lc->ints; ++i) {
                p[i * stride] = value(c, r * lc->slack + k, i);
            }
            CHECK(MPI_SUCCESS == MPI_Start(&chan));
        }
        for (int k = 0; k < lc->slack; ++k) {
            CHECK(MPI_SUCCESS == MPI_Wait(&chan, MPI_STATUS_IGNORE));
        }
    }
    if (MPI_REQUEST_NULL != chan) {
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    }
    if (lc->vector) {
        MPI_Type_free(&type);
    }
    free(area);
}

static void run_recv(int c, const large_case_t *lc, int peer)
{
    int stride = 2 == lc->vector ? 2 : 1;
    int len = lc->ints * (lc->vector ? 2 : 1) + lc->extra;
    int *area = calloc((size_t) lc->slack * len, sizeof(int));
    MPI_Datatype type = 2 == lc->vector ? strided(lc->ints) : MPI_INT;
    int count = 2 == lc->vector ? 1 : lc->ints + lc->extra;
    long incr = (long) lc->incr_sign * (2 == lc->vector ? 1 : len);
    MPI_Request chan;
    MPI_Status st;

    chan = bind(lc, slot(area, lc, len, 0), count, type, incr, peer, 0);
    for (long r = 0; r < ROUNDS && MPI_REQUEST_NULL != chan; ++r) {
        memset(area, 0xff, (size_t) lc->slack * len * sizeof(int));
        for (int k = 0; k < lc->slack; ++k) {
            CHECK(MPI_SUCCESS == MPI_Start(&chan));
        }
        if (!lc->sync) {
            MPI_Send(NULL, 0, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD);
        }
        for (int k = 0; k < lc->slack; ++k) {
            int *p = slot(area, lc, len, k), bad = 0, got = -1;
            CHECK(MPI_SUCCESS == MPI_Wait(&chan, &st));
            MPI_Get_count(&st, MPI_INT, &got);
            CHECK(peer == st.MPI_SOURCE && 3 == st.MPI_TAG && lc->ints == got);
            for (int i = 0; i < lc->ints; ++i) {
                bad += p[i * stride] != value(c, r * lc->slack + k, i);
            }
            /* Nothing beyond the message (gaps of a strided receive, the
             * tail of a bigger one) was written. */
            for (int i = 0; i < len; ++i) {
                if (i >= lc->ints * stride || (2 == stride && 1 == i % 2)) {
                    bad += -1 != p[i];
                }
            }
            if (0 != bad) {
                fprintf(stderr, "case %d round %ld slot %d: %d wrong ints\n", c, r, k, bad);
            }
            CHECK(0 == bad);
        }
    }
    if (MPI_REQUEST_NULL != chan) {
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    }
    if (2 == lc->vector) {
        MPI_Type_free(&type);
    }
    free(area);
}

static const large_case_t cases[] = {
    /* ints, slack, incr_sign, sync, extra, vector */
    {4095, 1, 0, 0, 0, 0},          /* 16380 bytes: the ring */
    {4096, 1, 0, 0, 0, 0},          /* 16384: the threshold */
    {4096, 1, 0, 1, 0, 0},
    {16386, 4, 1, 0, 0, 0},
    {16386, 4, -1, 0, 0, 0},
    {16386, 4, 1, 1, 0, 0},
    {16386, 4, -1, 1, 0, 0},
    {262144, 4, 1, 0, 0, 0},        /* 1 MiB */
    {262144, 1, 0, 1, 0, 0},
    {8192, 4, 1, 0, 1000, 0},       /* the receive holds more */
    {8192, 4, -1, 1, 1000, 0},
    {16384, 4, 1, 0, 0, 2},         /* strided at both ends: the ring */
    {16384, 4, -1, 1, 0, 1},        /* strided send, contiguous receive */
    {16384, 1, 0, 0, 0, 1},
};

int main(int argc, char **argv)
{
    int peer;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    peer = rank ^ 1;
    if (peer < size) {
        for (int c = 0; c < (int) (sizeof(cases) / sizeof(cases[0])); ++c) {
            if (0 == rank % 2) {
                run_send(c, &cases[c], peer);
            } else {
                run_recv(c, &cases[c], peer);
            }
        }
    }
    return ompix_test_finish("chan_large");
}
