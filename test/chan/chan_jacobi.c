/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=120
 *
 * A real program (issue 27): a 2-D Jacobi iteration with non-periodic
 * boundaries on a Cartesian grid of ranks, its halo exchange on bound
 * channels (chan_jacobi_off.c: on the generic fallback).  Ranks on the
 * border create their requests to MPI_PROC_NULL, as halo codes do, and
 * bind all eight with one MPIX_Bind_channels; columns travel as a vector
 * datatype.  Every rank also computes the whole grid serially and checks
 * its block bit for bit (same operations in the same order).
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <string.h>

#define JAC_N 12          /* interior points per rank and dimension */
#define JAC_STEPS 60
#define JAC_W (JAC_N + 2) /* with the halo */

static double initial(int gi, int gj)
{
    return (double) ((gi * 7 + gj * 13) % 17) - 8.0;
}

/* One Jacobi step of an (rows x cols) interior with a fixed halo. */
static void step(const double *in, double *out, int rows, int cols, int width)
{
    for (int i = 1; i <= rows; ++i) {
        for (int j = 1; j <= cols; ++j) {
            out[i * width + j] = 0.25 * (in[(i - 1) * width + j] + in[(i + 1) * width + j]
                                         + in[i * width + j - 1] + in[i * width + j + 1]);
        }
    }
}

/* The whole grid on one rank, halo of zeros (the non-periodic boundary). */
static double *serial(int gr, int gc)
{
    int w = gc + 2;
    double *a = calloc((size_t) (gr + 2) * w, sizeof(double));
    double *b = calloc((size_t) (gr + 2) * w, sizeof(double));

    for (int i = 1; i <= gr; ++i) {
        for (int j = 1; j <= gc; ++j) {
            a[i * w + j] = initial(i - 1, j - 1);
        }
    }
    for (int s = 0; s < JAC_STEPS; ++s) {
        double *t;
        step(a, b, gr, gc, w);
        t = a; a = b; b = t;
    }
    free(b);
    return a;
}

/* Halo requests of one buffer: send/receive north, south, west, east. */
static void halo_requests(double *g, MPI_Comm cart, MPI_Datatype col, MPI_Request req[8])
{
    int north, south, west, east;

    MPI_Cart_shift(cart, 0, 1, &north, &south);
    MPI_Cart_shift(cart, 1, 1, &west, &east);
    MPI_Send_init(&g[1 * JAC_W + 1], JAC_N, MPI_DOUBLE, north, 1, cart, &req[0]);
    MPI_Recv_init(&g[0 * JAC_W + 1], JAC_N, MPI_DOUBLE, north, 2, cart, &req[1]);
    MPI_Send_init(&g[JAC_N * JAC_W + 1], JAC_N, MPI_DOUBLE, south, 2, cart, &req[2]);
    MPI_Recv_init(&g[(JAC_N + 1) * JAC_W + 1], JAC_N, MPI_DOUBLE, south, 1, cart, &req[3]);
    MPI_Send_init(&g[1 * JAC_W + 1], 1, col, west, 3, cart, &req[4]);
    MPI_Recv_init(&g[1 * JAC_W + 0], 1, col, west, 4, cart, &req[5]);
    MPI_Send_init(&g[1 * JAC_W + JAC_N], 1, col, east, 4, cart, &req[6]);
    MPI_Recv_init(&g[1 * JAC_W + JAC_N + 1], 1, col, east, 3, cart, &req[7]);
}

int main(int argc, char **argv)
{
    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2], crank;
    double *g[2], *whole;
    MPI_Request req[2][8], chan[2][8];
    MPI_Datatype col;
    MPI_Comm cart;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &crank);
    MPI_Cart_coords(cart, crank, 2, coords);
    MPI_Type_vector(JAC_N, 1, JAC_W, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    for (int b = 0; b < 2; ++b) {
        g[b] = calloc(JAC_W * JAC_W, sizeof(double));
        halo_requests(g[b], cart, col, req[b]);
        CHECK(MPI_SUCCESS == MPIX_Bind_channels(8, req[b], chan[b], NULL));
    }
    MPI_Type_free(&col);    /* the channels keep what they need */
    for (int i = 1; i <= JAC_N; ++i) {
        for (int j = 1; j <= JAC_N; ++j) {
            g[0][i * JAC_W + j] = initial(coords[0] * JAC_N + i - 1, coords[1] * JAC_N + j - 1);
        }
    }
    for (int s = 0; s < JAC_STEPS; ++s) {
        int cur = s % 2;
        MPI_Startall(8, chan[cur]);
        MPI_Waitall(8, chan[cur], MPI_STATUSES_IGNORE);
        step(g[cur], g[1 - cur], JAC_N, JAC_N, JAC_W);
    }
    whole = serial(dims[0] * JAC_N, dims[1] * JAC_N);
    for (int i = 1; i <= JAC_N; ++i) {
        for (int j = 1; j <= JAC_N; ++j) {
            int gi = coords[0] * JAC_N + i, gj = coords[1] * JAC_N + j;
            CHECK(whole[gi * (dims[1] * JAC_N + 2) + gj] == g[JAC_STEPS % 2][i * JAC_W + j]);
        }
    }
    for (int b = 0; b < 2; ++b) {
        CHECK(MPI_SUCCESS == MPIX_Unbind_channels(8, chan[b]));
        for (int k = 0; k < 8; ++k) {
            MPI_Request_free(&req[b][k]);
        }
        free(g[b]);
    }
    free(whole);
    MPI_Comm_free(&cart);
    return ompix_test_finish("chan_jacobi");
}
