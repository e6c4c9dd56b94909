/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120
 *
 * Persistent allgather, gather, scatter, alltoall and bcast whose send or
 * receive side (or both) is a large "contiguous with gaps" type (a resized
 * contiguous of a vector of an hvector of MPI_INT: one block of 32 765
 * ints and an 8-byte gap per element, 2 elements) and whose other side is
 * plain MPI_INT or the same type.  Open MPI 4.1.4's ompi_datatype_sndrcv drops the last up
 * to 64 KiB of such a layout (stock MPI_Allgather does, on its own block);
 * persist's local copies must be exact.  Every element is checked, 3
 * starts each with new contents.
 */
#include "ompix_test.h"
#include <string.h>

#define HALF 32765              /* ints in one block: > 64 KiB */
#define EXT (HALF + 2)          /* ints in one extent: the block and the gap */
#define N (2 * HALF)            /* ints of one rank's contribution */
#define STARTS 3

static MPI_Datatype gaps;       /* 2 of these = N ints */

static void make_gaps(void)
{
    MPI_Datatype hv, v, c;
    MPI_Type_create_hvector(5, 1, 4, MPI_INT, &hv);
    MPI_Type_vector(HALF / 5, 1, 1, hv, &v);
    MPI_Type_contiguous(1, v, &c);
    MPI_Type_create_resized(c, 0, (MPI_Aint) EXT * 4, &gaps);
    MPI_Type_commit(&gaps);
    MPI_Type_free(&hv);
    MPI_Type_free(&v);
    MPI_Type_free(&c);
}

static int val(int from, int to, int it, int i) { return from * 10000000 + to * 1000000 + it * 200000 + i; }

/* Element i (0..N-1) of a gapped buffer: the gaps hold -9 and must stay. */
static int *gap_at(int *buf, int i) { return &buf[(i / HALF) * EXT + i % HALF]; }

static void fill_gapped(int *buf, int from, int to, int it)
{
    for (int i = 0; i < 2 * EXT; ++i) buf[i] = -9;
    for (int i = 0; i < N; ++i) *gap_at(buf, i) = val(from, to, it, i);
}

static int check_gapped(int *buf, int from, int to, int it)
{
    int bad = 0;
    for (int i = 0; i < N; ++i) bad += *gap_at(buf, i) != val(from, to, it, i);
    for (int e = 0; e < 2; ++e) bad += buf[e * EXT + HALF] != -9 || buf[e * EXT + HALF + 1] != -9;
    return bad;
}

static int check_plain(const int *buf, int from, int to, int it)
{
    int bad = 0;
    for (int i = 0; i < N; ++i) bad += buf[i] != val(from, to, it, i);
    return bad;
}

/* Poisons a receive side: gapped buffers keep -9 in their gaps. */
static void poison(int *g, int *p, int gapped_recv)
{
    for (int q = 0; q < size; ++q) {
        for (int i = 0; i < 2 * EXT; ++i) {
            if (gapped_recv) g[(size_t) q * 2 * EXT + i] = i % EXT >= HALF ? -9 : 0x55555555;
        }
        for (int i = 0; i < N; ++i) {
            if (!gapped_recv) p[(size_t) q * N + i] = 0x55555555;
        }
    }
}

/* kind: 0 allgather, 1 gather, 2 scatter, 3 alltoall, 4 bcast.  gapped_send:
 * the gapped type is on the send side (else on the receive side); both:
 * on both sides (the send side then in a buffer of its own).  Block
 * contents name sender and, for scatter and alltoall, receiver (else 0). */
static void run(int kind, int gapped_send, int both, int root)
{
    static const char *names[] = {"allgather", "gather", "scatter", "alltoall", "bcast"};
    int *g = malloc(sizeof(int) * 2 * EXT * (size_t) size);    /* gapped, one block per rank */
    int *p = malloc(sizeof(int) * (size_t) N * (size_t) size); /* plain, one block per rank */
    int *gs = both ? malloc(sizeof(int) * 2 * EXT * (size_t) size) : g;
    MPI_Datatype st = gapped_send || both ? gaps : MPI_INT, rt = gapped_send && !both ? MPI_INT : gaps;
    int sc = gapped_send || both ? 2 : N, rc = gapped_send && !both ? N : 2;
    void *sbuf = gapped_send || both ? (void *) gs : (void *) p;
    void *rbuf = gapped_send && !both ? (void *) p : (void *) g;
    int personal = 2 == kind || 3 == kind;
    MPI_Request req;

    switch (kind) {
    case 0: MPIX_Allgather_init(sbuf, sc, st, rbuf, rc, rt, MPI_COMM_WORLD, MPI_INFO_NULL, &req); break;
    case 1: MPIX_Gather_init(sbuf, sc, st, rbuf, rc, rt, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req); break;
    case 2: MPIX_Scatter_init(sbuf, sc, st, rbuf, rc, rt, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req); break;
    case 3: MPIX_Alltoall_init(sbuf, sc, st, rbuf, rc, rt, MPI_COMM_WORLD, MPI_INFO_NULL, &req); break;
    default: MPIX_Bcast_init(g, 2, gaps, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req); break;
    }
    for (int it = 0; it < STARTS; ++it) {
        int bad = 0;
        if (4 == kind) {
            fill_gapped(g, root, 0, rank == root ? it : -1);
        } else {
            poison(g, p, !gapped_send || both);
            for (int q = 0; q < (personal ? size : 1); ++q) {
                int to = personal ? q : 0;
                if (2 == kind && rank != root) break;
                if (gapped_send || both) fill_gapped(gs + (size_t) q * 2 * EXT, rank, to, it);
                else for (int i = 0; i < N; ++i) p[(size_t) q * N + i] = val(rank, to, it, i);
            }
        }
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int q = 0; q < size; ++q) {
            int from = 2 == kind || 4 == kind ? root : q, to = personal ? rank : 0;
            int *rp = p + (size_t) q * N, *rg = g + (size_t) q * 2 * EXT;
            if ((1 == kind && rank != root) || ((2 == kind || 4 == kind) && q > 0)) break;
            if (4 == kind) bad += check_gapped(g, from, to, it);
            else bad += gapped_send && !both ? check_plain(rp, from, to, it) : check_gapped(rg, from, to, it);
        }
        if (bad) {
            printf("rank %d: %s %s-side gaps root %d start %d: %d wrong elements\n", rank, names[kind],
                   both ? "both" : gapped_send ? "send" : "receive", root, it, bad);
        }
        CHECK(0 == bad);
    }
    MPI_Request_free(&req);
    if (both) free(gs);
    free(g);
    free(p);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    make_gaps();
    for (int kind = 0; kind < 5; ++kind) {
        for (int gapped_send = 0; gapped_send < 2; ++gapped_send) {
            if (4 == kind && !gapped_send) continue;
            run(kind, gapped_send, 0, size - 1);
        }
        if (4 != kind) run(kind, 1, 1, size - 1);
    }
    MPI_Type_free(&gaps);
    return ompix_test_finish("persist_dt_gaps");
}
