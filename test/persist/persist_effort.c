/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1,ucx timeout=180
 *
 * The info hint ompix_persist_effort (README.md, "Persistent
 * collectives"): for barrier, bcast, allreduce, allgather and alltoall at
 * 8 B and 64 KiB, each effort (low, normal, tune, and values the hint
 * does not know, which plan as normal) plans one algorithm, read from the
 * MPI_T counters coll_persist_starts_<algorithm> over 3 starts: exactly
 * one counter moves, by 3, on every rank the same algorithm (tune times
 * the candidates on each rank and must still agree), low never a
 * shared-memory plan, an unknown value the same as MPI_INFO_NULL.
 * Results are checked at every start; tune leaves the user's buffers
 * untouched at init (an in-place allreduce's input, a bcast's buffers),
 * and never calls a user-defined operation at init.
 */
#include "persist_common.h"
#include <string.h>

#define STARTS 3
#include "ompix_persist_algs.h"

enum { BARRIER, BCAST, ALLREDUCE, ALLGATHER, ALLTOALL, NFAMILIES };
static const char *const family_names[NFAMILIES] = {"barrier", "bcast", "allreduce",
                                                    "allgather", "alltoall"};
static const char *const efforts[] = {NULL, "low", "normal", "tune", "bogus", "TUNE"};
#define NEFFORTS ((int) (sizeof(efforts) / sizeof(efforts[0])))

static MPI_T_pvar_session session;
static MPI_T_pvar_handle handles[NALGS];
static int user_op_calls;

static void read_all(unsigned long long *v)
{
    for (int a = 0; a < NALGS; ++a) {
        CHECK(MPI_SUCCESS == MPI_T_pvar_read(session, handles[a], &v[a]));
    }
}

/* The one algorithm whose counter moved by STARTS, or -1. */
static int moved(const unsigned long long *before, const unsigned long long *after)
{
    int alg = -1;
    for (int a = 0; a < NALGS; ++a) {
        unsigned long long d = after[a] - before[a];
        if (STARTS == d && -1 == alg) {
            alg = a;
        } else if (0 != d) {
            return -1;
        }
    }
    return alg;
}

static MPI_Request init_family(int f, int *s, int *r, int n, MPI_Info info)
{
    MPI_Request req = MPI_REQUEST_NULL;
    switch (f) {
    case BARRIER: MPIX_Barrier_init(MPI_COMM_WORLD, info, &req); break;
    case BCAST: MPIX_Bcast_init(r, n, MPI_INT, size - 1, MPI_COMM_WORLD, info, &req); break;
    case ALLREDUCE:
        MPIX_Allreduce_init(MPI_IN_PLACE, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info, &req);
        break;
    case ALLGATHER:
        MPIX_Allgather_init(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, info, &req);
        break;
    default:
        MPIX_Alltoall_init(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, info, &req);
    }
    return req;
}

static int val(int from, int to, int it, int i) { return from * 100000 + to * 1000 + it * 100 + i % 97; }

static void fill(int f, int *s, int *r, int n, int it)
{
    for (int i = 0; i < n * size; ++i) {
        s[i] = val(rank, ALLTOALL == f ? i / n : 0, it, i % n);
        r[i] = BCAST == f && rank == size - 1 ? val(rank, 0, it, i) : ALLREDUCE == f ? rank + i + it : -1;
    }
}

static int check(int f, const int *r, int n, int it)
{
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        if (BCAST == f) bad += r[i] != val(size - 1, 0, it, i);
        if (ALLREDUCE == f) bad += r[i] != size * (i + it) + size * (size - 1) / 2;
    }
    for (int i = 0; (ALLGATHER == f || ALLTOALL == f) && i < n * size; ++i)
        bad += r[i] != val(i / n, ALLTOALL == f ? rank : 0, it, i % n);
    return bad;
}

/* Plans family f with effort e and returns the algorithm it ran (the same
 * on every rank, else a failure). */
static int run(int f, int n, int e)
{
    int *s = malloc(sizeof(int) * (size_t) n * size), *r = malloc(sizeof(int) * (size_t) n * size);
    int *keep = malloc(sizeof(int) * (size_t) n * size);
    unsigned long long before[NALGS], after[NALGS];
    MPI_Info info = MPI_INFO_NULL;
    int alg, lo, hi;

    if (NULL != efforts[e]) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "ompix_persist_effort", efforts[e]);
    }
    fill(f, s, r, n, 7);
    memcpy(keep, r, sizeof(int) * (size_t) n * size);
    MPI_Request req = init_family(f, s, r, n, info);
    CHECK(0 == memcmp(keep, r, sizeof(int) * (size_t) n * size));   /* init left them alone */
    read_all(before);
    for (int it = 0; it < STARTS; ++it) {
        fill(f, s, r, n, it);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        int bad = check(f, r, n, it);
        if (bad) printf("rank %d: %s n=%d effort %s: %d wrong\n", rank, family_names[f], n,
                        efforts[e] ? efforts[e] : "none", bad);
        CHECK(0 == bad);
    }
    read_all(after);
    MPI_Request_free(&req);
    alg = moved(before, after);
    MPI_Allreduce(&alg, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&alg, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (alg < 0 || lo != hi)
        printf("rank %d: %s n=%d effort %s: algorithm %d (ranks: %d..%d)\n", rank,
               family_names[f], n, efforts[e] ? efforts[e] : "none", alg, lo, hi);
    CHECK(alg >= 0 && lo == hi);
    if (MPI_INFO_NULL != info) MPI_Info_free(&info);
    free(s); free(r); free(keep);
    return alg;
}

static void count_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    user_op_calls++;
    for (int i = 0; i < *len; ++i) ((int *) inout)[i] += ((int *) in)[i];
}

/* tune with a user-defined operation plans as normal: no call at init. */
static void user_op_not_called(void)
{
    MPI_Op op;
    MPI_Info info;
    MPI_Request req;
    int in = rank + 1, out = 0;

    MPI_Op_create(count_op, 1, &op);
    MPI_Info_create(&info);
    MPI_Info_set(info, "ompix_persist_effort", "tune");
    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, op, MPI_COMM_WORLD, info, &req);
    CHECK(0 == user_op_calls);
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(size * (size + 1) / 2 == out);
    MPI_Request_free(&req);
    MPI_Info_free(&info);
    MPI_Op_free(&op);
}

int main(int argc, char **argv)
{
    int provided, index;
    char name[96];

    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    ompix_test_init(&argc, &argv);
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_create(&session));
    for (int a = 0; a < NALGS; ++a) {
        int count;
        snprintf(name, sizeof(name), "coll_persist_starts_%s", alg_names[a]);
        CHECK(MPI_SUCCESS == MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index));
        MPI_Comm world = MPI_COMM_WORLD;          /* the counters are bound to a communicator */
        CHECK(MPI_SUCCESS == MPI_T_pvar_handle_alloc(session, index, &world, &handles[a], &count));
    }
    for (int f = 0; f < NFAMILIES; ++f) {
        for (int n = 2; n <= 16384; n *= 8192) {          /* 8 B and 64 KiB per rank */
            int none = -1;
            for (int e = 0; e < NEFFORTS; ++e) {
                int alg = run(f, n, e);
                if (0 == e) none = alg;
                if (1 == e) CHECK(NULL == strstr(alg_names[alg < 0 ? 0 : alg], "_shm"));
                if (2 == e || 4 == e || 5 == e) CHECK(alg == none);   /* normal, unknown */
            }
            if (BARRIER == f) break;
        }
    }
    user_op_not_called();
    for (int a = 0; a < NALGS; ++a) MPI_T_pvar_handle_free(session, &handles[a]);
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    return ompix_test_finish("persist_effort");
}
