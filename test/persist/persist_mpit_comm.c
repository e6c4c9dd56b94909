/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1,ucx timeout=60 mca="coll_persist_allreduce_algorithm recursive_doubling coll_persist_bcast_algorithm binomial"
 *
 * coll/persist's MPI_T counters coll_persist_starts_<algorithm> are bound
 * to a communicator (MPI_T_BIND_MPI_COMM) and read per handle: on
 * MPI_COMM_WORLD and on a split of it (the even and the odd ranks), with
 * exact values.  World: an allreduce started 5 times (3 by MPI_Start, 2
 * by MPI_Startall) and a gather 4; the split: an allreduce 3 times and a
 * bcast 2 (the algorithms are forced, so the shared-memory plans are not
 * taken).  Each handle sees only its communicator's starts, none of its
 * other algorithms move, a plan freed keeps its starts counted, starts
 * made before a handle existed are not in it, two handles on one
 * communicator agree, and a handle needs its communicator (MPI_T's
 * binding, no object is refused).
 */
#include "persist_common.h"
#include "ompix_persist_algs.h"
#include <string.h>

static MPI_T_pvar_session session;

static int alg_index(const char *alg)
{
    for (int a = 0; a < NALGS; ++a)
        if (0 == strcmp(alg_names[a], alg)) return a;
    return -1;
}

/* Handles on every algorithm's counter, bound to comm. */
static void bind_all(MPI_Comm *comm, MPI_T_pvar_handle *h)
{
    for (int a = 0; a < NALGS; ++a) {
        char name[96], n[96], desc[512];
        int index, count = 0, nlen = sizeof(n), dlen = sizeof(desc), verb, cls, bind, ro, cont, at;
        MPI_Datatype type;
        MPI_T_enum et;
        h[a] = MPI_T_PVAR_HANDLE_NULL;
        snprintf(name, sizeof(name), "coll_persist_starts_%s", alg_names[a]);
        CHECK(MPI_SUCCESS == MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index));
        CHECK(MPI_SUCCESS == MPI_T_pvar_get_info(index, n, &nlen, &verb, &cls, &type, &et, desc,
                                                 &dlen, &bind, &ro, &cont, &at));
        CHECK(MPI_T_BIND_MPI_COMM == bind && MPI_UNSIGNED_LONG_LONG == type && ro && cont);
        CHECK(MPI_SUCCESS == MPI_T_pvar_handle_alloc(session, index, comm, &h[a], &count));
        CHECK(1 == count);
    }
}

/* Every counter through h: want[a] (0 where not named). */
static void expect(MPI_T_pvar_handle *h, const unsigned long long *want, const char *where)
{
    for (int a = 0; a < NALGS; ++a) {
        unsigned long long v = ~0ULL;
        CHECK(MPI_SUCCESS == MPI_T_pvar_read(session, h[a], &v));
        if (v != want[a]) {
            printf("rank %d: %s: coll_persist_starts_%s = %llu, expected %llu\n", rank, where,
                   alg_names[a], v, want[a]);
            ompix_test_failures++;
        }
    }
}

static void run(MPI_Request *req, int n)
{
    for (int i = 0; i < n; ++i) {
        MPI_Start(req);
        MPI_Wait(req, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    int provided, in = 1, out = 0, *all, half_rank, half_size, x = 7, index, count;
    MPI_Comm half;
    MPI_Request w_ar, w_ga, h_ar, h_bc, pre, two[2];
    MPI_T_pvar_handle hw[NALGS], hw2[NALGS], hh[NALGS], nobj = MPI_T_PVAR_HANDLE_NULL;
    unsigned long long want_w[NALGS] = {0}, want_h[NALGS] = {0};
    int rd = alg_index("allreduce_recursive_doubling"), bin = alg_index("bcast_binomial");

    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    ompix_test_init(&argc, &argv);
    CHECK(rd > 0 && bin > 0);
    all = calloc((size_t) size, sizeof(int));
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_rank(half, &half_rank);
    MPI_Comm_size(half, &half_size);
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_create(&session));

    /* starts before the handles exist are not theirs */
    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &pre);
    run(&pre, 2);
    bind_all(&(MPI_Comm){MPI_COMM_WORLD}, hw);
    bind_all(&half, hh);
    expect(hw, want_w, "world, at creation");
    run(&pre, 1);
    MPI_Request_free(&pre);
    want_w[rd] = 1;
    expect(hw, want_w, "world, one start after creation");

    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &w_ar);
    MPIX_Gather_init(&in, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &w_ga);
    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, half, MPI_INFO_NULL, &h_ar);
    MPIX_Bcast_init(&x, 1, MPI_INT, 0, half, MPI_INFO_NULL, &h_bc);
    run(&w_ar, 3);
    CHECK(size == out);
    two[0] = w_ar; two[1] = h_bc;
    MPI_Startall(2, two);
    MPI_Waitall(2, two, MPI_STATUSES_IGNORE);
    MPI_Start(&w_ar);
    MPI_Wait(&w_ar, MPI_STATUS_IGNORE);
    run(&w_ga, 4);
    run(&h_ar, 3);
    CHECK(half_size == out);
    run(&h_bc, 1);
    CHECK(7 == x);
    want_w[rd] += 5; want_w[0] = 4;
    want_h[rd] = 3; want_h[bin] = 2;
    expect(hw, want_w, "world");
    expect(hh, want_h, "split");

    /* a second set of handles on world starts from 0; freeing keeps counts */
    bind_all(&(MPI_Comm){MPI_COMM_WORLD}, hw2);
    MPI_Request_free(&w_ar); MPI_Request_free(&w_ga);
    MPI_Request_free(&h_ar); MPI_Request_free(&h_bc);
    expect(hw, want_w, "world, plans freed");
    expect(hh, want_h, "split, plans freed");
    unsigned long long zero[NALGS] = {0};
    expect(hw2, zero, "world, second handles");

    /* bound to a communicator: no object is refused */
    MPI_T_pvar_get_index("coll_persist_starts_other", MPI_T_PVAR_CLASS_COUNTER, &index);
    CHECK(MPI_SUCCESS != MPI_T_pvar_handle_alloc(session, index, NULL, &nobj, &count));

    for (int a = 0; a < NALGS; ++a) {
        MPI_T_pvar_handle_free(session, &hw[a]);
        MPI_T_pvar_handle_free(session, &hw2[a]);
        MPI_T_pvar_handle_free(session, &hh[a]);
    }
    (void) half_rank;
    MPI_T_pvar_session_free(&session);
    MPI_Comm_free(&half);
    free(all);
    MPI_T_finalize();
    return ompix_test_finish("persist_mpit_comm");
}
