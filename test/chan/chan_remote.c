/*
 * ompix-test: np=2 tls=shm,tcp,net pml=ob1,ucx timeout=90 paths="chan:tag"
 *
 * Channels between processes that can not map each other's memory: over
 * tcp pml/chan's TAG path (each message one tag-matched UCX message into
 * a receive the receiving end posts into its slot; chan_remote_am.c runs
 * the same checks on the active-message path), on shm the mapped ring.
 * Ready contiguous channels (MPI_Send_init / MPI_Recv_init) of 1, 8, 64,
 * 4096 and 65536 bytes, 1 MiB - 8 (the largest on the ring: UCX
 * rendezvous over TCP) and 1 MiB (pml_chan_large_min: the large path),
 * under slack 1 and slack 4 with a positive and a negative
 * address_base_increment, each bound once and driven three ways:
 *   normal order:      rank 1 starts its K receives, tells rank 0 with an
 *                      ordinary message and waits at once; rank 0 starts
 *                      its K sends only then (after a pause in the first
 *                      rounds, so that the receiver is already waiting);
 *   unexpected first:  rank 1 starts its receives, tells rank 0 (with
 *                      MPI_Isend: no progress), sleeps while rank 0
 *                      sends, receives rank 0's "sent", runs one
 *                      opal_progress, sleeps again and only then waits.
 *                      On the TAG path a start of an idle channel only
 *                      counts (a later start posts every receive started),
 *                      so in the rounds of K batches of one receive (every
 *                      other pair of rounds) and under slack 1 each message
 *                      is in UCX's unexpected queue before its receive is
 *                      posted (by that progress: pml/chan's progresses its
 *                      worker first); a rendezvous sender's Wait lasts
 *                      until then;
 *   behind another:    rank 1 starts its receives and one of a second
 *                      channel (8 bytes), whose message rank 0 sends after
 *                      the K others, and waits for that one first: its
 *                      Wait's progress of pml/chan's worker takes the
 *                      others in (slack 1: before their receive is
 *                      posted).
 * Then a synchronous channel (MPI_Ssend_init of 1000 ints, its sends
 * started before the receives) and a ready channel of a vector type
 * (non-contiguous, packed), bound at the same time over the same pair,
 * slack 1 and 4 with both signs of increment.  Every round alternates
 * MPI_Wait and MPI_Test loops (both ranks).  Every message has its own
 * bytes (channel, round, position, byte index); rank 1 checks each one
 * after each completion, MPI_SOURCE, MPI_TAG and MPI_Get_count, that a
 * vector's gaps and the bytes around the buffers were not written.  A
 * lost message hangs (the case times out); wrong or misplaced data, a
 * wrong status or an error code fails the checks.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REMOTE_GUARD 64
#define REMOTE_POISON 0xa5
#define REMOTE_MIB 1048576
#define REMOTE_TAG_READY 90
#define REMOTE_TAG_SENT 91
#define REMOTE_SLEEP_US 5000
#define REMOTE_VEC_COUNT 64
#define REMOTE_VEC_BLOCK 3
#define REMOTE_VEC_STRIDE 5
#define REMOTE_SYNC_INTS 1000

enum { REMOTE_BY_WAIT, REMOTE_BY_TEST };

/* One channel end of rank 0 (send) or rank 1 (receive): K positions of
 * len bytes, incr elements of type apart. */
typedef struct {
    MPI_Datatype type;
    int count, tag, slack, incr;
    bool vec;                   /* type is remote_vec: gaps stay untouched */
    size_t len, span;
    ptrdiff_t step;             /* incr in bytes */
    unsigned char *region, *first;
    MPI_Request req, chan;
} remote_chan_t;

static MPI_Datatype remote_vec;
static remote_chan_t remote_other;  /* the 8-byte channel of "behind another" */

static unsigned char remote_byte(int tag, int round, int k, size_t j)
{
    return (unsigned char) (tag * 13 + round * 31 + k * 7 + j * 3 + (j >> 8) * 5 +
                            (j >> 16) * 11 + 1);
}

static bool remote_is_data(const remote_chan_t *c, size_t j)
{
    return !c->vec || (j / sizeof(int)) % REMOTE_VEC_STRIDE < REMOTE_VEC_BLOCK;
}

static unsigned char *remote_pos(const remote_chan_t *c, int k)
{
    return c->first + (ptrdiff_t) k * c->step;
}

static void remote_open(remote_chan_t *c, MPI_Datatype type, int count, int slack, int incr,
                        int tag, bool sync)
{
    MPI_Aint lb, extent;
    MPI_Info info = MPI_INFO_NULL;
    char s[32];

    MPI_Type_get_extent(type, &lb, &extent);
    c->type = type;
    c->count = count;
    c->tag = tag;
    c->slack = slack;
    c->incr = incr;
    c->vec = type == remote_vec;
    c->len = (size_t) count * (size_t) extent;
    c->step = (ptrdiff_t) incr * extent;
    c->span = (size_t) (slack - 1) * (size_t) labs(c->step) + c->len;
    c->region = malloc(c->span + 2 * REMOTE_GUARD);
    c->first = c->region + REMOTE_GUARD + (c->step < 0 ? (slack - 1) * -c->step : 0);
    c->chan = MPI_REQUEST_NULL;
    memset(c->region, REMOTE_POISON, c->span + 2 * REMOTE_GUARD);
    if (0 != incr) {
        MPI_Info_create(&info);
        snprintf(s, sizeof(s), "%d", incr);
        MPI_Info_set(info, "address_base_increment", s);
    }
    if (0 == rank && sync) {
        CHECK(MPI_SUCCESS == MPI_Ssend_init(c->first, count, type, 1, tag, MPI_COMM_WORLD,
                                            &c->req));
    } else if (0 == rank) {
        CHECK(MPI_SUCCESS == MPI_Send_init(c->first, count, type, 1, tag, MPI_COMM_WORLD,
                                           &c->req));
    } else {
        CHECK(MPI_SUCCESS == MPI_Recv_init(c->first, count, type, 0, tag, MPI_COMM_WORLD,
                                           &c->req));
    }
    if (1 == slack) {
        CHECK(MPI_SUCCESS == MPIX_Bind_channel(c->req, &c->chan, info));
    } else {
        CHECK(MPI_SUCCESS == MPIX_Bind_slack_channel(c->req, &c->chan, slack, info));
    }
    CHECK(MPI_REQUEST_NULL != c->chan);
    if (MPI_INFO_NULL != info) {
        MPI_Info_free(&info);
    }
}

static void remote_close(remote_chan_t *c)
{
    if (MPI_REQUEST_NULL != c->chan) {
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&c->chan));
    }
    MPI_Request_free(&c->req);
    free(c->region);
}

/* Rank 0: every byte of each position, gaps included (a send that sent
 * a gap would write the receiver's poison over). */
static void remote_fill(remote_chan_t *c, int round)
{
    for (int k = 0; k < c->slack; ++k) {
        unsigned char *p = remote_pos(c, k);
        for (size_t j = 0; j < c->len; ++j) {
            p[j] = remote_byte(c->tag, round, k, j);
        }
    }
}

/* Rank 1, before its starts. */
static void remote_poison(remote_chan_t *c)
{
    for (int k = 0; k < c->slack; ++k) {
        memset(remote_pos(c, k), REMOTE_POISON, c->len);
    }
}

/* cnt starts (the whole round: slack). */
static void remote_start(remote_chan_t *c, int cnt)
{
    for (int k = 0; k < cnt; ++k) {
        CHECK(MPI_SUCCESS == MPI_Start(&c->chan));
    }
}

static void remote_complete_one(remote_chan_t *c, int mode, MPI_Status *st)
{
    int flag = 0;

    if (REMOTE_BY_WAIT == mode) {
        CHECK(MPI_SUCCESS == MPI_Wait(&c->chan, st));
        return;
    }
    while (!flag) {
        int rc = MPI_Test(&c->chan, &flag, st);
        CHECK(MPI_SUCCESS == rc);
        if (MPI_SUCCESS != rc) {
            return;
        }
    }
}

/* Rank 0: cnt sends. */
static void remote_complete_sends(remote_chan_t *c, int mode, int cnt)
{
    for (int k = 0; k < cnt; ++k) {
        remote_complete_one(c, mode, MPI_STATUS_IGNORE);
    }
}

/* Rank 1: the receives of positions from .. from + cnt - 1 of a round,
 * each checked as it completes. */
static void remote_complete_range(remote_chan_t *c, int mode, int round, int from, int cnt,
                                  const char *how)
{
    for (int k = from; k < from + cnt; ++k) {
        MPI_Status st;
        int count = -1, bad = 0, gaps = 0;
        const unsigned char *p = remote_pos(c, k);

        remote_complete_one(c, mode, &st);
        MPI_Get_count(&st, c->type, &count);
        CHECK(count == c->count && 0 == st.MPI_SOURCE && c->tag == st.MPI_TAG);
        for (size_t j = 0; j < c->len; ++j) {
            if (remote_is_data(c, j)) {
                bad += p[j] != remote_byte(c->tag, round, k, j);
            } else {
                gaps += REMOTE_POISON != p[j];
            }
        }
        if (bad || gaps) {
            fprintf(stderr, "rank 1: %s, tag %d, %zu bytes, slack %d, increment %d, %s:"
                    " round %d message %d: %d bad bytes, %d gap bytes written\n",
                    how, c->tag, c->len, c->slack, c->incr,
                    REMOTE_BY_WAIT == mode ? "MPI_Wait" : "MPI_Test", round, k, bad, gaps);
        }
        CHECK(0 == bad && 0 == gaps);
    }
    for (size_t g = 0; g < REMOTE_GUARD; ++g) {
        CHECK(REMOTE_POISON == c->region[g] &&
              REMOTE_POISON == c->region[REMOTE_GUARD + c->span + g]);
    }
}

/* Rank 1: a round's K receives. */
static void remote_complete_recvs(remote_chan_t *c, int mode, int round, const char *how)
{
    remote_complete_range(c, mode, round, 0, c->slack, how);
}

static void remote_signal(int tag)
{
    CHECK(MPI_SUCCESS == MPI_Send(NULL, 0, MPI_BYTE, 1 - rank, tag, MPI_COMM_WORLD));
}

/* Rank 1's "ready" when no progress may run before the messages came in:
 * MPI_Isend starts it without progress (MPI_Send may run
 * opal_progress, and with it pml/chan's, which would post the receives). */
static MPI_Request remote_signal_quietly(int tag)
{
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK(MPI_SUCCESS == MPI_Isend(NULL, 0, MPI_BYTE, 1 - rank, tag, MPI_COMM_WORLD, &r));
    return r;
}

/* One opal_progress, so one pml/chan progress: its worker progress takes
 * the messages in (unexpected) before it posts the busy ends' receives.
 * pml ucx's MPI_Recv, MPI_Wait and MPI_Iprobe may return without running
 * opal_progress; Open MPI's MPI_Test of a request not complete runs it
 * once. */
static void remote_progress_once(void)
{
    MPI_Request g = grequest();
    int flag = 1;

    CHECK(MPI_SUCCESS == MPI_Test(&g, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag);
    MPI_Grequest_complete(g);
    CHECK(MPI_SUCCESS == MPI_Wait(&g, MPI_STATUS_IGNORE));
}

static void remote_await(int tag)
{
    CHECK(MPI_SUCCESS == MPI_Recv(NULL, 0, MPI_BYTE, 1 - rank, tag, MPI_COMM_WORLD,
                                  MPI_STATUS_IGNORE));
}

/* The receives started, the receiver waiting, then the sends. */
static void remote_normal(remote_chan_t *c, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        int mode = r % 2 ? REMOTE_BY_TEST : REMOTE_BY_WAIT;
        if (0 == rank) {
            remote_fill(c, r);
            remote_await(REMOTE_TAG_READY);
            if (r < 2) {
                usleep(1000);           /* rank 1 is in its Wait/Test by now */
            }
            remote_start(c, c->slack);
            remote_complete_sends(c, mode, c->slack);
        } else {
            remote_poison(c);
            remote_start(c, c->slack);
            remote_signal(REMOTE_TAG_READY);
            remote_complete_recvs(c, mode, r, "normal order");
        }
    }
}

/* The sends done (eager) or under way (rendezvous) before rank 1 looks.
 * Rounds of all K receives at once and, every other pair of rounds, of K
 * batches of one: on the TAG path only a start of an idle channel (no
 * start outstanding) is deferred (a later one posts every receive
 * started), so the batches of one are what leaves positions 1 .. K - 1
 * unposted when their messages come in. */
static void remote_unexpected(remote_chan_t *c, int rounds)
{
    for (int r = 0; r < rounds; ++r) {
        int mode = r % 2 ? REMOTE_BY_TEST : REMOTE_BY_WAIT;
        int depth = r & 2 ? 1 : c->slack;
        if (0 == rank) {
            remote_fill(c, r);
        } else {
            remote_poison(c);
        }
        for (int from = 0; from < c->slack; from += depth) {
            MPI_Request ready;
            if (0 == rank) {
                remote_await(REMOTE_TAG_READY);
                remote_start(c, depth);
                remote_complete_sends(c, mode, depth);
                remote_signal(REMOTE_TAG_SENT);
                continue;
            }
            remote_start(c, depth);
            ready = remote_signal_quietly(REMOTE_TAG_READY);
            usleep(REMOTE_SLEEP_US);
            remote_await(REMOTE_TAG_SENT);
            CHECK(MPI_SUCCESS == MPI_Wait(&ready, MPI_STATUS_IGNORE));
            remote_progress_once();
            usleep(REMOTE_SLEEP_US / 5);
            remote_complete_range(c, mode, r, from, depth, "unexpected first");
        }
    }
}

/* Rank 1 waits first for remote_other's message, sent after c's K. */
static void remote_behind(remote_chan_t *c, int rounds)
{
    remote_chan_t *o = &remote_other;

    for (int r = 0; r < rounds; ++r) {
        int mode = r % 2 ? REMOTE_BY_TEST : REMOTE_BY_WAIT;
        MPI_Request ready;
        if (0 == rank) {
            remote_fill(c, r);
            remote_fill(o, r);
            remote_await(REMOTE_TAG_READY);
            remote_start(c, c->slack);
            remote_start(o, 1);
            remote_complete_sends(c, mode, c->slack);
            remote_complete_sends(o, mode, 1);
        } else {
            remote_poison(c);
            remote_poison(o);
            remote_start(c, c->slack);
            remote_start(o, 1);
            ready = remote_signal_quietly(REMOTE_TAG_READY);
            usleep(REMOTE_SLEEP_US);
            remote_complete_recvs(o, mode, r, "the other channel");
            remote_complete_recvs(c, mode, r, "behind another");
            CHECK(MPI_SUCCESS == MPI_Wait(&ready, MPI_STATUS_IGNORE));
        }
    }
}

static void remote_ready(size_t n, int rounds)
{
    const int cfg[3][2] = {{1, 0}, {4, (int) n + 5}, {4, -((int) n + 3)}};

    for (int i = 0; i < 3; ++i) {
        remote_chan_t c;
        remote_open(&c, MPI_BYTE, (int) n, cfg[i][0], cfg[i][1], 10 + i, false);
        if (MPI_REQUEST_NULL != c.chan) {
            remote_normal(&c, rounds);
            remote_unexpected(&c, rounds);
            remote_behind(&c, rounds);
        }
        remote_close(&c);
    }
}

/* A synchronous channel, its sends started before the receives (before
 * them by a sleep every other round), beside a ready vector channel. */
static void remote_sync_vector(int slack, int sync_incr, int vec_incr, int rounds)
{
    remote_chan_t s, v;

    remote_open(&s, MPI_INT, REMOTE_SYNC_INTS, slack, sync_incr, 20, true);
    remote_open(&v, remote_vec, 1, slack, vec_incr, 21, false);
    for (int r = 0; r < rounds && MPI_REQUEST_NULL != s.chan && MPI_REQUEST_NULL != v.chan;
         ++r) {
        int mode = r % 2 ? REMOTE_BY_TEST : REMOTE_BY_WAIT;
        if (0 == rank) {
            remote_fill(&s, r);
            remote_fill(&v, r);
            remote_start(&s, s.slack);
            remote_await(REMOTE_TAG_READY);
            remote_start(&v, v.slack);
            remote_complete_sends(&v, mode, v.slack);
            remote_complete_sends(&s, mode, s.slack);
        } else {
            remote_poison(&s);
            remote_poison(&v);
            if (r % 2) {
                usleep(2000);
            }
            remote_start(&v, v.slack);
            remote_start(&s, s.slack);
            remote_signal(REMOTE_TAG_READY);
            remote_complete_recvs(&s, mode, r, "synchronous");
            remote_complete_recvs(&v, mode, r, "vector");
        }
    }
    remote_close(&v);
    remote_close(&s);
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {1, 8, 64, 4096, 65536, REMOTE_MIB - 8, REMOTE_MIB};

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_vector(REMOTE_VEC_COUNT, REMOTE_VEC_BLOCK, REMOTE_VEC_STRIDE, MPI_INT, &remote_vec);
    MPI_Type_commit(&remote_vec);
    if (rank < 2) {
        remote_open(&remote_other, MPI_BYTE, 8, 1, 0, 30, false);
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
            size_t n = sizes[i];
            remote_ready(n, n <= 4096 ? 8 : 4);
        }
        remote_close(&remote_other);
        remote_sync_vector(1, 0, 0, 8);
        remote_sync_vector(4, REMOTE_SYNC_INTS + 3, 2, 8);
        remote_sync_vector(4, -(REMOTE_SYNC_INTS + 1), -1, 8);
    }
    MPI_Type_free(&remote_vec);
    return ompix_test_finish("chan_remote");
}
