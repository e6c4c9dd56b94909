/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=120
 *
 * Bundles with data dependencies between rounds, checked every iteration
 * (bundle_halo_chan.c: the same with the point-to-point members bound into
 * channels): a 2-D periodic halo exchange as three rounds (a generalized
 * member packs the boundary, four receives and four sends, a generalized
 * member unpacks into the halo, completing only on its third poll), and a
 * ring allgather-sum as a pipeline of 2(p-1) rounds (receive from the left
 * and send to the right, then a generalized member adds what came and
 * passes it on; as channels, of slack 3).  Each runs alone, then both nested in one bundle, 200
 * iterations each with new values.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <string.h>

#define HN 4                       /* interior points per dimension */
#define HW (HN + 2)
#define ITERS 200

static int value(int r, int it, int i, int j)
{
    return r * 1000000 + it * 1000 + i * 10 + j;
}

/* --- the halo ---------------------------------------------------------- */

typedef struct {
    int grid[HW][HW];
    int sbuf[4][HN], rbuf[4][HN];
    int nbr[4];                    /* north, south, west, east */
    int polls;
} halo_t;

static int pack_start(void *extra)
{
    halo_t *h = extra;

    for (int k = 0; k < HN; ++k) {
        h->sbuf[0][k] = h->grid[1][k + 1];
        h->sbuf[1][k] = h->grid[HN][k + 1];
        h->sbuf[2][k] = h->grid[k + 1][1];
        h->sbuf[3][k] = h->grid[k + 1][HN];
    }
    return MPI_SUCCESS;
}

static int done_poll(void *extra, int *completed)
{
    (void) extra;
    *completed = 1;
    return MPI_SUCCESS;
}

static int unpack_start(void *extra)
{
    ((halo_t *) extra)->polls = 0;
    return MPI_SUCCESS;
}

/* Unpacks on its third poll: the bundle must wait for it. */
static int unpack_poll(void *extra, int *completed)
{
    halo_t *h = extra;

    if (++h->polls < 3) {
        return MPI_SUCCESS;
    }
    for (int k = 0; k < HN; ++k) {
        h->grid[0][k + 1] = h->rbuf[0][k];
        h->grid[HN + 1][k + 1] = h->rbuf[1][k];
        h->grid[k + 1][0] = h->rbuf[2][k];
        h->grid[k + 1][HN + 1] = h->rbuf[3][k];
    }
    *completed = 1;
    return MPI_SUCCESS;
}

/* Channels of slack `slack` (a bundle starts each once per start and
 * consumes the completion without Wait/Test: a channel of slack > 1 must
 * still move on to its next start). */
static void p2p_bind(int n, MPI_Request *reqs, int slack)
{
#ifdef BUNDLE_CHANNELS
    MPI_Request chans[8];
    int slacks[8] = {slack, slack, slack, slack, slack, slack, slack, slack};

    CHECK(MPI_SUCCESS == MPIX_Bind_slack_channels(n, reqs, chans, slacks, NULL));
    for (int i = 0; i < n; ++i) {
        CHECK(MPI_SUCCESS == MPI_Request_free(&reqs[i]));
        reqs[i] = chans[i];
    }
#else
    (void) n;
    (void) reqs;
    (void) slack;
#endif
}

static void p2p_release(int n, MPI_Request *reqs)
{
    for (int i = 0; i < n; ++i) {
#ifdef BUNDLE_CHANNELS
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&reqs[i]));
#else
        CHECK(MPI_SUCCESS == MPI_Request_free(&reqs[i]));
#endif
    }
}

/* Round 1's eight requests: receives from each neighbour (tagged with the
 * direction the neighbour sent in), sends in each direction. */
static void halo_p2p(halo_t *h, MPI_Comm cart, MPI_Request req[8])
{
    static const int opposite[4] = {1, 0, 3, 2};

    for (int d = 0; d < 4; ++d) {
        MPI_Recv_init(h->rbuf[d], HN, MPI_INT, h->nbr[d], opposite[d], cart, &req[d]);
        MPI_Ssend_init(h->sbuf[d], HN, MPI_INT, h->nbr[d], d, cart, &req[4 + d]);
    }
    p2p_bind(8, req, 1);
}

static void halo_fill(halo_t *h, int me, int it)
{
    for (int i = 1; i <= HN; ++i) {
        for (int j = 1; j <= HN; ++j) {
            h->grid[i][j] = value(me, it, i, j);
        }
    }
}

static void halo_check(const halo_t *h, int it)
{
    int bad = 0;

    for (int k = 1; k <= HN; ++k) {
        bad += h->grid[0][k] != value(h->nbr[0], it, HN, k);
        bad += h->grid[HN + 1][k] != value(h->nbr[1], it, 1, k);
        bad += h->grid[k][0] != value(h->nbr[2], it, k, HN);
        bad += h->grid[k][HN + 1] != value(h->nbr[3], it, k, 1);
    }
    CHECK(0 == bad);
}

/* members: pack | 8 point-to-point | unpack */
static void halo_setup(halo_t *h, MPI_Comm *cart, MPI_Request *bundle, MPI_Request members[10])
{
    int dims[2] = {0, 0}, periods[2] = {1, 1}, sizes[3] = {1, 8, 1};

    memset(h, 0, sizeof(*h));
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, cart);
    MPI_Cart_shift(*cart, 0, 1, &h->nbr[0], &h->nbr[1]);
    MPI_Cart_shift(*cart, 1, 1, &h->nbr[2], &h->nbr[3]);
    MPIX_Grequest_persistent_init(pack_start, done_poll, NULL, h, &members[0]);
    halo_p2p(h, *cart, &members[1]);
    MPIX_Grequest_persistent_init(unpack_start, unpack_poll, NULL, h, &members[9]);
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(3, sizes, members, MPI_INFO_NULL, bundle));
}

static void halo_teardown(MPI_Comm *cart, MPI_Request *bundle, MPI_Request members[10])
{
    CHECK(MPI_SUCCESS == MPI_Request_free(bundle));
    CHECK(MPI_REQUEST_NULL == *bundle);
    CHECK(MPI_SUCCESS == MPI_Request_free(&members[0]));
    p2p_release(8, &members[1]);
    CHECK(MPI_SUCCESS == MPI_Request_free(&members[9]));
    MPI_Comm_free(cart);
}

/* --- the ring pipeline ------------------------------------------------- */

typedef struct ring_t ring_t;
typedef struct {
    ring_t *ring;
    int k;
} ring_step_t;

struct ring_t {
    int n;                         /* steps: size - 1 */
    int val[64], acc;
    ring_step_t steps[64];
};

/* Adds step k's value and passes it on (the next step's send buffer). */
static int ring_add(void *extra)
{
    ring_step_t *s = extra;

    s->ring->acc += s->ring->val[s->k + 1];
    return MPI_SUCCESS;
}

/* members: per step, receive + send, then the add */
static void ring_setup(ring_t *g, MPI_Request *bundle, MPI_Request *members)
{
    int sizes[128], m = 0;

    memset(g, 0, sizeof(*g));
    g->n = size - 1;
    for (int k = 0; k < g->n; ++k) {
        MPI_Recv_init(&g->val[k + 1], 1, MPI_INT, left, 100 + k, MPI_COMM_WORLD, &members[m]);
        MPI_Ssend_init(&g->val[k], 1, MPI_INT, right, 100 + k, MPI_COMM_WORLD, &members[m + 1]);
        p2p_bind(2, &members[m], 3);
        g->steps[k].ring = g;
        g->steps[k].k = k;
        MPIX_Grequest_persistent_init(ring_add, done_poll, NULL, &g->steps[k], &members[m + 2]);
        sizes[2 * k] = 2;
        sizes[2 * k + 1] = 1;
        m += 3;
    }
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(2 * g->n, sizes, members, MPI_INFO_NULL, bundle));
}

static void ring_teardown(ring_t *g, MPI_Request *bundle, MPI_Request *members)
{
    CHECK(MPI_SUCCESS == MPI_Request_free(bundle));
    for (int k = 0; k < g->n; ++k) {
        p2p_release(2, &members[3 * k]);
        CHECK(MPI_SUCCESS == MPI_Request_free(&members[3 * k + 2]));
    }
}

static void ring_fill(ring_t *g, int it)
{
    g->val[0] = g->acc = value(rank, it, 0, 0);
}

static void ring_check(const ring_t *g, int it)
{
    int want = 0;

    for (int r = 0; r < size; ++r) {
        want += value(r, it, 0, 0);
    }
    CHECK(g->acc == want);
}

/* --- the runs ---------------------------------------------------------- */

static void run(MPI_Request *bundle, halo_t *h, ring_t *g)
{
    for (int it = 0; it < ITERS; ++it) {
        MPI_Status st;

        if (NULL != h) {
            halo_fill(h, rank, it);
        }
        if (NULL != g) {
            ring_fill(g, it);
        }
        CHECK(MPI_SUCCESS == MPI_Start(bundle));
        st.MPI_ERROR = -1;
        CHECK(MPI_SUCCESS == MPI_Wait(bundle, &st));
        CHECK(MPI_REQUEST_NULL != *bundle);
        if (NULL != h) {
            halo_check(h, it);
        }
        if (NULL != g) {
            ring_check(g, it);
        }
    }
}

int main(int argc, char **argv)
{
    static halo_t h;
    static ring_t g;
    MPI_Request hb, gb, nested, hm[10], gm[3 * 64], both[2];
    MPI_Comm cart;
    int one[2] = {1, 1};

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    if (size > 64) {
        return ompix_test_finish("bundle_halo");
    }
    halo_setup(&h, &cart, &hb, hm);
    run(&hb, &h, NULL);
    ring_setup(&g, &gb, gm);
    run(&gb, NULL, &g);
    /* Both nested: the halo in round 0, the ring in round 1. */
    both[0] = hb;
    both[1] = gb;
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(2, one, both, MPI_INFO_NULL, &nested));
    run(&nested, &h, &g);
    CHECK(MPI_SUCCESS == MPI_Request_free(&nested));
    /* Given back: each runs on its own again. */
    run(&hb, &h, NULL);
    halo_teardown(&cart, &hb, hm);
    ring_teardown(&g, &gb, gm);
    return ompix_test_finish("bundle_halo");
}
