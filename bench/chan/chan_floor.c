/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The shared-memory floor of an 8-byte ping-pong, 2 ranks on one node
 * (bench/run chan compares the channel ping-pong with it): the two
 * processes bounce one cache line of an MPI_Win_allocate_shared segment,
 * with no MPI call in the loop.  The line holds an 8-byte payload and a
 * sequence word; a message is a store of the payload and a release store
 * of the word, taken by an acquire load of the word and a load of the
 * payload: what a channel's start and completing test must do at least.
 *
 *   chan_floor          RESULT floor_8B us <half round trip>
 *
 * Every payload is checked.  Medians of the harness's repetitions
 * (bench/include/ompix_bench_mpi.h).
 */
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>

#include "ompix_bench_mpi.h"

#define CHAN_FLOOR_SPINS 4096

typedef struct chan_floor_line_t {
    uint64_t seq;                      /* written last, release */
    uint64_t data;
} chan_floor_line_t;

static int rank;
static long bad;
static uint64_t seq;                   /* the same on both ranks */
static chan_floor_line_t *line;

static ompix_bench_harness_t harness = {
    .reps = 11,
    .min_reps = 3,
    .rep_seconds = 0.05,
    .metric_seconds = 1.5,
    .bad = &bad,
};

static void chan_floor_put(uint64_t s)
{
    line->data = s * 3;
    __atomic_store_n(&line->seq, s, __ATOMIC_RELEASE);
}

/* An answer takes well under a microsecond (a few polls) when both ranks
 * run; after CHAN_FLOOR_SPINS polls the peer is not running (this 2-core
 * machine is shared) and spinning on would only keep it off this core
 * until the scheduler's next tick: yield instead, so that a busy machine
 * costs this floor what it costs the MPI ping-pongs, not milliseconds. */
static void chan_floor_take(uint64_t s)
{
    for (long polls = 1; __atomic_load_n(&line->seq, __ATOMIC_ACQUIRE) != s; ++polls) {
        if (0 == polls % CHAN_FLOOR_SPINS) {
            sched_yield();
        }
    }
    bad += line->data != s * 3;
}

/* Rank 0 sends the odd sequence numbers, rank 1 answers with the even. */
static void chan_floor_loop(long n)
{
    for (long i = 0; i < n; ++i) {
        seq += 2;
        if (0 == rank) {
            chan_floor_put(seq - 1);
            chan_floor_take(seq);
        } else {
            chan_floor_take(seq - 1);
            chan_floor_put(seq);
        }
    }
}

int main(int argc, char **argv)
{
    ompix_bench_metric_t m = {.name = "floor_8B", .unit = "us", .loop = chan_floor_loop, .ops = 2};
    MPI_Aint bytes;
    int size, disp;
    void *base;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        fprintf(stderr, "chan_floor: needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* Rank 0's segment holds the line, aligned to 64 bytes in it. */
    MPI_Win_allocate_shared(0 == rank ? 128 : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_shared_query(win, 0, &bytes, &disp, &base);
    line = (chan_floor_line_t *) (((uintptr_t) base + 63) & ~(uintptr_t) 63);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (0 == rank) {
        line->seq = line->data = 0;
    }
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    ompix_bench_run(&harness, &m);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
