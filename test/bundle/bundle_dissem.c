/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=180
 *
 * Dissemination patterns on channels, where one peer appears in two
 * rounds (at 3 ranks round 0's receive comes from rank - 1 and round 1's
 * send goes to rank + 2, the same rank): a dissemination barrier (round k
 * receives from rank - 2^k, sends to rank + 2^k) and a Bruck allgather
 * (round k receives 2^k or fewer values from rank + 2^k and sends what
 * rounds 0..k-1 gathered to rank - 2^k), ceil(log2 p) rounds, every value
 * checked every iteration.  Over TCP a synchronous receive's credit rides
 * on the data of a send toward the same process (pml/chan's pairing);
 * here that send belongs to an earlier round, or to the next start, so the
 * credit must go on its own.  Synchronous channels: as a bundle (Wait and
 * a Test loop), and unbundled (MPI_Startall/MPI_Waitall round by round,
 * and the barrier's rounds all in one MPI_Startall, receives first or
 * sends first).  Standard-mode channels (MPI_Send_init): unbundled, every
 * receive of a round started before any send (an MPI_Barrier between), as
 * a program must when a standard channel may be a ready one.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <stdbool.h>
#include <string.h>

#define ITERS 200
#define MAXR 2                     /* ceil(log2 4) */
#define MAXP 4

typedef struct {
    int rounds;
    int rbar[MAXR], sbar;          /* barrier: tokens received, sent */
    int buf[MAXP];                 /* allgather: buf[i] from rank + i */
    MPI_Request bar[2 * MAXR], ag[2 * MAXR];   /* per round: recv, send */
    int sizes[MAXR];
} dissem_t;

static int value(int r, int it)
{
    return r * 100000 + it + 1;
}

static int peer(int d)
{
    return ((rank + d) % size + size) % size;
}

/* Values the allgather's round k moves. */
static int ag_count(int k)
{
    return (1 << k) < size - (1 << k) ? (1 << k) : size - (1 << k);
}

/* Both schedules' channels, bound from (S)send_init/Recv_init. */
static void dissem_setup(dissem_t *g, bool sync)
{
    MPI_Request p2p[4 * MAXR], chans[4 * MAXR];
    int n = 0;

    memset(g, 0, sizeof(*g));
    while ((1 << g->rounds) < size) {
        ++g->rounds;
    }
    for (int k = 0, d = 1; k < g->rounds; ++k, d <<= 1) {
        MPI_Recv_init(&g->rbar[k], 1, MPI_INT, peer(-d), 10 + k, MPI_COMM_WORLD, &p2p[n++]);
        (sync ? MPI_Ssend_init : MPI_Send_init)(&g->sbar, 1, MPI_INT, peer(d), 10 + k,
                                                MPI_COMM_WORLD, &p2p[n++]);
        MPI_Recv_init(&g->buf[d], ag_count(k), MPI_INT, peer(d), 20 + k, MPI_COMM_WORLD,
                      &p2p[n++]);
        (sync ? MPI_Ssend_init : MPI_Send_init)(&g->buf[0], ag_count(k), MPI_INT, peer(-d),
                                                20 + k, MPI_COMM_WORLD, &p2p[n++]);
        g->sizes[k] = 2;
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channels(n, p2p, chans, NULL));
    for (int i = 0; i < n; ++i) {
        MPI_Request_free(&p2p[i]);
        (i % 4 < 2 ? g->bar : g->ag)[2 * (i / 4) + i % 2] = chans[i];
    }
}

static void dissem_teardown(dissem_t *g)
{
    for (int i = 0; i < 2 * g->rounds; ++i) {
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&g->bar[i]));
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&g->ag[i]));
    }
}

static void dissem_fill(dissem_t *g, int it)
{
    g->sbar = value(rank, it);
    g->buf[0] = value(rank, it);
    for (int k = 0; k < g->rounds; ++k) {
        g->rbar[k] = -1;
    }
    for (int i = 1; i < size; ++i) {
        g->buf[i] = -1;
    }
}

static void dissem_check(const dissem_t *g, int it)
{
    for (int k = 0; k < g->rounds; ++k) {
        CHECK(g->rbar[k] == value(peer(-(1 << k)), it));
    }
    for (int i = 0; i < size; ++i) {
        CHECK(g->buf[i] == value(peer(i), it));
    }
}

static void wait_req(MPI_Request *r, bool test)
{
    int flag = 0;

    if (!test) {
        CHECK(MPI_SUCCESS == MPI_Wait(r, MPI_STATUS_IGNORE));
        return;
    }
    while (!flag) {
        CHECK(MPI_SUCCESS == MPI_Test(r, &flag, MPI_STATUS_IGNORE));
    }
}

/* Both schedules as bundles, completed by MPI_Wait or an MPI_Test loop;
 * the bundles are freed after, the channels kept. */
static void run_bundles(dissem_t *g, bool test)
{
    MPI_Request b[2];

    CHECK(MPI_SUCCESS == MPIX_Bundle_init(g->rounds, g->sizes, g->bar, MPI_INFO_NULL, &b[0]));
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(g->rounds, g->sizes, g->ag, MPI_INFO_NULL, &b[1]));
    for (int it = 0; it < ITERS; ++it) {
        dissem_fill(g, it);
        for (int j = 0; j < 2; ++j) {
            CHECK(MPI_SUCCESS == MPI_Start(&b[j]));
            wait_req(&b[j], test);
        }
        dissem_check(g, it);
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&b[0]));
    CHECK(MPI_SUCCESS == MPI_Request_free(&b[1]));
}

/* Unbundled, round by round: MPI_Startall of a round's receive and send,
 * MPI_Waitall; with `handshake`, the receive started and an MPI_Barrier
 * passed before the send starts (standard channels). */
static void run_rounds(dissem_t *g, MPI_Request *m, bool handshake)
{
    for (int k = 0; k < g->rounds; ++k) {
        if (handshake) {
            CHECK(MPI_SUCCESS == MPI_Start(&m[2 * k]));
            MPI_Barrier(MPI_COMM_WORLD);
            CHECK(MPI_SUCCESS == MPI_Start(&m[2 * k + 1]));
        } else {
            CHECK(MPI_SUCCESS == MPI_Startall(2, &m[2 * k]));
        }
        CHECK(MPI_SUCCESS == MPI_Waitall(2, &m[2 * k], MPI_STATUSES_IGNORE));
    }
}

static void run_plain(dissem_t *g, bool handshake)
{
    for (int it = 0; it < ITERS; ++it) {
        dissem_fill(g, it);
        run_rounds(g, g->bar, handshake);
        run_rounds(g, g->ag, handshake);
        dissem_check(g, it);
    }
}

/* The barrier's rounds all at once (no data flows between its rounds):
 * one MPI_Startall of every receive then every send, or sends first. */
static void run_barrier_all(dissem_t *g, bool sends_first)
{
    MPI_Request m[2 * MAXR];
    int n = 0;

    for (int pass = 0; pass < 2; ++pass) {
        for (int k = 0; k < g->rounds; ++k) {
            m[n++] = g->bar[2 * k + (pass ^ (int) sends_first)];
        }
    }
    for (int it = 0; it < ITERS; ++it) {
        dissem_fill(g, it);
        CHECK(MPI_SUCCESS == MPI_Startall(n, m));
        CHECK(MPI_SUCCESS == MPI_Waitall(n, m, MPI_STATUSES_IGNORE));
        for (int k = 0; k < g->rounds; ++k) {
            CHECK(g->rbar[k] == value(peer(-(1 << k)), it));
        }
    }
}

int main(int argc, char **argv)
{
    dissem_t g;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    CHECK(size <= MAXP);
    dissem_setup(&g, true);
    run_bundles(&g, false);
    run_bundles(&g, true);
    run_plain(&g, false);
    run_barrier_all(&g, false);
    run_barrier_all(&g, true);
    dissem_teardown(&g);
    dissem_setup(&g, false);
    run_plain(&g, true);
    dissem_teardown(&g);
    return ompix_test_finish("bundle_dissem");
}
