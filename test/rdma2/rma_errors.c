/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1 timeout=120 mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Erroneous RMA calls return the class the MPI standard prescribes, through
 * the window's error handler (a counting handler set with
 * MPI_Win_set_errhandler, which must see exactly one call with that class
 * per failing call), and leave the window usable: each case closes its
 * epoch normally and valid operations around the bad one take effect.
 *  - target rank out of range (size, -5) for every operation and for
 *    MPI_Win_lock: MPI_ERR_RANK;
 *  - access outside the target window (one element past the end of a
 *    created window, a range straddling the end, a dynamic-window address
 *    that is not attached): MPI_ERR_RMA_RANGE;
 *  - operations outside an epoch (no epoch at all, after
 *    fence(NOSUCCEED), to a target that is not locked, to a rank outside
 *    the start group), request-based operations in a fence epoch, and
 *    synchronization calls without their matching epoch (unlock without
 *    lock, unlock of another target, unlock_all without lock_all, flush,
 *    flush_all, flush_local, flush_local_all outside passive epochs,
 *    complete without start, wait without post, lock twice):
 *    MPI_ERR_RMA_SYNC;
 *  - operations not defined on a datatype (MPI_BAND on MPI_DOUBLE,
 *    MPI_MAXLOC on MPI_INT, MPI_SUM on MPI_C_BOOL, a user-defined operation
 *    in Accumulate, MPI_NO_OP in Accumulate): MPI_ERR_OP; datatypes not
 *    allowed (Compare_and_swap on MPI_DOUBLE, Accumulate with a struct of
 *    mixed basic types): MPI_ERR_TYPE.
 */
#include "rdma2_common.h"
#include <stdbool.h>

#define N 8

static MPI_Errhandler eh;

static elem_t init_val(int r, int i) { return (elem_t) r * 1000 + i + 1; }

static void user_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) in; (void) inout; (void) len; (void) dt;
}

static void open_win(MPI_Win *win, elem_t *buf)
{
    /* the window is the first N elements of a 2N buffer, so an undetected
     * access just past its end stays inside memory the test owns */
    for (int i = 0; i < 2 * N; ++i) {
        buf[i] = init_val(rank, i);
    }
    MPI_Win_create(buf, N * sizeof(elem_t), sizeof(elem_t), MPI_INFO_NULL, MPI_COMM_WORLD, win);
    MPI_Win_set_errhandler(*win, eh);
}


static void bad_rank(MPI_Win win)
{
    elem_t o[N] = {0}, r[N], c = 0;
    MPI_Request rq;
    int bad[2] = {size, -5};
    set_case("target rank out of range");
    for (int k = 0; k < 2; ++k) {
        int t = bad[k];
        CHECK_ERR(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win), MPI_ERR_RANK);
        OK(MPI_Win_lock_all(0, win));
        CHECK_ERR(MPI_Put(o, 1, ELEM, t, 0, 1, ELEM, win), MPI_ERR_RANK);
        CHECK_ERR(MPI_Get(r, 1, ELEM, t, 0, 1, ELEM, win), MPI_ERR_RANK);
        CHECK_ERR(MPI_Accumulate(o, 1, ELEM, t, 0, 1, ELEM, MPI_SUM, win), MPI_ERR_RANK);
        CHECK_ERR(MPI_Get_accumulate(o, 1, ELEM, r, 1, ELEM, t, 0, 1, ELEM, MPI_SUM, win), MPI_ERR_RANK);
        CHECK_ERR(MPI_Fetch_and_op(o, r, ELEM, t, 0, MPI_SUM, win), MPI_ERR_RANK);
        CHECK_ERR(MPI_Compare_and_swap(o, &c, r, ELEM, t, 0, win), MPI_ERR_RANK);
        CHECK_ERR(MPI_Rput(o, 1, ELEM, t, 0, 1, ELEM, win, &rq), MPI_ERR_RANK);
        CHECK_ERR(MPI_Rget(r, 1, ELEM, t, 0, 1, ELEM, win, &rq), MPI_ERR_RANK);
        CHECK_ERR(MPI_Raccumulate(o, 1, ELEM, t, 0, 1, ELEM, MPI_SUM, win, &rq), MPI_ERR_RANK);
        CHECK_ERR(MPI_Rget_accumulate(o, 1, ELEM, r, 1, ELEM, t, 0, 1, ELEM, MPI_SUM, win, &rq),
                  MPI_ERR_RANK);
        OK(MPI_Win_unlock_all(win));
    }
    /* last: stock osc rdma and osc ucx crash here */
    OK(MPI_Win_lock_all(0, win));
    CHECK_ERR(MPI_Win_flush(size, win), MPI_ERR_RANK);
    CHECK_ERR(MPI_Win_flush_local(-5, win), MPI_ERR_RANK);
    OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void bad_range(MPI_Win win, elem_t *buf)
{
    elem_t o[N] = {-1, -2, -3, -4, -5, -6, -7, -8}, r[N], c = 0;
    int t = right;
    set_case("access outside the target window");
    OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    OK(MPI_Put(o, 1, ELEM, t, N - 1, 1, ELEM, win));                       /* valid: last */
    CHECK_ERR(MPI_Put(o, 1, ELEM, t, N, 1, ELEM, win), MPI_ERR_RMA_RANGE);  /* one past */
    CHECK_ERR(MPI_Put(o, 4, ELEM, t, N - 2, 4, ELEM, win), MPI_ERR_RMA_RANGE); /* straddles */
    CHECK_ERR(MPI_Get(r, 1, ELEM, t, N, 1, ELEM, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Accumulate(o, 1, ELEM, t, N + 1, 1, ELEM, MPI_SUM, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Get_accumulate(o, 2, ELEM, r, 2, ELEM, t, N - 1, 2, ELEM, MPI_SUM, win),
              MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Fetch_and_op(o, r, ELEM, t, N, MPI_SUM, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Compare_and_swap(o, &c, r, ELEM, t, N, win), MPI_ERR_RMA_RANGE);
    OK(MPI_Win_unlock(t, win));
    MPI_Barrier(MPI_COMM_WORLD);
    check_eq("valid put next to bad ones", N - 1, -1, buf[N - 1]);
    for (int i = N; i < 2 * N; ++i) {
        check_eq("memory past the window end", i, init_val(rank, i), buf[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* dynamic window: an address that is not attached */
    set_case("dynamic window, address not attached");
    {
        MPI_Win dw;
        elem_t *att = calloc(N, sizeof(elem_t)), *not_att = calloc(N, sizeof(elem_t));
        MPI_Aint a[2], *all = malloc(2 * size * sizeof(MPI_Aint));
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dw);
        MPI_Win_set_errhandler(dw, eh);
        OK(MPI_Win_attach(dw, att, N * sizeof(elem_t)));
        MPI_Get_address(att, &a[0]);
        MPI_Get_address(not_att, &a[1]);
        MPI_Allgather(a, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, dw));
        OK(MPI_Put(o, 1, ELEM, t, all[2 * t], 1, ELEM, dw));
        CHECK_ERR(MPI_Put(o, 1, ELEM, t, all[2 * t + 1], 1, ELEM, dw), MPI_ERR_RMA_RANGE);
        CHECK_ERR(MPI_Put(o, 2, ELEM, t, MPI_Aint_add(all[2 * t], (N - 1) * sizeof(elem_t)), 2, ELEM, dw),
                  MPI_ERR_RMA_RANGE);
        CHECK_ERR(MPI_Get(r, 1, ELEM, t, all[2 * t + 1], 1, ELEM, dw), MPI_ERR_RMA_RANGE);
        CHECK_ERR(MPI_Fetch_and_op(o, r, ELEM, t, all[2 * t + 1], MPI_SUM, dw), MPI_ERR_RMA_RANGE);
        OK(MPI_Win_unlock(t, dw));
        MPI_Barrier(MPI_COMM_WORLD);
        check_eq("valid put to the attached region", 0, -1, att[0]);
        check_eq("unattached memory", 0, 0, not_att[0]);
        MPI_Barrier(MPI_COMM_WORLD);
        OK(MPI_Win_detach(dw, att));
        OK(MPI_Win_free(&dw));
        free(att);
        free(not_att);
        free(all);
    }
}

static void bad_sync(MPI_Win win)
{
    elem_t o = 5, r;
    MPI_Request rq;
    MPI_Group world, g;
    int t = right;

    set_case("operations outside an epoch");
    CHECK_ERR(MPI_Put(&o, 1, ELEM, t, 0, 1, ELEM, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Get(&r, 1, ELEM, t, 0, 1, ELEM, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Accumulate(&o, 1, ELEM, t, 0, 1, ELEM, MPI_SUM, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Fetch_and_op(&o, &r, ELEM, t, 0, MPI_SUM, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Rput(&o, 1, ELEM, t, 0, 1, ELEM, win, &rq), MPI_ERR_RMA_SYNC);
    MPI_Barrier(MPI_COMM_WORLD);

    set_case("request-based operation in a fence epoch");
    OK(MPI_Win_fence(0, win));
    CHECK_ERR(MPI_Rput(&o, 1, ELEM, t, 0, 1, ELEM, win, &rq), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Rget(&r, 1, ELEM, t, 0, 1, ELEM, win, &rq), MPI_ERR_RMA_SYNC);
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    set_case("operation after fence(NOSUCCEED)");
    CHECK_ERR(MPI_Put(&o, 1, ELEM, t, 0, 1, ELEM, win), MPI_ERR_RMA_SYNC);
    MPI_Barrier(MPI_COMM_WORLD);

    if (size > 2) {
        set_case("operation to a rank outside the start group");
        int other = (rank + 2) % size;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, 1, &t, &g);
        {
            MPI_Group eg;
            MPI_Group_incl(world, 1, &left, &eg);
            OK(MPI_Win_post(eg, 0, win));
            MPI_Group_free(&eg);
        }
        OK(MPI_Win_start(g, 0, win));
        CHECK_ERR(MPI_Put(&o, 1, ELEM, other, 0, 1, ELEM, win), MPI_ERR_RMA_SYNC);
        OK(MPI_Win_complete(win));
        OK(MPI_Win_wait(win));
        MPI_Group_free(&g);
        MPI_Group_free(&world);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    set_case("operation to a target that is not locked");
    if (size > 2) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        CHECK_ERR(MPI_Put(&o, 1, ELEM, (rank + 2) % size, 0, 1, ELEM, win), MPI_ERR_RMA_SYNC);
        CHECK_ERR(MPI_Win_flush((rank + 2) % size, win), MPI_ERR_RMA_SYNC);
        CHECK_ERR(MPI_Win_unlock((rank + 2) % size, win), MPI_ERR_RMA_SYNC);
        OK(MPI_Win_unlock(t, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    set_case("synchronization without its epoch");
    CHECK_ERR(MPI_Win_unlock(t, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush(t, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush_local(t, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush_local_all(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    MPI_Barrier(MPI_COMM_WORLD);

    set_case("lock twice");
    OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    CHECK_ERR(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win), MPI_ERR_RMA_SYNC);
    OK(MPI_Win_unlock(t, win));
    set_case("lock while lock_all is held");
    OK(MPI_Win_lock_all(0, win));
    CHECK_ERR(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win), MPI_ERR_RMA_SYNC);
    OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);

    /* the window still works */
    set_case("window usable after synchronization errors");
    o = -rank - 1;
    OK(MPI_Win_fence(0, win));
    OK(MPI_Put(&o, 1, ELEM, t, 3, 1, ELEM, win));
    OK(MPI_Win_fence(0, win));
    OK(MPI_Get(&r, 1, ELEM, t, 3, 1, ELEM, win));
    OK(MPI_Win_fence(0, win));
    check_eq("put then get after errors", 3, -rank - 1, r);
}

static void bad_op_type(MPI_Win win)
{
    double d = 1.0, dr;
    int i = 1, ir;
    bool b = true;
    elem_t o = 1;
    float f = 1, fr;
    MPI_Op uop;
    MPI_Datatype st;
    int t = right;
    struct { int a; double b; } s = {1, 2.0};

    set_case("operation not defined on the datatype");
    MPI_Op_create(user_op, 1, &uop);
    {
        int bl[2] = {1, 1};
        MPI_Aint dp[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        MPI_Type_create_struct(2, bl, dp, ty, &st);
        MPI_Type_commit(&st);
    }
    OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    CHECK_ERR(MPI_Accumulate(&d, 1, MPI_DOUBLE, t, 0, 1, MPI_DOUBLE, MPI_BAND, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Accumulate(&i, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_MAXLOC, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Accumulate(&b, 1, MPI_C_BOOL, t, 0, 1, MPI_C_BOOL, MPI_SUM, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Accumulate(&o, 1, ELEM, t, 0, 1, ELEM, uop, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Accumulate(&o, 1, ELEM, t, 0, 1, ELEM, MPI_NO_OP, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Get_accumulate(&d, 1, MPI_DOUBLE, &dr, 1, MPI_DOUBLE, t, 0, 1, MPI_DOUBLE,
                                 MPI_BXOR, win), MPI_ERR_OP);
    set_case("datatype not allowed");
    CHECK_ERR(MPI_Compare_and_swap(&d, &dr, &dr, MPI_DOUBLE, t, 0, win), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Accumulate(&s, 1, st, t, 0, 1, st, MPI_REPLACE, win), MPI_ERR_TYPE);
    set_case("operation not defined on the datatype, Fetch_and_op");
    /* last: stock osc rdma and osc ucx crash here */
    CHECK_ERR(MPI_Fetch_and_op(&f, &fr, MPI_FLOAT, t, 0, MPI_BOR, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Fetch_and_op(&i, &ir, MPI_INT, t, 0, MPI_MINLOC, win), MPI_ERR_OP);
    OK(MPI_Win_unlock(t, win));
    MPI_Op_free(&uop);
    MPI_Type_free(&st);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Win win;
    elem_t buf[2 * N];
    ompix_test_init(&argc, &argv);
    eh = counting_win_errhandler();
    open_win(&win, buf);
    /* optional argument for debugging by hand: one of rank, range, sync, op */
    if (argc < 2 || !strcmp(argv[1], "rank")) {
        bad_rank(win);
    }
    if (argc < 2 || !strcmp(argv[1], "range")) {
        bad_range(win, buf);
    }
    if (argc < 2 || !strcmp(argv[1], "sync")) {
        bad_sync(win);
    }
    if (argc < 2 || !strcmp(argv[1], "op")) {
        bad_op_type(win);
    }
    OK(MPI_Win_free(&win));
    MPI_Errhandler_free(&eh);
    return ompix_test_finish("rdma2/rma_errors");
}
