/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1,ucx timeout=180
 *
 * The engine path of bundles (every member a channel on pml/chan's engine,
 * or a request to MPI_PROC_NULL) against the generic one, with data
 * dependencies between rounds checked every iteration: a ring pass of R
 * rounds, round k receiving from the left into v[k + 1] and sending v[k]
 * (what round k - 1 received) to the right, so that v[R] must be what the
 * rank R places to the left put into v[0] this iteration; a round starting
 * before the previous one completed would send stale data.  Synchronous
 * channels of slack 1 and 2, an empty round and MPI_PROC_NULL members in
 * every round.  Completed by MPI_Wait, by an MPI_Test loop, by MPI_Waitall
 * over two bundles (rings to the right and to the left) started with one
 * MPI_Startall, by a persistent continuation that restarts the bundle
 * from its callback, and nested in a generic bundle.  The same ring with
 * one member that is not a channel (a persistent generalized request
 * between rounds, which doubles the value: the generic path) must be
 * correct too.  64 KiB synchronous channels (pml/chan's in-place path on
 * one node), every element checked.  Unbinding a bundled channel is MPI_ERR_REQUEST through the
 * counting error handler, the bundle unharmed.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ITERS 300
#define MAXR 8

typedef struct {
    int rounds, dir;               /* dir 1: data flows to the right */
    int v[MAXR + 1];
    int nul[MAXR];                 /* receive buffers of the MPI_PROC_NULL members */
    MPI_Request m[4 * MAXR + 1];   /* per round: recv, send, null recv, null send */
    bool chan[4 * MAXR + 1];       /* m[i] is a channel */
    int nm, sizes[MAXR + 2], nrounds;
    MPI_Request b;
} ring_t;

static int value(int r, int it)
{
    return r * 100000 + it + 1;
}

/* The rank `k` steps upstream of this one. */
static int upstream(const ring_t *g, int k)
{
    return ((rank - g->dir * k) % size + size) % size;
}

static int dbl_start(void *extra)
{
    int *v = extra;

    *v *= 2;
    return MPI_SUCCESS;
}

static int dbl_poll(void *extra, int *completed)
{
    (void) extra;
    *completed = 1;
    return MPI_SUCCESS;
}

/* Round k's members, bound into channels of slack `slack`. */
static void ring_round(ring_t *g, int k, int slack)
{
    int from = g->dir > 0 ? left : right, to = g->dir > 0 ? right : left, tag = 10 * g->dir + k;
    int slacks[2] = {slack, slack};
    MPI_Request p2p[2], *m = &g->m[g->nm];

    MPI_Recv_init(&g->v[k + 1], 1, MPI_INT, from, 100 + tag, MPI_COMM_WORLD, &p2p[0]);
    MPI_Ssend_init(&g->v[k], 1, MPI_INT, to, 100 + tag, MPI_COMM_WORLD, &p2p[1]);
    CHECK(MPI_SUCCESS == MPIX_Bind_slack_channels(2, p2p, m, slacks, NULL));
    MPI_Request_free(&p2p[0]);
    MPI_Request_free(&p2p[1]);
    g->chan[g->nm] = g->chan[g->nm + 1] = true;
    MPI_Recv_init(&g->nul[k], 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m[2]);
    MPI_Ssend_init(&g->v[k], 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m[3]);
    g->nm += 4;
    g->sizes[g->nrounds++] = 4;
}

/* R rounds; an empty round after the first; with `greq`, a generalized
 * member doubling v[1] as a round of its own after the first. */
static void ring_setup(ring_t *g, int rounds, int dir, int slack, bool greq)
{
    memset(g, 0, sizeof(*g));
    g->rounds = rounds;
    g->dir = dir;
    for (int k = 0; k < rounds; ++k) {
        ring_round(g, k, slack);
        if (0 == k) {
            g->sizes[g->nrounds++] = 0;
        }
        if (0 == k && greq) {
            MPIX_Grequest_persistent_init(dbl_start, dbl_poll, NULL, &g->v[1], &g->m[g->nm++]);
            g->sizes[g->nrounds++] = 1;
        }
    }
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(g->nrounds, g->sizes, g->m, MPI_INFO_NULL, &g->b));
}

static void ring_teardown(ring_t *g)
{
    CHECK(MPI_SUCCESS == MPI_Request_free(&g->b));
    CHECK(MPI_REQUEST_NULL == g->b);
    for (int i = 0; i < g->nm; ++i) {
        if (g->chan[i]) {
            CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&g->m[i]));
        } else {
            CHECK(MPI_SUCCESS == MPI_Request_free(&g->m[i]));
        }
    }
}

static void ring_fill(ring_t *g, int it)
{
    g->v[0] = value(rank, it);
    for (int k = 1; k <= g->rounds; ++k) {
        g->v[k] = -1;
    }
}

static void ring_check(const ring_t *g, int it, int factor)
{
    CHECK(g->v[g->rounds] == factor * value(upstream(g, g->rounds), it));
    CHECK(g->v[1] == factor * value(upstream(g, 1), it));
}

static void wait_bundle(MPI_Request *b, int how)
{
    int flag = 0;

    if (0 == how) {
        CHECK(MPI_SUCCESS == MPI_Wait(b, MPI_STATUS_IGNORE));
    } else {
        while (!flag) {
            CHECK(MPI_SUCCESS == MPI_Test(b, &flag, MPI_STATUS_IGNORE));
        }
    }
    CHECK(MPI_REQUEST_NULL != *b);
}

/* One bundle, completed by Wait (how 0) or a Test loop (how 1). */
static void single(int rounds, int slack, bool greq, int how)
{
    ring_t g;

    ring_setup(&g, rounds, 1, slack, greq);
    for (int it = 0; it < ITERS; ++it) {
        ring_fill(&g, it);
        CHECK(MPI_SUCCESS == MPI_Start(&g.b));
        wait_bundle(&g.b, how);
        ring_check(&g, it, greq ? 2 : 1);
    }
    ring_teardown(&g);
}

/* Two rings in opposite directions, one Startall, one Waitall. */
static void pair(void)
{
    ring_t g[2];
    MPI_Request b[2];
    MPI_Status st[2];

    ring_setup(&g[0], 3, 1, 1, false);
    ring_setup(&g[1], 2, -1, 2, false);
    for (int it = 0; it < ITERS; ++it) {
        ring_fill(&g[0], it);
        ring_fill(&g[1], it);
        b[0] = g[0].b;
        b[1] = g[1].b;
        CHECK(MPI_SUCCESS == MPI_Startall(2, b));
        CHECK(MPI_SUCCESS == MPI_Waitall(2, b, st));
        ring_check(&g[0], it, 1);
        ring_check(&g[1], it, 1);
    }
    ring_teardown(&g[0]);
    ring_teardown(&g[1]);
}

/* The engine bundle as round 0 of a generic bundle whose round 1 doubles
 * what it received. */
static void nested(void)
{
    ring_t g;
    MPI_Request outer[2], b;
    int sizes[2] = {1, 1};

    ring_setup(&g, 2, 1, 1, false);
    outer[0] = g.b;
    MPIX_Grequest_persistent_init(dbl_start, dbl_poll, NULL, &g.v[2], &outer[1]);
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(2, sizes, outer, MPI_INFO_NULL, &b));
    for (int it = 0; it < ITERS; ++it) {
        ring_fill(&g, it);
        CHECK(MPI_SUCCESS == MPI_Start(&b));
        wait_bundle(&b, it % 2);
        CHECK(g.v[2] == 2 * value(upstream(&g, 2), it));
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    CHECK(MPI_SUCCESS == MPI_Request_free(&outer[1]));
    ring_teardown(&g);
}

typedef struct {
    ring_t *g;
    int it, ran, left_;
} restart_t;

/* Checks this iteration and starts the next one from the callback. */
static void restart_cb(MPI_Status *st, void *data)
{
    restart_t *r = data;

    CHECK(MPI_SUCCESS == st->MPI_ERROR);
    ring_check(r->g, r->it, 1);
    r->ran++;
    if (r->left_ > 0) {
        r->left_--;
        ring_fill(r->g, ++r->it);
        CHECK(MPI_SUCCESS == MPI_Start(&r->g->b));
    }
}

static void continued(void)
{
    ring_t g;
    restart_t r = {&g, 0, 0, 0};
    MPI_Request cr;
    MPI_Status st;

    ring_setup(&g, 3, 1, 1, false);
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    CHECK(MPI_SUCCESS == MPIX_Continue(&g.b, restart_cb, &r, MPIX_CONT_PERSISTENT, &st, cr));
    for (int rep = 0; rep < 10; ++rep) {
        int want = r.ran + 10;

        r.left_ = 9;
        ring_fill(&g, ++r.it);
        CHECK(MPI_SUCCESS == MPI_Start(&g.b));
        while (r.ran < want) {
            CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
        }
        CHECK(r.ran == want);
    }
    ring_teardown(&g);
    MPI_Request_free(&cr);
}

/* 64 KiB synchronous channels (on one node pml/chan's in-place path,
 * pml_chan_large_sync_min): a two-round ring pass, every element checked. */
#define BIG 16384
static void big(void)
{
    int *v = malloc(3 * BIG * sizeof(int)), two[2] = {2, 2}, bad = 0;
    MPI_Request p2p[4], m[4], b;

    for (int k = 0; k < 2; ++k) {
        MPI_Recv_init(v + (k + 1) * BIG, BIG, MPI_INT, left, 300 + k, MPI_COMM_WORLD, &p2p[2 * k]);
        MPI_Ssend_init(v + k * BIG, BIG, MPI_INT, right, 300 + k, MPI_COMM_WORLD, &p2p[2 * k + 1]);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channels(4, p2p, m, NULL));
    CHECK(MPI_SUCCESS == MPIX_Bundle_init(2, two, m, MPI_INFO_NULL, &b));
    for (int it = 0; it < 50; ++it) {
        for (int i = 0; i < BIG; ++i) {
            v[i] = value(rank, it) + i;
            v[BIG + i] = v[2 * BIG + i] = -1;
        }
        CHECK(MPI_SUCCESS == MPI_Start(&b));
        wait_bundle(&b, it % 2);
        for (int i = 0; i < BIG; ++i) {
            bad += v[2 * BIG + i] != value((rank + 2 * size - 2) % size, it) + i;
        }
    }
    CHECK(0 == bad);
    CHECK(MPI_SUCCESS == MPI_Request_free(&b));
    for (int i = 0; i < 4; ++i) {
        MPI_Request_free(&p2p[i]);
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&m[i]));
    }
    free(v);
}

/* Unbinding a bundled channel: refused, reported, the bundle still runs. */
static void unbind_refused(void)
{
    ring_t g;
    MPI_Request keep;
    MPI_Errhandler eh = counting_comm_errhandler();

    ring_setup(&g, 2, 1, 1, false);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    keep = g.m[0];
    CHECK_ERR(MPIX_Unbind_channel(&g.m[0]), MPI_ERR_REQUEST);
    CHECK(keep == g.m[0]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    ring_fill(&g, 7);
    CHECK(MPI_SUCCESS == MPI_Start(&g.b));
    wait_bundle(&g.b, 0);
    ring_check(&g, 7, 1);
    ring_teardown(&g);
}

int main(int argc, char **argv)
{
    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    for (int slack = 1; slack <= 2; ++slack) {
        single(1, slack, false, 0);
        single(MAXR, slack, false, slack - 1);
        single(3, slack, true, 0);          /* generic: a generalized member */
    }
    pair();
    nested();
    continued();
    big();
    unbind_refused();
    return ompix_test_finish("bundle_engine");
}
