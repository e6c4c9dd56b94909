/*
 * ompix-test: np=2,3,4 tls=shm,tcp,net pml=ob1 timeout=300 paths="win:ucx acc:am" mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Accumulate, Raccumulate, Get_accumulate and Rget_accumulate with every
 * predefined operation on every predefined datatype it is defined for
 * (rdma2_ops.h: C, fixed-width, Fortran and multi-language integers,
 * floating point, complex, logical, byte, character types (MPI_REPLACE and
 * MPI_NO_OP only), and the value/index pair types
 * with MPI_MAXLOC/MPI_MINLOC, ties included), plus MPI_REPLACE on all of
 * them and MPI_NO_OP for the fetching operations, on an MPI_Win_allocate
 * window whose disp_unit is the type size; ten representative types
 * (rdma2_ops.h: flavor_subset) also on create, dynamic and shared windows.
 *
 * Accumulate: all ranks accumulate 16 elements into every rank (itself
 * included) concurrently under lock_all (odd ranks with Raccumulate); the
 * target then checks init op v0 op v1 ... exactly (every operation here is
 * commutative; MPI_REPLACE goes in turns so the last writer is known).
 * Get_accumulate: ranks take turns (exclusive lock per target, alternating
 * Get_accumulate and Rget_accumulate); each fetched value must be exactly
 * the state after the previous turns, and the final state exact.
 * A final section uses derived datatypes (vector target, indexed result,
 * contiguous origin) with MPI_DOUBLE/MPI_MAX and MPI_INT/MPI_BXOR.
 *
 * Timing: osc pt2pt needs ~20 s at np=4 over tcp, osc rdma ~3 s at np=4 on
 * shared memory; osc ucx over tcp (emulated atomics, ~1 ms per epoch) needs
 * minutes, hence timeout=300.
 *
 * Optional arguments for debugging by hand: a type name (e.g. MPI_DOUBLE,
 * or "all"), or "derived" for the last section only; then a flavor index
 * (rdma2_common.h).
 */
#include "rdma2_ops.h"

#define NE 16

static void init_window(const struct tentry *te, MPI_Win win, void *base, int o)
{
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    fill_values(te, base, NE, o, size, rank);
    OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* exp := target t's initial value combined with origins 0..upto-1. */
static void expected_state(const struct tentry *te, void *exp, int o, int t, int upto)
{
    char *v = malloc(NE * te->sz);
    fill_values(te, exp, NE, o, size, t);
    for (int r = 0; r < upto; ++r) {
        fill_values(te, v, NE, o, r, t);
        for (int i = 0; i < NE; ++i) {
            te->apply(o, (char *) exp + i * te->sz, v + i * te->sz);
        }
    }
    free(v);
}

static void check_window(const struct tentry *te, MPI_Win win, void *base, int o, int upto,
                         const char *what)
{
    char *exp = malloc(NE * te->sz);
    MPI_Barrier(MPI_COMM_WORLD);
    expected_state(te, exp, o, rank, upto);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    compare_values(te, what, exp, base, NE);
    OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    free(exp);
}

static void accumulate(const struct tentry *te, MPI_Win win, void *base, int o)
{
    char *obuf = malloc((size_t) size * NE * te->sz);
    MPI_Request *req = malloc(size * sizeof *req);
    set_case("Accumulate %s on %s, %s window", oper_name[o], te->name, typed_flavor);
    init_window(te, win, base, o);
    for (int t = 0; t < size; ++t) {
        fill_values(te, obuf + t * NE * te->sz, NE, o, rank, t);
        req[t] = MPI_REQUEST_NULL;
    }
    if (O_REPLACE == o) {
        for (int k = 0; k < size; ++k) {
            if (rank == k) {
                OK(MPI_Win_lock_all(0, win));
                for (int t = 0; t < size; ++t) {
                    OK(MPI_Accumulate(obuf + t * NE * te->sz, NE, te->dt, t, typed_disp(t, 0), NE,
                                      te->dt, oper(o), win));
                }
                OK(MPI_Win_unlock_all(win));
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        /* the last turn's values */
        char *exp = malloc(NE * te->sz);
        fill_values(te, exp, NE, o, size - 1, rank);
        OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
        compare_values(te, "target element after MPI_REPLACE turns", exp, base, NE);
        OK(MPI_Win_unlock(rank, win));
        MPI_Barrier(MPI_COMM_WORLD);
        free(exp);
    } else {
        OK(MPI_Win_lock_all(0, win));
        for (int t = 0; t < size; ++t) {
            int d = (t + rank) % size;    /* not everyone at the same target first */
            if (rank % 2) {
                OK(MPI_Raccumulate(obuf + d * NE * te->sz, NE, te->dt, d, typed_disp(d, 0), NE,
                                   te->dt, oper(o), win, &req[d]));
            } else {
                OK(MPI_Accumulate(obuf + d * NE * te->sz, NE, te->dt, d, typed_disp(d, 0), NE,
                                  te->dt, oper(o), win));
            }
        }
        OK(MPI_Waitall(size, req, MPI_STATUSES_IGNORE));
        OK(MPI_Win_unlock_all(win));
        check_window(te, win, base, o, size, "target element after concurrent accumulates");
    }
    free(obuf);
    free(req);
}

static void get_accumulate(const struct tentry *te, MPI_Win win, void *base, int o)
{
    char *obuf = malloc(NE * te->sz), *res = malloc(NE * te->sz), *exp = malloc(NE * te->sz);
    char what[96];
    set_case("Get_accumulate %s on %s, %s window", oper_name[o], te->name, typed_flavor);
    init_window(te, win, base, o);
    for (int k = 0; k < size; ++k) {
        if (rank == k) {
            for (int t = 0; t < size; ++t) {
                MPI_Request req;
                fill_values(te, obuf, NE, o, rank, t);
                memset(res, 0x5a, NE * te->sz);
                OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
                if ((t + k) % 2) {
                    OK(MPI_Rget_accumulate(obuf, NE, te->dt, res, NE, te->dt, t, typed_disp(t, 0), NE,
                                           te->dt, oper(o), win, &req));
                    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                } else {
                    OK(MPI_Get_accumulate(obuf, NE, te->dt, res, NE, te->dt, t, typed_disp(t, 0), NE,
                                          te->dt, oper(o), win));
                }
                OK(MPI_Win_unlock(t, win));
                expected_state(te, exp, o, t, O_NO_OP == o ? 0 : k);
                if (O_REPLACE == o && k > 0) {
                    fill_values(te, exp, NE, o, k - 1, t);
                }
                snprintf(what, sizeof what, "%s result from target %d in turn %d",
                         (t + k) % 2 ? "Rget_accumulate" : "Get_accumulate", t, k);
                compare_values(te, what, exp, res, NE);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (O_REPLACE == o) {
        fill_values(te, exp, NE, o, size - 1, rank);
        OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
        compare_values(te, "target element after Get_accumulate turns", exp, base, NE);
        OK(MPI_Win_unlock(rank, win));
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        check_window(te, win, base, o, O_NO_OP == o ? 0 : size,
                     "target element after Get_accumulate turns");
    }
    free(obuf);
    free(res);
    free(exp);
}

/* Derived datatypes: origin contiguous 8, target vector(8,1,2) over 16,
 * result indexed (pairs in reverse order) over 16; every rank to its right
 * neighbour, which no other origin accesses. */
static void derived(void)
{
    double dw[16], dres[16], dorig[8];
    int iw[16], ires[16], iorig[8];
    int bl[4] = {2, 2, 2, 2}, dp[4] = {12, 8, 4, 0};
    MPI_Datatype vd, vi, xd, xi;
    MPI_Win wd, wi;
    int t = right, src = left;

    set_case("Get_accumulate/Accumulate with vector target and indexed result");
    MPI_Type_vector(8, 1, 2, MPI_DOUBLE, &vd);
    MPI_Type_vector(8, 1, 2, MPI_INT, &vi);
    MPI_Type_indexed(4, bl, dp, MPI_DOUBLE, &xd);
    MPI_Type_indexed(4, bl, dp, MPI_INT, &xi);
    MPI_Type_commit(&vd);
    MPI_Type_commit(&vi);
    MPI_Type_commit(&xd);
    MPI_Type_commit(&xi);
    for (int i = 0; i < 16; ++i) {
        dw[i] = (i * 5 + rank) % 9 - 4;
        iw[i] = (i * 29 + rank * 7) & 0x3f;
        dres[i] = -100;
        ires[i] = -100;
    }
    for (int i = 0; i < 8; ++i) {
        dorig[i] = (i * 3 + rank) % 7 - 3;
        iorig[i] = (i * 13 + rank) & 0x3f;
    }
    MPI_Win_create(dw, sizeof dw, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &wd);
    MPI_Win_create(iw, sizeof iw, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &wi);
    MPI_Win_lock(MPI_LOCK_SHARED, t, 0, wd);
    MPI_Win_lock(MPI_LOCK_SHARED, t, 0, wi);
    OK(MPI_Get_accumulate(dorig, 8, MPI_DOUBLE, dres, 1, xd, t, 0, 1, vd, MPI_MAX, wd));
    OK(MPI_Get_accumulate(iorig, 8, MPI_INT, ires, 1, xi, t, 0, 1, vi, MPI_BXOR, wi));
    OK(MPI_Win_unlock(t, wi));
    OK(MPI_Win_unlock(t, wd));
    /* a second, plain accumulate through the vector type on top */
    MPI_Win_lock(MPI_LOCK_SHARED, t, 0, wd);
    OK(MPI_Accumulate(dorig, 8, MPI_DOUBLE, t, 1, 1, vd, MPI_SUM, wd));
    OK(MPI_Win_unlock(t, wd));
    /* result: element k of the target type lands at the k-th indexed slot */
    int slot[8] = {12, 13, 8, 9, 4, 5, 0, 1};
    for (int i = 0; i < 16; ++i) {
        double de = -100;
        int ie = -100;
        for (int k = 0; k < 8; ++k) {
            if (slot[k] == i) {
                de = (2 * k * 5 + t) % 9 - 4;
                ie = (2 * k * 29 + t * 7) & 0x3f;
            }
        }
        check_eq("double result element", i, (long long) de, (long long) dres[i]);
        check_eq("int result element", i, ie, ires[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, wd);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, wi);
    for (int i = 0; i < 16; ++i) {
        double de = (i * 5 + rank) % 9 - 4, o = (i / 2 * 3 + src) % 7 - 3;
        int ie = (i * 29 + rank * 7) & 0x3f;
        if (0 == i % 2) {
            de = de > o ? de : o;
            ie ^= (i / 2 * 13 + src) & 0x3f;
        } else {
            de += o;
        }
        check_eq("double target element (x100)", i, (long long) (de * 100), (long long) (dw[i] * 100));
        check_eq("int target element", i, ie, iw[i]);
    }
    MPI_Win_unlock(rank, wi);
    MPI_Win_unlock(rank, wd);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&wd);
    MPI_Win_free(&wi);
    MPI_Type_free(&vd);
    MPI_Type_free(&vi);
    MPI_Type_free(&xd);
    MPI_Type_free(&xi);
}

static void every_op(const struct tentry *te, MPI_Win win, void *base)
{
    for (int o = 0; o < NOPERS; ++o) {
        if (!(te->ops & B(o))) {
            continue;
        }
        if (O_NO_OP != o) {
            accumulate(te, win, base, o);
        }
        get_accumulate(te, win, base, o);
    }
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    for_each_typed_window(argc, argv, NE, every_op);
    if (argc <= 1 || !strcmp(argv[1], "derived")) {
        derived();
    }
    return ompix_test_finish("rdma2/rma_accumulate");
}
