/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1 timeout=120 mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Window flavors and their corners:
 *  - attributes of every flavor: MPI_WIN_BASE, MPI_WIN_SIZE (different on
 *    every rank), MPI_WIN_DISP_UNIT (different on every rank, and honoured
 *    by Put/Get: the target's unit scales the displacement),
 *    MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL == MPI_WIN_UNIFIED;
 *  - info keys no_locks, accumulate_ordering, accumulate_ops, same_size,
 *    same_disp_unit: given at creation they are reported by Win_get_info
 *    with the given values, and the window works under them; a window
 *    created without info reports no key or the standard default;
 *    Win_set_info of accumulate_ordering: if reported, the new value;
 *  - dynamic windows: several regions per rank; while every rank reads,
 *    writes and does atomics on regions 0 and 2 of its neighbours, the
 *    owner detaches and re-attaches region 1 (at new addresses) 50 times
 *    without any communication; then everyone accesses the last region 1;
 *    attach/detach of adjacent pieces of one buffer;
 *  - zero-size windows: MPI_Win_create with NULL base and size 0,
 *    Win_allocate / Win_allocate_shared of 0 bytes on odd ranks, dynamic
 *    with nothing attached; other ranks stay accessible; all ranks of
 *    size 0; zero-count operations on a zero-size target;
 *  - MPI_PROC_NULL as target of every operation (no effect, requests
 *    complete, result buffers untouched); self as target, with the origin
 *    buffer inside the window;
 *  - zero counts for every operation (contiguous and derived types);
 *  - a window created over the middle of an allocated window's memory
 *    addresses that memory (Put, Get, then the allocation checked);
 *  - shared windows: Win_shared_query of every rank (size, disp unit,
 *    pointer, contiguity by default, MPI_PROC_NULL query), direct stores
 *    into a neighbour's segment seen by RMA and vice versa.
 */
#include "rdma2_engine.h"

static MPI_Aint nbytes_of(int r) { return (MPI_Aint) (r + 1) * 8 * 8; }   /* per-rank size */
static int unit_of(int r) { return r % 2 ? 4 : 8; }

static void attributes(int flavor)
{
    MPI_Win win;
    void *base = NULL, *mem = NULL, *abase;
    MPI_Aint *asize;
    int *aunit, *aflavor, *amodel, flag;
    MPI_Aint bytes = nbytes_of(rank);
    int unit = unit_of(rank);
    static const int fl[NFLAVORS] = {MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE,
                                     MPI_WIN_FLAVOR_DYNAMIC, MPI_WIN_FLAVOR_SHARED};

    set_case("attributes of %s window", flavor_name[flavor]);
    switch (flavor) {
    case FL_CREATE:
        mem = base = calloc(1, bytes);
        OK(MPI_Win_create(base, bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        break;
    case FL_ALLOCATE:
        OK(MPI_Win_allocate(bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
        break;
    case FL_SHARED:
        OK(MPI_Win_allocate_shared(bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
        break;
    case FL_DYNAMIC:
        OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        break;
    }
    OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &abase, &flag));
    CHECK(flag);
    if (flag && FL_DYNAMIC == flavor) {
        CHECK(MPI_BOTTOM == abase);
    } else if (flag) {
        CHECK(abase == base);
    }
    OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &asize, &flag));
    CHECK(flag);
    if (flag) {
        check_eq("MPI_WIN_SIZE", 0, FL_DYNAMIC == flavor ? 0 : bytes, *asize);
    }
    OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &aunit, &flag));
    CHECK(flag);
    if (flag) {
        check_eq("MPI_WIN_DISP_UNIT", 0, FL_DYNAMIC == flavor ? 1 : unit, *aunit);
    }
    OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &aflavor, &flag));
    CHECK(flag);
    if (flag) {
        check_eq("MPI_WIN_CREATE_FLAVOR", 0, fl[flavor], *aflavor);
    }
    OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &amodel, &flag));
    CHECK(flag);
    if (flag) {
        check_eq("MPI_WIN_MODEL", 0, MPI_WIN_UNIFIED, *amodel);
    }

    if (FL_DYNAMIC != flavor) {
        /* Put 3 ints at displacement 2 of the right neighbour: byte offset
         * 2 * its disp unit; then get them back with the left's unit. */
        int v[3] = {rank * 10 + 1, rank * 10 + 2, rank * 10 + 3}, back[3] = {0, 0, 0};
        OK(MPI_Win_fence(0, win));
        OK(MPI_Put(v, 3, MPI_INT, right, 2, 3, MPI_INT, win));
        OK(MPI_Win_fence(0, win));
        {
            int *p = (int *) ((char *) base + 2 * unit);
            for (int i = 0; i < 3; ++i) {
                check_eq("int put with target disp unit", i, left * 10 + 1 + i, p[i]);
            }
        }
        OK(MPI_Get(back, 3, MPI_INT, left, 2, 3, MPI_INT, win));
        OK(MPI_Win_fence(0, win));
        for (int i = 0; i < 3; ++i) {
            check_eq("int got with target disp unit", i, (left + size - 1) % size * 10 + 1 + i, back[i]);
        }
    }
    OK(MPI_Win_free(&win));
    free(mem);
}

static void info_keys(void)
{
    static const char *const key[5] = {"no_locks", "accumulate_ordering", "accumulate_ops",
                                       "same_size", "same_disp_unit"};
    static const char *const val[5] = {"true", "none", "same_op", "true", "true"};
    static const char *const dflt[5] = {"false", "rar,raw,war,waw", "same_op_no_op", "false", "false"};
    MPI_Info in, out;
    MPI_Win win;
    long long *base, one = 1, got[4];
    char v[MPI_MAX_INFO_VAL + 1];
    int flag;

    set_case("info keys of a window created without info");
    OK(MPI_Win_allocate(4 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD,
                        &base, &win));
    OK(MPI_Win_get_info(win, &out));
    for (int k = 0; k < 5; ++k) {
        MPI_Info_get(out, key[k], MPI_MAX_INFO_VAL, v, &flag);
        if (flag && strcmp(v, dflt[k])) {
            fail("Win_get_info reports %s=%s, the default is %s", key[k], v, dflt[k]);
        }
    }
    MPI_Info_free(&out);
    OK(MPI_Win_free(&win));

    set_case("info keys given at creation");
    MPI_Info_create(&in);
    for (int k = 0; k < 5; ++k) {
        MPI_Info_set(in, key[k], val[k]);
    }
    OK(MPI_Win_allocate(4 * sizeof(long long), sizeof(long long), in, MPI_COMM_WORLD, &base, &win));
    OK(MPI_Win_get_info(win, &out));
    for (int k = 0; k < 5; ++k) {
        MPI_Info_get(out, key[k], MPI_MAX_INFO_VAL, v, &flag);
        if (!flag) {
            fail("Win_get_info does not report %s", key[k]);
        } else if (strcmp(v, val[k])) {
            fail("Win_get_info reports %s=%s, expected %s", key[k], v, val[k]);
        }
    }
    MPI_Info_free(&out);
    /* no locks: fence epochs; same_op: only SUM (and NO_OP) on the counter */
    for (int i = 0; i < 4; ++i) {
        base[i] = 0;
    }
    OK(MPI_Win_fence(0, win));
    for (int t = 0; t < size; ++t) {
        OK(MPI_Accumulate(&one, 1, MPI_LONG_LONG, t, 0, 1, MPI_LONG_LONG, MPI_SUM, win));
        OK(MPI_Fetch_and_op(&one, &got[0], MPI_LONG_LONG, t, 1, MPI_SUM, win));
    }
    OK(MPI_Win_fence(0, win));
    check_eq("sum of accumulates under no_locks/same_op", 0, size, base[0]);
    check_eq("sum of fetch_and_ops under no_locks/same_op", 1, size, base[1]);
    OK(MPI_Fetch_and_op(NULL, &got[2], MPI_LONG_LONG, right, 1, MPI_NO_OP, win));
    OK(MPI_Win_fence(0, win));
    check_eq("MPI_NO_OP read under same_op", 1, size, got[2]);

    set_case("Win_set_info accumulate_ordering");
    MPI_Info_set(in, "accumulate_ordering", "rar,raw");
    OK(MPI_Win_set_info(win, in));
    OK(MPI_Win_get_info(win, &out));
    MPI_Info_get(out, "accumulate_ordering", MPI_MAX_INFO_VAL, v, &flag);
    if (flag && strcmp(v, "rar,raw")) {
        fail("after Win_set_info, accumulate_ordering=%s, expected rar,raw", v);
    }
    MPI_Info_get(out, "no_locks", MPI_MAX_INFO_VAL, v, &flag);
    if (flag && strcmp(v, "true")) {
        fail("after Win_set_info, no_locks=%s, expected true", v);
    }
    MPI_Info_free(&out);
    MPI_Info_free(&in);
    OK(MPI_Win_free(&win));
}

/* Dynamic windows: regions 0 and 2 stay; region 1 comes and goes. */
#define RN 64
static void dynamic_churn(void)
{
    MPI_Win win;
    elem_t *r0 = malloc(RN * sizeof(elem_t)), *r2 = malloc(RN * sizeof(elem_t)), *r1 = NULL;
    MPI_Aint a[3], *all = malloc(3 * size * sizeof(MPI_Aint));
    elem_t one = 1, got, v;
    int t = right;

    set_case("dynamic window attach/detach under traffic");
    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < RN; ++i) {
        r0[i] = init_val(rank, i);
        r2[i] = 0;
    }
    OK(MPI_Win_attach(win, r0, RN * sizeof(elem_t)));
    OK(MPI_Win_attach(win, r2, RN * sizeof(elem_t)));
    MPI_Get_address(r0, &a[0]);
    MPI_Get_address(r2, &a[2]);
    a[1] = 0;
    MPI_Allgather(a, 3, MPI_AINT, all, 3, MPI_AINT, MPI_COMM_WORLD);
    OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < 200; ++i) {
        if (i % 4 == 0 && i / 4 < 50) {
            if (r1) {
                OK(MPI_Win_detach(win, r1));
                free(r1);
            }
            r1 = malloc((RN + i) * sizeof(elem_t));
            OK(MPI_Win_attach(win, r1, (RN + i) * sizeof(elem_t)));
        }
        /* read region 0, put into and add to region 2 of the neighbour */
        OK(MPI_Get(&v, 1, ELEM, t, MPI_Aint_add(all[3 * t], (i % RN) * sizeof(elem_t)), 1, ELEM, win));
        OK(MPI_Fetch_and_op(&one, &got, ELEM, t, MPI_Aint_add(all[3 * t + 2], 0), MPI_SUM, win));
        OK(MPI_Win_flush(t, win));
        check_eq("region 0 read during churn", i, init_val(t, i % RN), v);
        check_eq("region 2 counter during churn", i, i, got);
    }
    OK(MPI_Win_unlock_all(win));
    for (int i = 0; i < RN; ++i) {
        r1[i] = init2_val(rank, i);
    }
    MPI_Get_address(r1, &a[1]);
    MPI_Allgather(a, 3, MPI_AINT, all, 3, MPI_AINT, MPI_COMM_WORLD);
    OK(MPI_Win_lock_all(0, win));
    {
        elem_t buf[RN];
        OK(MPI_Get(buf, RN, ELEM, t, all[3 * t + 1], RN, ELEM, win));
        OK(MPI_Win_flush(t, win));
        for (int i = 0; i < RN; ++i) {
            check_eq("last attached region 1", i, init2_val(t, i), buf[i]);
        }
    }
    OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    check_eq("own region 2 counter", 0, 200, r2[0]);
    OK(MPI_Win_detach(win, r1));
    OK(MPI_Win_detach(win, r0));

    /* adjacent pieces of one buffer attached separately */
    set_case("dynamic window, adjacent regions");
    {
        elem_t *buf = malloc(2 * RN * sizeof(elem_t)), in[RN];
        MPI_Aint ab, *allb = malloc(size * sizeof(MPI_Aint));
        for (int i = 0; i < 2 * RN; ++i) {
            buf[i] = -1;
        }
        OK(MPI_Win_attach(win, buf, RN * sizeof(elem_t)));
        OK(MPI_Win_attach(win, buf + RN, RN * sizeof(elem_t)));
        MPI_Get_address(buf, &ab);
        MPI_Allgather(&ab, 1, MPI_AINT, allb, 1, MPI_AINT, MPI_COMM_WORLD);
        for (int i = 0; i < RN; ++i) {
            in[i] = init_val(rank, i);
        }
        OK(MPI_Win_lock_all(0, win));
        OK(MPI_Put(in, RN / 2, ELEM, t, MPI_Aint_add(allb[t], (RN / 2) * sizeof(elem_t)), RN / 2,
                   ELEM, win));
        OK(MPI_Put(in + RN / 2, RN / 2, ELEM, t, MPI_Aint_add(allb[t], RN * sizeof(elem_t)), RN / 2,
                   ELEM, win));
        OK(MPI_Win_unlock_all(win));
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < 2 * RN; ++i) {
            elem_t e = i >= RN / 2 && i < RN + RN / 2 ? init_val(left, i - RN / 2) : -1;
            check_eq("adjacent regions after puts", i, e, buf[i]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        OK(MPI_Win_detach(win, buf));
        OK(MPI_Win_detach(win, buf + RN));
        free(buf);
        free(allb);
    }
    OK(MPI_Win_detach(win, r2));
    OK(MPI_Win_free(&win));
    free(r0);
    free(r1);
    free(r2);
    free(all);
}

/* Odd ranks expose nothing; even ranks expose 8 elements. */
static void zero_size(int flavor)
{
    struct rwin w;
    MPI_Aint n = rank % 2 ? 0 : 8;
    elem_t v[8], z = 5, r = -3;
    set_case("zero-size parts, %s window", flavor_name[flavor]);
    if (FL_CREATE == flavor && 0 == n) {
        memset(&w, 0, sizeof w);
        w.flavor = FL_CREATE;
        OK(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w.win));
        MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN);
    } else {
        rwin_open(&w, flavor, n, MPI_COMM_WORLD);
    }
    for (int i = 0; i < n; ++i) {
        w.base[i] = 0;
    }
    {
        MPI_Aint *asize;
        int flag;
        OK(MPI_Win_get_attr(w.win, MPI_WIN_SIZE, &asize, &flag));
        if (flag && FL_DYNAMIC != flavor) {
            check_eq("MPI_WIN_SIZE", 0, n * (MPI_Aint) sizeof(elem_t), *asize);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock_all(0, w.win));
    for (int t = 0; t < size; t += 2) {      /* the non-empty parts */
        for (int i = 0; i < 8; ++i) {
            v[i] = 1;
        }
        OK(MPI_Accumulate(v, 8, ELEM, t, rwin_disp(&w, t, 0), 8, ELEM, MPI_SUM, w.win));
    }
    for (int t = 1; t < size; t += 2) {      /* zero-count operations on empty parts */
        if (FL_DYNAMIC == flavor) {
            continue;                         /* nothing attached: no valid address */
        }
        OK(MPI_Put(v, 0, ELEM, t, 0, 0, ELEM, w.win));
        OK(MPI_Get(v, 0, ELEM, t, 0, 0, ELEM, w.win));
        OK(MPI_Accumulate(v, 0, ELEM, t, 0, 0, ELEM, MPI_SUM, w.win));
    }
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < n; ++i) {
        check_eq("non-empty part after accumulates", i, size, w.base[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (FL_SHARED == flavor) {
        MPI_Aint qs;
        int qu;
        elem_t *qp;
        for (int t = 0; t < size; ++t) {
            OK(MPI_Win_shared_query(w.win, t, &qs, &qu, &qp));
            check_eq("shared_query size", t, t % 2 ? 0 : 8 * (MPI_Aint) sizeof(elem_t), qs);
        }
        OK(MPI_Win_shared_query(w.win, MPI_PROC_NULL, &qs, &qu, &qp));
        check_eq("shared_query(MPI_PROC_NULL) size: rank 0's", 0, 8 * (MPI_Aint) sizeof(elem_t), qs);
    }
    rwin_close(&w);

    /* everyone zero */
    set_case("all parts zero-size, %s window", flavor_name[flavor]);
    if (FL_CREATE == flavor) {
        OK(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w.win));
        MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN);
        w.flavor = FL_CREATE;
        w.nelem = 0;
        w.own = NULL;
        w.addr = NULL;
    } else {
        rwin_open(&w, flavor, 0, MPI_COMM_WORLD);
    }
    OK(MPI_Win_fence(0, w.win));
    if (FL_DYNAMIC != flavor) {
        OK(MPI_Put(&z, 0, ELEM, right, 0, 0, ELEM, w.win));
        OK(MPI_Get(&r, 0, ELEM, right, 0, 0, ELEM, w.win));
    }
    OK(MPI_Win_fence(0, w.win));
    check_eq("zero-count Get left its buffer alone", 0, -3, r);
    rwin_close(&w);
}

/* Every operation with MPI_PROC_NULL as target, then with zero counts. */
static void proc_null_and_zero(int flavor)
{
    struct rwin w;
    elem_t o[4] = {1, 2, 3, 4}, res[4] = {-9, -9, -9, -9}, c = 0;
    MPI_Request rq[4];
    struct layout vec;
    int t = right;

    layout_make(&vec, LY_VECTOR);
    set_case("MPI_PROC_NULL target, %s window", flavor_name[flavor]);
    rwin_open(&w, flavor, 8, MPI_COMM_WORLD);
    for (int i = 0; i < 8; ++i) {
        w.base[i] = init_val(rank, i);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_fence(0, w.win));
    OK(MPI_Put(o, 4, ELEM, MPI_PROC_NULL, 0, 4, ELEM, w.win));
    OK(MPI_Get(res, 4, ELEM, MPI_PROC_NULL, 0, 4, ELEM, w.win));
    OK(MPI_Accumulate(o, 4, ELEM, MPI_PROC_NULL, 0, 4, ELEM, MPI_SUM, w.win));
    OK(MPI_Get_accumulate(o, 4, ELEM, res, 4, ELEM, MPI_PROC_NULL, 0, 4, ELEM, MPI_SUM, w.win));
    OK(MPI_Fetch_and_op(o, res, ELEM, MPI_PROC_NULL, 0, MPI_SUM, w.win));
    OK(MPI_Compare_and_swap(o, &c, res, ELEM, MPI_PROC_NULL, 0, w.win));
    OK(MPI_Win_fence(0, w.win));
    OK(MPI_Win_lock_all(0, w.win));
    OK(MPI_Rput(o, 4, ELEM, MPI_PROC_NULL, 0, 4, ELEM, w.win, &rq[0]));
    OK(MPI_Rget(res, 4, ELEM, MPI_PROC_NULL, 0, 4, ELEM, w.win, &rq[1]));
    OK(MPI_Raccumulate(o, 4, ELEM, MPI_PROC_NULL, 0, 4, ELEM, MPI_SUM, w.win, &rq[2]));
    OK(MPI_Rget_accumulate(o, 4, ELEM, res, 4, ELEM, MPI_PROC_NULL, 0, 4, ELEM, MPI_SUM, w.win, &rq[3]));
    OK(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
    OK(MPI_Win_flush_all(w.win));

    set_case("zero counts, %s window", flavor_name[flavor]);
    OK(MPI_Put(o, 0, ELEM, t, rwin_disp(&w, t, 0), 0, ELEM, w.win));
    OK(MPI_Put(o, 0, vec.type, t, rwin_disp(&w, t, 0), 0, vec.type, w.win));
    OK(MPI_Get(res, 0, ELEM, t, rwin_disp(&w, t, 0), 0, ELEM, w.win));
    OK(MPI_Accumulate(o, 0, ELEM, t, rwin_disp(&w, t, 0), 0, ELEM, MPI_SUM, w.win));
    OK(MPI_Accumulate(o, 0, vec.type, t, rwin_disp(&w, t, 0), 0, vec.type, MPI_SUM, w.win));
    OK(MPI_Get_accumulate(o, 0, ELEM, res, 0, ELEM, t, rwin_disp(&w, t, 0), 0, ELEM, MPI_SUM, w.win));
    OK(MPI_Rput(o, 0, ELEM, t, rwin_disp(&w, t, 0), 0, ELEM, w.win, &rq[0]));
    OK(MPI_Rget(res, 0, ELEM, t, rwin_disp(&w, t, 0), 0, ELEM, w.win, &rq[1]));
    OK(MPI_Raccumulate(o, 0, ELEM, t, rwin_disp(&w, t, 0), 0, ELEM, MPI_SUM, w.win, &rq[2]));
    OK(MPI_Rget_accumulate(o, 0, ELEM, res, 0, ELEM, t, rwin_disp(&w, t, 0), 0, ELEM, MPI_SUM,
                           w.win, &rq[3]));
    OK(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
    OK(MPI_Win_unlock_all(w.win));
    for (int i = 0; i < 4; ++i) {
        check_eq("result buffer untouched", i, -9, res[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w.win));
    for (int i = 0; i < 8; ++i) {
        check_eq("window untouched", i, init_val(rank, i), w.base[i]);
    }
    OK(MPI_Win_unlock(rank, w.win));
    MPI_Barrier(MPI_COMM_WORLD);

    /* self as target, the origin buffer inside the window */
    set_case("self target with origin inside the window, %s window", flavor_name[flavor]);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win));
    OK(MPI_Put(&w.base[0], 4, ELEM, rank, rwin_disp(&w, rank, 4), 4, ELEM, w.win));
    OK(MPI_Win_unlock(rank, w.win));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win));
    OK(MPI_Accumulate(&w.base[4], 2, ELEM, rank, rwin_disp(&w, rank, 0), 2, ELEM, MPI_SUM, w.win));
    OK(MPI_Win_unlock(rank, w.win));
    for (int i = 0; i < 8; ++i) {
        elem_t e = i < 4 ? init_val(rank, i) : init_val(rank, i - 4);
        if (i < 2) {
            e *= 2;
        }
        check_eq("self put/accumulate", i, e, w.base[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
    layout_free(&vec);
}

static void shared_segments(void)
{
    MPI_Win win;
    elem_t *base, *p;
    MPI_Aint sz, bytes = (MPI_Aint) (rank + 1) * 4 * sizeof(elem_t);
    int unit;
    set_case("shared window segments");
    OK(MPI_Win_allocate_shared(bytes, sizeof(elem_t), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    for (int t = 0; t < size; ++t) {
        OK(MPI_Win_shared_query(win, t, &sz, &unit, &p));
        check_eq("shared_query size", t, (MPI_Aint) (t + 1) * 4 * sizeof(elem_t), sz);
        check_eq("shared_query disp unit", t, sizeof(elem_t), unit);
        if (t == rank && p != base) {
            fail("shared_query(self) pointer %p, base %p", (void *) p, (void *) base);
        }
        if (t > 0) {
            /* contiguous by default: t's segment follows t-1's */
            elem_t *q;
            MPI_Aint qs;
            int qu;
            MPI_Win_shared_query(win, t - 1, &qs, &qu, &q);
            if ((char *) q + qs != (char *) p) {
                fail("segment of rank %d at %p does not follow rank %d's (%p + %ld)", t,
                     (void *) p, t - 1, (void *) q, (long) qs);
            }
        }
    }
    OK(MPI_Win_lock_all(0, win));
    /* store directly into the right neighbour's segment */
    OK(MPI_Win_shared_query(win, right, &sz, &unit, &p));
    for (int i = 0; i < 4; ++i) {
        p[i] = init_val(rank, i);
    }
    OK(MPI_Win_sync(win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_sync(win));
    {
        elem_t g[4];
        for (int i = 0; i < 4; ++i) {
            check_eq("load of a store by the left neighbour", i, init_val(left, i), base[i]);
        }
        /* and RMA sees it too */
        OK(MPI_Get(g, 4, ELEM, right, 0, 4, ELEM, win));
        OK(MPI_Win_flush(right, win));
        for (int i = 0; i < 4; ++i) {
            check_eq("Get of a direct store", i, init_val(rank, i), g[i]);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_unlock_all(win));
    OK(MPI_Win_free(&win));
}

/* A window created over the middle of an allocated window's memory (so
 * over memory UCX allocated and registered already): Put and Get through
 * it address that middle, not the allocation. */
static void created_inside_allocated(void)
{
    int *mem, *mid, got = -1, right = (rank + 1) % size, left = (rank - 1 + size) % size;
    MPI_Win a, c;
    set_case("window created over the middle of an allocated window");
    OK(MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &a));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, a));
    for (int i = 0; i < 64; ++i) mem[i] = -1;
    OK(MPI_Win_unlock(rank, a));
    mid = mem + 16;
    OK(MPI_Win_create(mid, 16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &c));
    int v = 100 + rank;
    OK(MPI_Win_fence(0, c));
    OK(MPI_Put(&v, 1, MPI_INT, right, 3, 1, MPI_INT, c));
    OK(MPI_Win_fence(0, c));
    OK(MPI_Get(&got, 1, MPI_INT, right, 3, 1, MPI_INT, c));
    OK(MPI_Win_fence(0, c));
    check_eq("value got back through the created window", 3, 100 + rank, got);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, a));
    for (int i = 0; i < 64; ++i) {
        check_eq("allocated window element", i, 16 + 3 == i ? 100 + left : -1, mem[i]);
    }
    OK(MPI_Win_unlock(rank, a));
    OK(MPI_Win_free(&c));
    OK(MPI_Win_free(&a));
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    created_inside_allocated();
    for (int fl = 0; fl < NFLAVORS; ++fl) {
        attributes(fl);
    }
    info_keys();
    dynamic_churn();
    for (int fl = 0; fl < NFLAVORS; ++fl) {
        zero_size(fl);
        proc_null_and_zero(fl);
    }
    shared_segments();
    return ompix_test_finish("rdma2/rma_flavors");
}
