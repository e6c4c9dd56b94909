/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Channel streaming, bandwidth and bind cost, 2 ranks (bench/run chan runs
 * it), through the public API (MPIX_Bind_slack_channel and friends: a
 * channel of slack > 1 needs the extension's Wait/Test wrappers):
 *
 *   chan_stream [check] GROUP...     GROUP: stream | bw65536 | bw1048576 | bind
 *   chan_stream instr N chan|isend|persist
 *
 *   stream     stream_rate_8B: rank 0 streams 8-byte messages to rank 1 in
 *              windows of 64 (µs per message; bench/run turns it into
 *              messages/s): stream_chan over a slack-64 channel,
 *              stream_isend with 64 MPI_Isend/MPI_Irecv + MPI_Waitall,
 *              stream_persist with 64 Send_init/Recv_init + MPI_Startall +
 *              MPI_Waitall
 *   bwS        bw of S-byte messages in windows of 8 (S = 64 KiB) or 4
 *              (1 MiB) (MB/s): bwS_chan over a channel of that slack,
 *              bwS_persist over that many Send_init/Recv_init + Startall
 *   bind       bind_us / unbind_us: µs per MPIX_Bind_channel of a
 *              Send_init (rank 0) / Recv_init (rank 1) pair, and per
 *              MPIX_Unbind_channel (the later rank's, median of 3 runs of
 *              100 cycles)
 *
 * One protocol for every variant, window by window: rank 1 starts the
 * window's receives, then sends rank 0 a zero-byte acknowledgement
 * (MPI_Send); rank 0 takes it, starts the window's sends and completes
 * them; rank 1 completes its receives, then starts the next window.  So a
 * send never starts before its receive, and the channels are *ready*
 * channels (bound from MPI_Send_init): the acknowledgement already is the
 * flow control, and a synchronous channel (Ssend_init) would add its own
 * credits on top of it (and a stock Ssend a rendezvous): a ready channel is
 * the natural stream under a protocol that tells the sender when the
 * receives are there.  bench/run runs "check" (a few windows of each, no
 * timing) under --mca pml_chan_debug_ready 1 first, where the engine
 * refuses a send started before its receive (this program aborts on it).
 * Message i of a window lives at buf + i * S on both sides (the
 * channels' address_base_increment).  Its first and last 8 bytes name
 * the window and the message and are checked after every window (two
 * stores and two loads per message, on every variant alike); the rest is
 * a pattern, checked after each metric in rank 1's buffers, cleared
 * before it.
 *
 * instr: N windows of the stream's 8-byte messages, untimed, after a
 * warm-up; rank 0's starts of each window's sends are in
 * chan_stream_m_send (bench/run counts them with callgrind; their
 * completion is not counted: a stock Waitall polls until the receiver has
 * drained shared memory, which is waiting, not work).
 *
 * Medians of the harness's repetitions (bench/include/ompix_bench_mpi.h);
 * output "RESULT <metric> <unit> <value>" on rank 0.  With an explicit
 * --mca pml X the program adds chan (--mca pml X,chan).
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../test/chan_engine/chan_engine.h"
#include "ompix_bench_mpi.h"

#ifndef OMPI_HAVE_MPI_EXT_CHAN
#error "chan_stream needs ompix's channels (OMPI_HAVE_MPI_EXT_CHAN)"
#endif

#define WMAX 64
#define ACK_TAG 11
#define DATA_TAG 12
#define BIND_RUNS 3
#define BIND_ITERS 100
#define INSTR_WARMUP 20

enum { CHAN_STREAM_CHAN, CHAN_STREAM_ISEND, CHAN_STREAM_PERSIST };

static long bad;
static uint64_t window;                /* windows so far, the same on both ranks */
static size_t msg;                     /* bytes per message */
static int win;                        /* messages per window (= slack) */
static char *sbuf, *rbuf;              /* win * msg bytes each */
static MPI_Request ch, req_in;         /* the channel (this rank's end), its req_in */
static MPI_Request reqs[WMAX];         /* Isend/Irecv, or the persistent requests */

static ompix_bench_harness_t harness = {
    .reps = 11,
    .min_reps = 3,
    .rep_seconds = 0.05,
    .metric_seconds = 1.0,
    .bad = &bad,
};

/* Rank 1: start this window's receives. */
static void chan_stream_post(int kind)
{
    switch (kind) {
    case CHAN_STREAM_CHAN:
        for (int i = 0; i < win; ++i) {
            MPI_Start(&ch);
        }
        break;
    case CHAN_STREAM_ISEND:
        for (int i = 0; i < win; ++i) {
            MPI_Irecv(rbuf + i * msg, (int) msg, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD, &reqs[i]);
        }
        break;
    default:
        MPI_Startall(win, reqs);
    }
}

/* Rank 0: start this window's sends. */
static void chan_stream_send(int kind)
{
    switch (kind) {
    case CHAN_STREAM_CHAN:
        for (int i = 0; i < win; ++i) {
            MPI_Start(&ch);
        }
        break;
    case CHAN_STREAM_ISEND:
        for (int i = 0; i < win; ++i) {
            MPI_Isend(sbuf + i * msg, (int) msg, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD, &reqs[i]);
        }
        break;
    default:
        MPI_Startall(win, reqs);
    }
}

/* Either rank: complete the window (a channel completes its oldest start
 * per Wait). */
static void chan_stream_complete(int kind)
{
    if (CHAN_STREAM_CHAN == kind) {
        for (int i = 0; i < win; ++i) {
            MPI_Wait(&ch, MPI_STATUS_IGNORE);
        }
    } else {
        MPI_Waitall(win, reqs, MPI_STATUSES_IGNORE);
    }
}

/* The first and the last 8 bytes of message i of window w (counted on
 * both ranks alike): rank 0 writes them before the start, rank 1 checks
 * them after the window, so a message not delivered, or not all of it, is
 * seen (the rest of each message stays the pattern, checked once at the
 * end). */
static uint64_t chan_stream_stamp(uint64_t w, int i)
{
    return w * WMAX + (uint64_t) i + 1;
}

/* Rank 0's starts of a window's sends, under the name `instr` counts
 * (callgrind --toggle-collect=chan_stream_m_send). */
__attribute__((noinline)) void chan_stream_m_send(int kind)
{
    chan_stream_send(kind);
}

static void chan_stream_windows(int kind, long n, int measured)
{
    for (long k = 0; k < n; ++k) {
        uint64_t w = window++;
        if (1 == rank) {
            chan_stream_post(kind);
            MPI_Send(NULL, 0, MPI_BYTE, 0, ACK_TAG, MPI_COMM_WORLD);
            chan_stream_complete(kind);
            for (int i = 0; i < win; ++i) {
                uint64_t first, last;
                memcpy(&first, rbuf + i * msg, sizeof(first));
                memcpy(&last, rbuf + (i + 1) * msg - sizeof(last), sizeof(last));
                bad += first != chan_stream_stamp(w, i) || last != chan_stream_stamp(w, i);
            }
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, 1, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < win; ++i) {
                uint64_t stamp = chan_stream_stamp(w, i);
                memcpy(sbuf + i * msg, &stamp, sizeof(stamp));
                memcpy(sbuf + (i + 1) * msg - sizeof(stamp), &stamp, sizeof(stamp));
            }
            if (measured) {
                chan_stream_m_send(kind);
            } else {
                chan_stream_send(kind);
            }
            chan_stream_complete(kind);
        }
    }
}

static void chan_stream_loop_chan(long n) { chan_stream_windows(CHAN_STREAM_CHAN, n, 0); }
static void chan_stream_loop_isend(long n) { chan_stream_windows(CHAN_STREAM_ISEND, n, 0); }
static void chan_stream_loop_persist(long n) { chan_stream_windows(CHAN_STREAM_PERSIST, n, 0); }

/* Byte j of message i: what rank 1 must find. */
static char chan_stream_pattern(size_t i, size_t j)
{
    return (char) (i * 31 + j * 7 + 1);
}

static void chan_stream_check(void)
{
    if (1 != rank) {
        return;
    }
    for (int i = 0; i < win; ++i) {
        for (size_t j = sizeof(uint64_t); j < msg - sizeof(uint64_t); j += (msg > 64 ? 61 : 1)) {
            bad += rbuf[i * msg + j] != chan_stream_pattern(i, j);
        }
    }
}

static void chan_stream_buffers(size_t bytes, int window)
{
    msg = bytes;
    win = window;
    free(sbuf);
    free(rbuf);
    sbuf = malloc(win * msg);
    rbuf = calloc(win, msg);
    if (NULL == sbuf || NULL == rbuf) {
        fprintf(stderr, "chan_stream: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < win; ++i) {
        for (size_t j = 0; j < msg; ++j) {
            sbuf[i * msg + j] = chan_stream_pattern(i, j);
        }
    }
}

/* A ready channel of slack `win`, message i at buf + i * msg. */
static void chan_stream_bind_chan(void)
{
    MPI_Info info;
    char inc[32];

    if (0 == rank) {
        MPI_Send_init(sbuf, (int) msg, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD, &req_in);
    } else {
        MPI_Recv_init(rbuf, (int) msg, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD, &req_in);
    }
    MPI_Info_create(&info);
    snprintf(inc, sizeof(inc), "%zu", msg);
    MPI_Info_set(info, "address_base_increment", inc);
    MPIX_Bind_slack_channel(req_in, &ch, win, info);
    MPI_Info_free(&info);
}

static void chan_stream_unbind_chan(void)
{
    MPIX_Unbind_channel(&ch);
    MPI_Request_free(&req_in);
}

static void chan_stream_init_persist(void)
{
    for (int i = 0; i < win; ++i) {
        if (0 == rank) {
            MPI_Send_init(sbuf + i * msg, (int) msg, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD,
                          &reqs[i]);
        } else {
            MPI_Recv_init(rbuf + i * msg, (int) msg, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD,
                          &reqs[i]);
        }
    }
}

static void chan_stream_free_persist(void)
{
    for (int i = 0; i < win; ++i) {
        MPI_Request_free(&reqs[i]);
    }
}

/* One variant: timed (harness) or, with `check_only`, a few windows. */
static void chan_stream_measure(const char *name, const char *unit, int kind, int check_only)
{
    static void (*const loops[])(long) = {chan_stream_loop_chan, chan_stream_loop_isend,
                                          chan_stream_loop_persist};
    ompix_bench_metric_t m = {.name = name, .unit = unit, .loop = loops[kind],
                              .check = chan_stream_check, .ops = win};

    if (1 == rank) {
        memset(rbuf, 0, win * msg);
    }
    if (CHAN_STREAM_CHAN == kind) {
        chan_stream_bind_chan();
    } else if (CHAN_STREAM_PERSIST == kind) {
        chan_stream_init_persist();
    }
    if (check_only) {
        m.loop(20);
        MPI_Barrier(MPI_COMM_WORLD);
        chan_stream_check();
        if (!ompix_bench_failed(&harness, name) && 0 == rank) {
            printf("CHECKED %s\n", name);
        }
    } else {
        harness.bytes_per_iteration = (double) win * msg;
        ompix_bench_run(&harness, &m);
    }
    bad = 0;
    if (CHAN_STREAM_CHAN == kind) {
        chan_stream_unbind_chan();
    } else if (CHAN_STREAM_PERSIST == kind) {
        chan_stream_free_persist();
    }
}

static void chan_stream_group_stream(int check_only)
{
    chan_stream_buffers(8, 64);
    chan_stream_measure("stream_chan", "us", CHAN_STREAM_CHAN, check_only);
    chan_stream_measure("stream_isend", "us", CHAN_STREAM_ISEND, check_only);
    chan_stream_measure("stream_persist", "us", CHAN_STREAM_PERSIST, check_only);
}

static void chan_stream_group_bw(size_t bytes, int window, int check_only)
{
    char chan_name[64], persist_name[64];

    snprintf(chan_name, sizeof(chan_name), "bw%zu_chan", bytes);
    snprintf(persist_name, sizeof(persist_name), "bw%zu_persist", bytes);
    chan_stream_buffers(bytes, window);
    chan_stream_measure(chan_name, "MB/s", CHAN_STREAM_CHAN, check_only);
    chan_stream_measure(persist_name, "MB/s", CHAN_STREAM_PERSIST, check_only);
}

/* µs per bind and per unbind of one pair; the later rank's. */
static void chan_stream_group_bind(int iters)
{
    double b[BIND_RUNS], u[BIND_RUNS], mine[2], worst[2];
    MPI_Request r;

    if (0 == rank) {
        MPI_Send_init(sbuf, 8, MPI_BYTE, 1, DATA_TAG, MPI_COMM_WORLD, &req_in);
    } else {
        MPI_Recv_init(rbuf, 8, MPI_BYTE, 0, DATA_TAG, MPI_COMM_WORLD, &req_in);
    }
    for (int k = 0; k < BIND_RUNS; ++k) {
        double tb = 0, tu = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < iters; ++i) {
            double t0 = MPI_Wtime();
            MPIX_Bind_channel(req_in, &r, MPI_INFO_NULL);
            double t1 = MPI_Wtime();
            MPIX_Unbind_channel(&r);
            tb += t1 - t0;
            tu += MPI_Wtime() - t1;
        }
        mine[0] = tb / iters * 1e6;
        mine[1] = tu / iters * 1e6;
        MPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        b[k] = worst[0];
        u[k] = worst[1];
    }
    MPI_Request_free(&req_in);
    if (0 == rank) {
        printf("RESULT bind_us us %.6g\nRESULT unbind_us us %.6g\n", ompix_bench_median(b, BIND_RUNS),
               ompix_bench_median(u, BIND_RUNS));
    }
}

/* instr: n windows of 8-byte messages of one variant, untimed, after
 * INSTR_WARMUP windows that are not counted. */
static void chan_stream_instr(long n, const char *variant)
{
    static const char *const names[] = {"chan", "isend", "persist"};
    int kind = -1;

    for (int k = 0; k < 3; ++k) {
        kind = 0 == strcmp(variant, names[k]) ? k : kind;
    }
    if (kind < 0) {
        fprintf(stderr, "chan_stream: unknown variant %s\n", variant);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    chan_stream_buffers(8, 64);
    if (CHAN_STREAM_CHAN == kind) {
        chan_stream_bind_chan();
    } else if (CHAN_STREAM_PERSIST == kind) {
        chan_stream_init_persist();
    }
    chan_stream_windows(kind, INSTR_WARMUP, 0);
    chan_stream_windows(kind, n, 1);
    if (CHAN_STREAM_CHAN == kind) {
        chan_stream_unbind_chan();
    } else if (CHAN_STREAM_PERSIST == kind) {
        chan_stream_free_persist();
    }
    if (ompix_bench_failed(&harness, "instr")) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int size, check_only = 0;

    chan_engine_init(&argc, &argv);
    /* A refused start (pml_chan_debug_ready), a failed bind: end the run. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size || NULL == chan_api || NULL == chan_api->prepare) {
        if (0 == rank) {
            fprintf(stderr, "chan_stream: needs 2 ranks and pml/chan's engine on\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    chan_stream_buffers(8, 1);
    if (argc == 4 && 0 == strcmp(argv[1], "instr")) {
        chan_stream_instr(atol(argv[2]), argv[3]);
        MPI_Finalize();
        return 0;
    }
    for (int a = 1; a < argc; ++a) {
        if (0 == strcmp(argv[a], "check")) {
            check_only = 1;
        } else if (0 == strcmp(argv[a], "stream")) {
            chan_stream_group_stream(check_only);
        } else if (0 == strcmp(argv[a], "bw65536")) {
            chan_stream_group_bw(65536, 8, check_only);
        } else if (0 == strcmp(argv[a], "bw1048576")) {
            chan_stream_group_bw(1048576, 4, check_only);
        } else if (0 == strcmp(argv[a], "bind")) {
            chan_stream_buffers(8, 1);
            chan_stream_group_bind(check_only ? 3 : BIND_ITERS);
        } else {
            if (0 == rank) {
                fprintf(stderr, "chan_stream: unknown group %s\n", argv[a]);
            }
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        fflush(stdout);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
