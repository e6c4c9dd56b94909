/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=180
 *
 * Synchronous halo exchanges on bound channels (issue 25: credits ride on
 * the data flowing back): each rank has a synchronous channel (Ssend_init)
 * to each ring neighbour and a receive from each; at 2 ranks both
 * neighbours are the one peer, so two channels run each way between the
 * pair.  Every message is checked, every iteration:
 *   - the halo, receives started before sends, then sends before receives;
 *   - one direction only for a while (the reverse channel bound, not
 *     started: its credits must still go out), then the other;
 *   - a send waited for alone before the reverse receive is even started
 *     (its credit can not wait for the reverse data);
 *   - the leftward pair unbound mid-way, the rightward one going on, then
 *     bound again (the reverse channel bound later);
 *   - a pair whose reverse channel is never started;
 *   - slack 2 and 3 channels with address_base_increment 1, K starts
 *     outstanding before the waits.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <stdio.h>
#include <string.h>

#define HALO_K 3            /* largest slack */
#define RIGHTWARD 0         /* chan[0]: receive from left, chan[2]: send to right */
#define LEFTWARD 1          /* chan[1]: receive from right, chan[3]: send to left */

typedef struct {
    int sbuf[2][HALO_K], rbuf[2][HALO_K];
    MPI_Request req[4], chan[4];
    int slack, base_tag;
    int started[2], checked[2];   /* per direction: starts, checks (buffer index mod slack) */
} halo_t;

static int halo_value(int dir, int sender, int iter)
{
    return 1000000 * (dir + 1) + 1000 * sender + iter;
}

/* Requests of direction dir (its receive and its send) with tags base_tag
 * + dir, bound. */
static void halo_bind_dir(halo_t *h, int dir)
{
    MPI_Info info;
    MPI_Request in[2];
    int slacks[2] = {h->slack, h->slack};
    int from = RIGHTWARD == dir ? left : right, to = RIGHTWARD == dir ? right : left;

    MPI_Info_create(&info);
    MPI_Info_set(info, MPIX_CHAN_INFO_ADDRESS_BASE_INCREMENT, "1");
    MPI_Recv_init(h->rbuf[dir], 1, MPI_INT, from, h->base_tag + dir, MPI_COMM_WORLD, &in[0]);
    MPI_Ssend_init(h->sbuf[dir], 1, MPI_INT, to, h->base_tag + dir, MPI_COMM_WORLD, &in[1]);
    h->req[dir] = in[0];
    h->req[2 + dir] = in[1];
    h->started[dir] = h->checked[dir] = 0;
    {
        MPI_Info infos[2] = {info, info};
        MPI_Request out[2];
        CHECK(MPI_SUCCESS == MPIX_Bind_slack_channels(2, in, out, slacks, infos));
        h->chan[dir] = out[0];
        h->chan[2 + dir] = out[1];
    }
    MPI_Info_free(&info);
    CHECK(MPI_REQUEST_NULL != h->chan[dir] && MPI_REQUEST_NULL != h->chan[2 + dir]);
}

static void halo_unbind_dir(halo_t *h, int dir)
{
    MPI_Request c[2] = {h->chan[dir], h->chan[2 + dir]};

    CHECK(MPI_SUCCESS == MPIX_Unbind_channels(2, c));
    MPI_Request_free(&h->req[dir]);
    MPI_Request_free(&h->req[2 + dir]);
}

/* Iteration it's message of direction dir, which the direction's next
 * start sends: the send's value in place (each start moves the buffers by
 * one element, modulo slack). */
static void halo_fill(halo_t *h, int dir, int it)
{
    int k = h->started[dir]++ % h->slack;

    h->sbuf[dir][k] = halo_value(dir, rank, it);
    h->rbuf[dir][k] = -1;
}

/* The direction's oldest start not checked carried iteration it. */
static void halo_check(halo_t *h, int dir, int it)
{
    int from = RIGHTWARD == dir ? left : right;
    int got = h->rbuf[dir][h->checked[dir]++ % h->slack];

    if (got != halo_value(dir, from, it)) {
        printf("rank %d: direction %d iteration %d: got %d, expected %d\n", rank, dir, it, got,
               halo_value(dir, from, it));
    }
    CHECK(got == halo_value(dir, from, it));
}

/* Starts direction dir's receive, then its send. */
static void halo_start(halo_t *h, int dir, int it)
{
    halo_fill(h, dir, it);
    MPI_Start(&h->chan[dir]);
    MPI_Start(&h->chan[2 + dir]);
}

static void halo_wait(halo_t *h, int dir, int it)
{
    MPI_Wait(&h->chan[dir], MPI_STATUS_IGNORE);
    MPI_Wait(&h->chan[2 + dir], MPI_STATUS_IGNORE);
    halo_check(h, dir, it);
}

/* Both directions, n iterations from *it: receives then sends (one
 * Startall), or sends first. */
static void halo_both(halo_t *h, int *it, int n, int sends_first)
{
    for (int i = 0; i < n; ++i, ++*it) {
        MPI_Request all[4];
        halo_fill(h, RIGHTWARD, *it);
        halo_fill(h, LEFTWARD, *it);
        for (int k = 0; k < 4; ++k) {
            all[k] = h->chan[sends_first ? (k + 2) % 4 : k];
        }
        MPI_Startall(4, all);
        MPI_Waitall(4, h->chan, MPI_STATUSES_IGNORE);
        halo_check(h, RIGHTWARD, *it);
        halo_check(h, LEFTWARD, *it);
    }
}

static void halo_one_way(halo_t *h, int dir, int *it, int n)
{
    for (int i = 0; i < n; ++i, ++*it) {
        halo_start(h, dir, *it);
        halo_wait(h, dir, *it);
    }
}

/* The rightward send waited for alone, before the leftward receive
 * starts: its credit must not wait for leftward data. */
static void halo_send_alone(halo_t *h, int *it, int n)
{
    for (int i = 0; i < n; ++i, ++*it) {
        halo_start(h, RIGHTWARD, *it);
        MPI_Wait(&h->chan[2 + RIGHTWARD], MPI_STATUS_IGNORE);
        halo_start(h, LEFTWARD, *it);
        halo_wait(h, LEFTWARD, *it);
        MPI_Wait(&h->chan[RIGHTWARD], MPI_STATUS_IGNORE);
        halo_check(h, RIGHTWARD, *it);
    }
}

/* K iterations started before any wait (slack K), then waited in order. */
static void halo_pipelined(halo_t *h, int *it, int rounds)
{
    for (int r = 0; r < rounds; ++r, *it += h->slack) {
        for (int j = 0; j < h->slack; ++j) {
            halo_fill(h, RIGHTWARD, *it + j);
            halo_fill(h, LEFTWARD, *it + j);
            /* Open MPI's MPI_Startall refuses active requests. */
            for (int k = 0; k < 4; ++k) {
                MPI_Start(&h->chan[k]);
            }
        }
        for (int j = 0; j < h->slack; ++j) {
            MPI_Waitall(4, h->chan, MPI_STATUSES_IGNORE);
            halo_check(h, RIGHTWARD, *it + j);
            halo_check(h, LEFTWARD, *it + j);
        }
    }
}

static void halo_slack1(void)
{
    halo_t h = {.slack = 1, .base_tag = 10};
    int it = 0;

    halo_bind_dir(&h, RIGHTWARD);
    halo_bind_dir(&h, LEFTWARD);
    halo_both(&h, &it, 50, 0);
    halo_both(&h, &it, 50, 1);
    halo_one_way(&h, RIGHTWARD, &it, 30);
    halo_one_way(&h, LEFTWARD, &it, 30);
    halo_send_alone(&h, &it, 30);
    halo_unbind_dir(&h, LEFTWARD);
    halo_one_way(&h, RIGHTWARD, &it, 20);
    halo_bind_dir(&h, LEFTWARD);
    halo_both(&h, &it, 30, 0);
    halo_unbind_dir(&h, RIGHTWARD);
    halo_unbind_dir(&h, LEFTWARD);
}

/* The leftward pair bound and never started. */
static void halo_reverse_never(void)
{
    halo_t h = {.slack = 1, .base_tag = 20};
    int it = 0;

    halo_bind_dir(&h, RIGHTWARD);
    halo_bind_dir(&h, LEFTWARD);
    halo_one_way(&h, RIGHTWARD, &it, 40);
    halo_unbind_dir(&h, RIGHTWARD);
    halo_unbind_dir(&h, LEFTWARD);
}

static void halo_slack(int slack)
{
    halo_t h = {.slack = slack, .base_tag = 30 + 2 * slack};
    int it = 0;

    halo_bind_dir(&h, RIGHTWARD);
    halo_bind_dir(&h, LEFTWARD);
    halo_pipelined(&h, &it, 20);
    halo_both(&h, &it, 20, 1);
    halo_one_way(&h, LEFTWARD, &it, 10);
    halo_pipelined(&h, &it, 10);
    halo_unbind_dir(&h, RIGHTWARD);
    halo_unbind_dir(&h, LEFTWARD);
}

int main(int argc, char **argv)
{
    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    halo_slack1();
    halo_reverse_never();
    halo_slack(2);
    halo_slack(3);
    return ompix_test_finish("chan_sync_halo");
}
