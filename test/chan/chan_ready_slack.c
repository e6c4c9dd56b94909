/*
 * ompix-test: np=2 tls=shm,tcp,net pml=ob1,ucx timeout=90 paths="chan:tag"
 *
 * Ready channels (bound from MPI_Rsend_init) streamed under slack: the
 * sends' fast starts, which on shared memory copy into the mapped ring and
 * over TCP send one tag message each into a receive posted into the slot
 * (pml/chan's TAG path; chan_ready_slack_am.c: one active message each,
 * in the short form up to 64 bytes, the message copied into the active
 * message's data, the header form above), must deliver every message
 * whole, in order, into the right place.  Rank 1 starts K receives on one channel (slack K,
 * address_base_increment positive, negative or none), then tells rank 0
 * with an ordinary message; rank 0 fills its K buffer positions and starts
 * K sends before waiting for any.  Every message has its own bytes (round,
 * position, byte index); rank 1 checks each position after each Wait, its
 * count, and that the bytes around the messages were not written.  Sizes
 * 1, 3, 8, 13, 64, 65 and 200 bytes (unaligned sizes: the AM path's short
 * form puts the data before the slot's sequence word).  A lost message hangs (the
 * case times out), a reordered or misplaced one fails the checks.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 60
#define GUARD 16
#define POISON 0xa5

static unsigned char slack_byte(int round, int k, int j)
{
    return (unsigned char) (round * 31 + k * 7 + j * 3 + 1);
}

/* n bytes, slack k, increment incr (bytes, MPI_BYTE) between positions. */
static void slack_stream(int n, int slack, int incr)
{
    int peer = 1 - rank, span = (slack - 1) * abs(incr) + n;
    unsigned char *region = malloc((size_t) span + 2 * GUARD);
    unsigned char *first = region + GUARD + (incr < 0 ? (slack - 1) * -incr : 0);
    MPI_Request req, chan = MPI_REQUEST_NULL;
    MPI_Info info = MPI_INFO_NULL;
    char s[32];

    memset(region, POISON, (size_t) span + 2 * GUARD);
    if (0 != incr) {
        MPI_Info_create(&info);
        snprintf(s, sizeof(s), "%d", incr);
        MPI_Info_set(info, "address_base_increment", s);
    }
    if (0 == rank) {
        MPI_Rsend_init(first, n, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(first, n, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_slack_channel(req, &chan, slack, info));
    if (MPI_INFO_NULL != info) {
        MPI_Info_free(&info);
    }
    for (int r = 0; r < ROUNDS && MPI_REQUEST_NULL != chan; ++r) {
        if (0 == rank) {
            MPI_Recv(NULL, 0, MPI_BYTE, peer, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int k = 0; k < slack; ++k) {
                for (int j = 0; j < n; ++j) {
                    first[k * incr + j] = slack_byte(r, k, j);
                }
            }
            for (int k = 0; k < slack; ++k) {
                CHECK(MPI_SUCCESS == MPI_Start(&chan));
            }
            for (int k = 0; k < slack; ++k) {
                CHECK(MPI_SUCCESS == MPI_Wait(&chan, MPI_STATUS_IGNORE));
            }
            continue;
        }
        for (int k = 0; k < slack; ++k) {
            memset(first + k * incr, POISON, (size_t) n);
        }
        for (int k = 0; k < slack; ++k) {
            CHECK(MPI_SUCCESS == MPI_Start(&chan));
        }
        MPI_Send(NULL, 0, MPI_BYTE, peer, 12, MPI_COMM_WORLD);
        for (int k = 0; k < slack; ++k) {
            MPI_Status st;
            int count = -1, bad = 0;
            CHECK(MPI_SUCCESS == MPI_Wait(&chan, &st));
            MPI_Get_count(&st, MPI_BYTE, &count);
            CHECK(count == n && st.MPI_SOURCE == peer && 11 == st.MPI_TAG);
            for (int j = 0; j < n; ++j) {
                bad += first[k * incr + j] != slack_byte(r, k, j);
            }
            if (bad) {
                fprintf(stderr, "rank 1: %d bytes, slack %d, increment %d: round %d message %d:"
                        " %d bad bytes\n", n, slack, incr, r, k, bad);
            }
            CHECK(0 == bad);
        }
        for (int g = 0; g < GUARD; ++g) {
            CHECK(POISON == region[g] && POISON == region[GUARD + span + g]);
        }
    }
    if (MPI_REQUEST_NULL != chan) {
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    }
    MPI_Request_free(&req);
    free(region);
}

int main(int argc, char **argv)
{
    static const int sizes[] = {1, 3, 8, 13, 64, 65, 200};

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]) && rank < 2; ++i) {
        int n = sizes[i];
        slack_stream(n, 1, 0);
        slack_stream(n, 4, n + 5);
        slack_stream(n, 4, -(n + 3));
    }
    return ompix_test_finish("chan_ready_slack");
}
