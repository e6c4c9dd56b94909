/*
 * ompix-test: np=2,3,4 tls=shm,tcp,net pml=ob1 timeout=300 paths="win:ucx" mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Fetch_and_op with every predefined operation (MPI_NO_OP as an atomic
 * read, MPI_REPLACE as an atomic swap) on every predefined datatype it is
 * defined for (rdma2_ops.h), and Compare_and_swap on every type the
 * standard allows for it (C, Fortran and multi-language integers, logical,
 * byte), succeeding (compare equals the current value) and failing
 * (compare differs: target unchanged, old value returned).  Ranks take
 * turns on every target, alternating exclusive lock/unlock and
 * lock_all/flush/unlock_all epochs; every fetched value must be exactly
 * the state left by the previous turns, and the final target state exact.
 * One element per call (count 1), 8 elements per target.  MPI_Win_allocate
 * windows for all types; ten representative types (rdma2_ops.h:
 * flavor_subset) also on create, dynamic and shared windows.
 *
 * Timing: osc pt2pt needs ~20 s at np=4 over tcp, osc rdma ~3 s at np=4 on
 * shared memory; osc ucx over tcp (emulated atomics, ~1 ms per epoch) needs
 * minutes, hence timeout=300.
 *
 * Optional arguments for debugging by hand: a type name (e.g. MPI_SHORT, or
 * "all"), then a flavor index (rdma2_common.h).
 */
#include "rdma2_ops.h"

#define NA 8

static void open_epoch(MPI_Win win, int t, int k)
{
    if (k % 2) {
        OK(MPI_Win_lock_all(0, win));
    } else {
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
    }
}

static void close_epoch(MPI_Win win, int t, int k)
{
    if (k % 2) {
        OK(MPI_Win_flush(t, win));
        OK(MPI_Win_unlock_all(win));
    } else {
        OK(MPI_Win_unlock(t, win));
    }
}

static void init_window(const struct tentry *te, MPI_Win win, void *base, int o)
{
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    fill_values(te, base, NA, o, size, rank);
    OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void fetch_and_op(const struct tentry *te, MPI_Win win, void *base, int o)
{
    char *state = malloc((size_t) size * NA * te->sz);   /* expected state of every target */
    char *obuf = malloc(NA * te->sz), *res = malloc(NA * te->sz);
    char what[96];

    set_case("Fetch_and_op %s on %s, %s window", oper_name[o], te->name, typed_flavor);
    init_window(te, win, base, o);
    for (int t = 0; t < size; ++t) {
        fill_values(te, state + t * NA * te->sz, NA, o, size, t);
    }
    for (int k = 0; k < size; ++k) {
        for (int t = 0; t < size; ++t) {
            char *st = state + t * NA * te->sz;
            fill_values(te, obuf, NA, o, k, t);
            if (rank == k) {
                memset(res, 0x5a, NA * te->sz);
                open_epoch(win, t, k);
                for (int i = 0; i < NA; ++i) {
                    OK(MPI_Fetch_and_op(obuf + i * te->sz, res + i * te->sz, te->dt, t,
                                        typed_disp(t, i), oper(o), win));
                }
                close_epoch(win, t, k);
                snprintf(what, sizeof what, "result from target %d in turn %d", t, k);
                compare_values(te, what, st, res, NA);
            }
            for (int i = 0; i < NA; ++i) {
                te->apply(o, st + i * te->sz, obuf + i * te->sz);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    compare_values(te, "target element after all turns", state + rank * NA * te->sz, base, NA);
    OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    free(state);
    free(obuf);
    free(res);
}

/* Values for compare-and-swap: distinct per turn, alternating 0/1 for
 * logical types. */
static void cas_value(const struct tentry *te, void *p, int r, int t, int i)
{
    long long v, w;
    test_value(te, O_REPLACE, r, t, i, &v, &w);
    if (!(te->ops & BITS)) {
        v = (r + i) % 2;
    }
    te->set(p, v, w);
}

static void compare_and_swap(const struct tentry *te, MPI_Win win, void *base)
{
    char *state = malloc((size_t) size * NA * te->sz);
    char *obuf = malloc(NA * te->sz), *cbuf = malloc(NA * te->sz), *res = malloc(NA * te->sz);
    char what[96];

    set_case("Compare_and_swap on %s, %s window", te->name, typed_flavor);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    memset(base, 0, NA * te->sz);
    for (int i = 0; i < NA; ++i) {
        cas_value(te, (char *) base + i * te->sz, size, rank, i);
    }
    OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    memset(state, 0, (size_t) size * NA * te->sz);
    for (int t = 0; t < size; ++t) {
        for (int i = 0; i < NA; ++i) {
            cas_value(te, state + (t * NA + i) * te->sz, size, t, i);
        }
    }
    for (int k = 0; k < size; ++k) {
        for (int t = 0; t < size; ++t) {
            char *st = state + t * NA * te->sz;
            memset(obuf, 0, NA * te->sz);
            memset(cbuf, 0, NA * te->sz);
            for (int i = 0; i < NA; ++i) {
                long double cur, dummy;
                cas_value(te, obuf + i * te->sz, k, t, i);
                te->get(st + i * te->sz, &cur, &dummy);
                if ((i + k) % 2) {
                    te->set(cbuf + i * te->sz, 0 == cur ? 1 : 0, 0);   /* fails */
                } else {
                    memcpy(cbuf + i * te->sz, st + i * te->sz, te->sz);  /* succeeds */
                }
            }
            if (rank == k) {
                memset(res, 0x5a, NA * te->sz);
                open_epoch(win, t, k);
                for (int i = 0; i < NA; ++i) {
                    OK(MPI_Compare_and_swap(obuf + i * te->sz, cbuf + i * te->sz,
                                            res + i * te->sz, te->dt, t, typed_disp(t, i), win));
                }
                close_epoch(win, t, k);
                snprintf(what, sizeof what, "result from target %d in turn %d", t, k);
                compare_values(te, what, st, res, NA);
            }
            for (int i = 0; i < NA; ++i) {
                if (0 == (i + k) % 2) {
                    memcpy(st + i * te->sz, obuf + i * te->sz, te->sz);
                }
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    compare_values(te, "target element after all turns", state + rank * NA * te->sz, base, NA);
    OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    free(state);
    free(obuf);
    free(cbuf);
    free(res);
}

static void every_op(const struct tentry *te, MPI_Win win, void *base)
{
    for (int o = 0; o < NOPERS; ++o) {
        if (te->ops & B(o)) {
            fetch_and_op(te, win, base, o);
        }
    }
    if ((te->ops & BITS) || LOGICAL_T == te->ops) {
        compare_and_swap(te, win, base);
    }
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    for_each_typed_window(argc, argv, NA, every_op);
    return ompix_test_finish("rdma2/rma_atomics");
}
