/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Bundle benchmarks (bench/run bundle runs them): a 2-D periodic halo
 * exchange, 4 neighbours on a Cartesian communicator (MPI_Dims_create: 2
 * ranks 2x1, 4 ranks 2x2), each message BYTES bytes, one iteration = the
 * whole exchange started and completed, in one of four ways:
 *   bundle    one bundle (MPIX_Bundle_init) of 8 bound synchronous channels
 *             (MPIX_Bind_channels of Ssend_init/Recv_init): MPI_Start +
 *             MPI_Wait
 *   persist   the 8 Send_init/Recv_init requests: MPI_Startall + MPI_Waitall
 *   neighbor  MPIX_Neighbor_alltoall_init on the Cartesian communicator
 *             (libnbc): MPI_Start + MPI_Wait
 *   isend     4 MPI_Irecv + 4 MPI_Isend + MPI_Waitall
 *
 *   bundle_bench time MODE BYTES [iters]
 *             RESULT halo2d_<size> <MODE> <µs per iteration, median of 5> 0
 *   bundle_bench instr MODE BYTES N
 *             N iterations after 100 uncounted: the starts of each in
 *             bundle_bench_m_start, its completion in bundle_bench_m_wait
 *             (callgrind --toggle-collect)
 * Received data is checked after the runs (a wrong halo aborts).  With an
 * explicit --mca pml X the program adds chan (--mca pml X,chan).
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompix_chan_pml.h"
#include "../include/ompix_bench.h"
#include "../../test/include/ompix_pcoll.h"    /* MPIX_Neighbor_alltoall_init on 5.0 too */

#define RUNS 5

static int rank, nprocs, bytes, nbr[4];
static char *sbuf, *rbuf;
static MPI_Comm cart;
static MPI_Request reqs[8], bundle, neighbor;

static void halo_fail(const char *what)
{
    fprintf(stderr, "bundle_bench: rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Direction d's message from this rank: (rank, d) in every byte. */
static void halo_fill(void)
{
    for (int d = 0; d < 4; ++d) {
        memset(sbuf + (size_t) d * bytes, (rank * 4 + d) & 0x7f, bytes);
    }
}

/* What came from neighbour d is what it sent in the opposite direction. */
static void halo_check(void)
{
    static const int opposite[4] = {1, 0, 3, 2};

    for (int d = 0; d < 4; ++d) {
        char want = (char) ((nbr[d] * 4 + opposite[d]) & 0x7f);

        for (int k = 0; k < bytes; k += 1 + bytes / 16) {
            if (rbuf[(size_t) d * bytes + k] != want) {
                halo_fail("wrong halo data");
            }
        }
    }
}

static void halo_p2p(int sync)
{
    static const int opposite[4] = {1, 0, 3, 2};

    for (int d = 0; d < 4; ++d) {
        MPI_Recv_init(rbuf + (size_t) d * bytes, bytes, MPI_BYTE, nbr[d], opposite[d], cart,
                      &reqs[d]);
        if (sync) {
            MPI_Ssend_init(sbuf + (size_t) d * bytes, bytes, MPI_BYTE, nbr[d], d, cart,
                           &reqs[4 + d]);
        } else {
            MPI_Send_init(sbuf + (size_t) d * bytes, bytes, MPI_BYTE, nbr[d], d, cart,
                          &reqs[4 + d]);
        }
    }
}

static void halo_setup(const char *mode)
{
    if (0 == strcmp(mode, "bundle")) {
        MPI_Request chans[8];
        int eight = 8;

        halo_p2p(1);
        if (MPI_SUCCESS != MPIX_Bind_channels(8, reqs, chans, NULL)) {
            halo_fail("MPIX_Bind_channels failed");
        }
        for (int i = 0; i < 8; ++i) {
            MPI_Request_free(&reqs[i]);
            reqs[i] = chans[i];
        }
        MPIX_Bundle_init(1, &eight, reqs, MPI_INFO_NULL, &bundle);
    } else if (0 == strcmp(mode, "persist")) {
        halo_p2p(0);
    } else if (0 == strcmp(mode, "neighbor")) {
        MPIX_Neighbor_alltoall_init(sbuf, bytes, MPI_BYTE, rbuf, bytes, MPI_BYTE, cart,
                                    MPI_INFO_NULL, &neighbor);
    } else if (0 != strcmp(mode, "isend")) {
        halo_fail("unknown mode");
    }
}

/* The exchange's starts, and its completion (the warm-up calls these
 * directly, so that callgrind's counts of the bundle_bench_m_ functions
 * are the measured iterations only).  noipa: no clone under another name
 * (.isra), callgrind looks for these names. */
__attribute__((noipa)) static void halo_start(const char *mode)
{
    switch (mode[0]) {
    case 'b':
        MPI_Start(&bundle);
        break;
    case 'p':
        MPI_Startall(8, reqs);
        break;
    case 'n':
        MPI_Start(&neighbor);
        break;
    default:
        for (int d = 0; d < 4; ++d) {
            MPI_Irecv(rbuf + (size_t) d * bytes, bytes, MPI_BYTE, nbr[d], (d ^ 1), cart, &reqs[d]);
        }
        for (int d = 0; d < 4; ++d) {
            MPI_Isend(sbuf + (size_t) d * bytes, bytes, MPI_BYTE, nbr[d], d, cart, &reqs[4 + d]);
        }
    }
}

__attribute__((noipa)) static void halo_wait(const char *mode)
{
    if ('b' == mode[0]) {
        MPI_Wait(&bundle, MPI_STATUS_IGNORE);
    } else if ('n' == mode[0]) {
        MPI_Wait(&neighbor, MPI_STATUS_IGNORE);
    } else {
        MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE);
    }
}

/* The empty asm after each call keeps it a call (not a jump, which
 * callgrind would not count as this function's). */
__attribute__((noipa)) static void bundle_bench_m_start(const char *mode)
{
    halo_start(mode);
    __asm__ __volatile__("" ::: "memory");
}

__attribute__((noipa)) static void bundle_bench_m_wait(const char *mode)
{
    halo_wait(mode);
    __asm__ __volatile__("" ::: "memory");
}

/* One exchange.  Not a bundle_bench_m_ function itself: callgrind's
 * --toggle-collect switches off again inside a nested match. */
static void bundle_bench_iter(const char *mode)
{
    bundle_bench_m_start(mode);
    bundle_bench_m_wait(mode);
}

static double halo_time(const char *mode, int iters)
{
    double t[RUNS];

    for (int r = 0; r < RUNS; ++r) {
        double t0;

        MPI_Barrier(cart);
        t0 = ompix_bench_now();
        for (int i = 0; i < iters; ++i) {
            bundle_bench_iter(mode);
        }
        t[r] = (ompix_bench_now() - t0) / iters * 1e6;
    }
    return ompix_bench_median(t, RUNS);
}

static void halo_teardown(const char *mode)
{
    if ('b' == mode[0]) {
        MPI_Request_free(&bundle);
        for (int i = 0; i < 8; ++i) {
            MPIX_Unbind_channel(&reqs[i]);
        }
    } else if ('p' == mode[0]) {
        for (int i = 0; i < 8; ++i) {
            MPI_Request_free(&reqs[i]);
        }
    } else if ('n' == mode[0]) {
        MPI_Request_free(&neighbor);
    }
}

int main(int argc, char **argv)
{
    int dims[2] = {0, 0}, periods[2] = {1, 1}, instr;
    const char *mode;
    long n;

    ompix_chan_add_to_pml_list();
    MPI_Init(&argc, &argv);
    if (argc < 4) {
        halo_fail("usage: bundle_bench time|instr MODE BYTES [N]");
    }
    instr = 0 == strcmp(argv[1], "instr");
    mode = argv[2];
    bytes = atoi(argv[3]);
    n = argc > 4 ? atol(argv[4]) : (bytes >= 65536 ? 2000 : 20000);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Dims_create(nprocs, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_shift(cart, 0, 1, &nbr[0], &nbr[1]);
    MPI_Cart_shift(cart, 1, 1, &nbr[2], &nbr[3]);
    sbuf = malloc((size_t) 4 * bytes);
    rbuf = calloc(4, (size_t) bytes);
    halo_fill();
    halo_setup(mode);
    if (instr) {
        for (int i = 0; i < 100; ++i) {
            halo_start(mode);
            halo_wait(mode);
        }
        for (long i = 0; i < n; ++i) {
            bundle_bench_iter(mode);
        }
    } else {
        double us = halo_time(mode, (int) n), worst;

        MPI_Reduce(&us, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
        if (0 == rank) {
            printf("RESULT halo2d_%s %s %.4f 0\n",
                   bytes >= 1024 ? (bytes >= 65536 ? "64KiB" : "4KiB") : "8B", mode, worst);
        }
    }
    halo_check();
    halo_teardown(mode);
    free(sbuf);
    free(rbuf);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
