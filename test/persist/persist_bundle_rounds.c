/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120 mca="coll_persist_bundle on coll_persist_shm_max_bytes 0" ompi50=no ompi50_why="the bundle engine (ompi/mpiext/chan) is not built against 5.0 (README, version matrix)"
 *
 * Plans on bundles in which one peer appears in two rounds: the
 * dissemination barrier, recursive doubling's fold (3 ranks), Bruck's
 * allgather and alltoall, the ring allgather and the pairwise alltoall.
 * Over TCP at 3 ranks they hung when pml/chan's progress was re-entered
 * (a synchronous channel's credit owed by a later round's receive), so
 * coll/persist kept them on their own requests; now each must run on
 * channels (pml/chan's start counters move for every plan, at every
 * size) with its data checked every start, starts back to back, and two
 * bundles started together by MPI_Startall.
 */
#include "persist_chan_counts.h"
#include <string.h>

#define STARTS 50
static int val(int from, int to, int it, int i) { return from * 1000000 + to * 10000 + it * 100 + i % 97; }

enum { BARRIER, ALLREDUCE, ALLGATHER, ALLTOALL, NKINDS };
static const char *const kind_names[NKINDS] = {"barrier", "allreduce", "allgather", "alltoall"};
typedef struct { int kind, n, *s, *r; MPI_Request req; } plan_t;

static void plan_init(plan_t *p, int kind, int n)
{
    p->kind = kind; p->n = n;
    p->s = calloc((size_t) (n * size + 1), sizeof(int));
    p->r = calloc((size_t) (n * size + 1), sizeof(int));
    switch (kind) {
    case BARRIER: MPIX_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &p->req); break;
    case ALLREDUCE:
        MPIX_Allreduce_init(p->s, p->r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &p->req);
        break;
    case ALLGATHER:
        MPIX_Allgather_init(p->s, n, MPI_INT, p->r, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &p->req);
        break;
    default:
        MPIX_Alltoall_init(p->s, n, MPI_INT, p->r, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &p->req);
    }
}

static void plan_fill(plan_t *p, int it)
{
    for (int i = 0; i < p->n * size; ++i) {
        p->s[i] = val(rank, ALLTOALL == p->kind ? i / p->n : 0, it, i % p->n);
        p->r[i] = -1;
    }
}

static int plan_check(const plan_t *p, int it)
{
    int bad = 0;
    for (int i = 0; ALLREDUCE == p->kind && i < p->n; ++i) {
        int want = 0;
        for (int q = 0; q < size; ++q) want += val(q, 0, it, i);
        bad += p->r[i] != want;
    }
    for (int i = 0; (ALLGATHER == p->kind || ALLTOALL == p->kind) && i < p->n * size; ++i)
        bad += p->r[i] != val(i / p->n, ALLTOALL == p->kind ? rank : 0, it, i % p->n);
    if (bad) printf("rank %d: %s n=%d start %d: %d wrong\n", rank, kind_names[p->kind], p->n, it, bad);
    return bad;
}

static void plan_free(plan_t *p)
{
    MPI_Request_free(&p->req);
    free(p->s); free(p->r);
}

/* One plan, STARTS starts back to back; it must have used channels. */
static void one(int kind, int n)
{
    plan_t p;
    unsigned long long before = persist_chan_starts();
    plan_init(&p, kind, n);
    for (int it = 0; it < STARTS; ++it) {
        plan_fill(&p, it);
        MPI_Start(&p.req);
        MPI_Wait(&p.req, MPI_STATUS_IGNORE);
        CHECK(0 == plan_check(&p, it));
    }
    plan_free(&p);
    if (persist_chan_starts() == before) printf("rank %d: %s n=%d not on channels\n", rank, kind_names[kind], n);
    CHECK(persist_chan_starts() > before);
}

/* Two bundles in flight at once, started together. */
static void together(void)
{
    plan_t p[2];
    MPI_Request reqs[2];
    plan_init(&p[0], ALLGATHER, 2);
    plan_init(&p[1], ALLTOALL, 2);
    for (int it = 0; it < STARTS; ++it) {
        plan_fill(&p[0], it); plan_fill(&p[1], it);
        reqs[0] = p[0].req; reqs[1] = p[1].req;
        MPI_Startall(2, reqs);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        CHECK(0 == plan_check(&p[0], it) && 0 == plan_check(&p[1], it));
    }
    plan_free(&p[0]); plan_free(&p[1]);
}

int main(int argc, char **argv)
{
    persist_bundle_test_init(&argc, &argv);

    one(BARRIER, 0);
    one(ALLREDUCE, 2);                    /* recursive doubling, folded at 3 ranks */
    one(ALLGATHER, 2);                    /* Bruck's at 3 and 4 ranks, the ring at 2 */
    one(ALLGATHER, 16384 / size);         /* 64 KiB gathered: the ring */
    one(ALLTOALL, 2);                     /* Bruck's at 3 and 4 ranks */
    one(ALLTOALL, 256);                   /* 1 KiB blocks: the pairwise exchange */
    together();

    persist_chan_counts_close();
    MPI_T_finalize();
    return ompix_test_finish("persist_bundle_rounds");
}
