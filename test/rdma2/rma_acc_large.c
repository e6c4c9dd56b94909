/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1 timeout=300 mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Large accumulates (osc_rdma2_pass.h): on allocated windows, whose small
 * accumulates are element atomics, an accumulate of at least
 * osc_rdma2_acc_pass_bytes runs as one locked pass; created and dynamic
 * windows take the lock path at every size.
 *
 * Exact results: MPI_CHAR, MPI_INT, MPI_FLOAT and MPI_DOUBLE, 8 B to
 * 1 MiB, on allocate, create and dynamic windows.  Each rank works on its
 * right neighbour: Get_accumulate MPI_SUM (old values returned), Accumulate
 * MPI_MAX, Get_accumulate MPI_NO_OP into a strided result type,
 * Get_accumulate MPI_REPLACE, Accumulate MPI_SUM through a strided target
 * type; every fetched element and the final window are checked exactly
 * (small integers: exact in every type).  (Open MPI defines MPI_SUM and
 * MPI_MAX on MPI_CHAR, as OSU's osu_acc_latency uses them.)
 *
 * Atomicity: every rank adds 1s to the same target concurrently under
 * lock_all for 0.3 s, mixing 64 KiB Accumulates over the whole range
 * (every other one through a target type of blocks, reduced out of
 * place), Get_accumulates over half of it, small Accumulates of 1 to 7
 * elements and Fetch_and_op at pseudo-random places (half of the latter
 * on 64 hot elements), in MPI_INT and MPI_DOUBLE (native atomics and
 * compare-and-swap loops); the target then holds exactly the sum of what
 * every rank counted it added, and fetched values are counts (0 and up).
 * A large accumulate that was not atomic with respect to the element
 * atomics (or one another) would lose updates.
 *
 * rma_acc_large_elem.c runs the same with passes off (element atomics at
 * every size), rma_acc_large_pass.c with passes from two elements on.
 */
#include "rdma2_common.h"

#ifndef ACC_LARGE_MAX
#define ACC_LARGE_MAX (1 << 20)     /* largest accumulate, bytes */
#endif
#define CONC_N 16384                /* elements of the concurrent phase */
#define CONC_SECONDS 0.3          /* each rank's mix runs this long (at least twice): long
                                     * enough to overlap the others' on a loaded machine */

enum { T_CHAR, T_INT, T_FLOAT, T_DOUBLE, NTYPES };
static const char *const type_name[NTYPES] = {"MPI_CHAR", "MPI_INT", "MPI_FLOAT", "MPI_DOUBLE"};
static const size_t type_size[NTYPES] = {1, sizeof(int), sizeof(float), sizeof(double)};

static MPI_Datatype type_of(int t)
{
    return t == T_CHAR ? MPI_CHAR : t == T_INT ? MPI_INT : t == T_FLOAT ? MPI_FLOAT : MPI_DOUBLE;
}

static double get_v(const void *buf, int t, size_t i)
{
    switch (t) {
    case T_CHAR: return ((const char *) buf)[i];
    case T_INT: return ((const int *) buf)[i];
    case T_FLOAT: return ((const float *) buf)[i];
    default: return ((const double *) buf)[i];
    }
}

static void set_v(void *buf, int t, size_t i, double v)
{
    switch (t) {
    case T_CHAR: ((char *) buf)[i] = (char) v; break;
    case T_INT: ((int *) buf)[i] = (int) v; break;
    case T_FLOAT: ((float *) buf)[i] = (float) v; break;
    default: ((double *) buf)[i] = v; break;
    }
}

/* A window of `bytes` per rank, disp_unit 1, of one flavor. */
struct bwin {
    MPI_Win win;
    int flavor;
    char *base;
    void *own;
    MPI_Aint *addr;                 /* dynamic: every rank's region */
};

static void bwin_open(struct bwin *w, int flavor, size_t bytes)
{
    MPI_Aint mine;

    memset(w, 0, sizeof *w);
    w->flavor = flavor;
    if (FL_ALLOCATE == flavor) {
        OK(MPI_Win_allocate((MPI_Aint) bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w->base,
                            &w->win));
    } else {
        w->base = w->own = malloc(bytes);
        if (FL_CREATE == flavor) {
            OK(MPI_Win_create(w->base, (MPI_Aint) bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                              &w->win));
        } else {
            OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->win));
            OK(MPI_Win_attach(w->win, w->base, (MPI_Aint) bytes));
            MPI_Get_address(w->base, &mine);
            w->addr = malloc(size * sizeof(MPI_Aint));
            MPI_Allgather(&mine, 1, MPI_AINT, w->addr, 1, MPI_AINT, MPI_COMM_WORLD);
        }
    }
    MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
}

static void bwin_close(struct bwin *w)
{
    if (FL_DYNAMIC == w->flavor) OK(MPI_Win_detach(w->win, w->base));
    OK(MPI_Win_free(&w->win));
    free(w->own);
    free(w->addr);
}

static MPI_Aint bwin_disp(const struct bwin *w, int target)
{
    return FL_DYNAMIC == w->flavor ? w->addr[target] : 0;
}

/* This rank's own part, written and read under an exclusive self lock. */
static void bwin_fill(struct bwin *w, int t, size_t n, int who)
{
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    for (size_t i = 0; i < n; ++i) set_v(w->base, t, i, (double) ((i * 7 + who) % 13));
    OK(MPI_Win_unlock(rank, w->win));
}

/* The values the exact phase works with (small: exact in every type). */
static double v_sum(size_t i, int o) { return (double) ((i * 3 + o) % 5); }
static double v_max(size_t i, int o) { return (double) ((i * 5 + o) % 17); }
static double v_rep(size_t i, int o) { return (double) ((i + 2 * o) % 11); }

static void check_buf(const char *what, const void *buf, int t, size_t n, size_t stride,
                      double (*expect)(size_t, int, int), int a, int b)
{
    for (size_t i = 0; i < n; ++i) {
        if (!check_eq(what, (long) i, (long long) expect(i, a, b),
                      (long long) get_v(buf, t, i * stride))) {
            return;
        }
    }
}

static double e_init(size_t i, int tgt, int o) { (void) o; return (double) ((i * 7 + tgt) % 13); }
static double e_after_sum_max(size_t i, int tgt, int o)
{
    double s = e_init(i, tgt, o) + v_sum(i, o), m = v_max(i, o);
    return s > m ? s : m;
}
static double e_final(size_t i, int tgt, int o)
{
    return v_rep(i, o) + (0 == i % 2 ? 1.0 : 0.0) + 0 * tgt;
}

/* Steps 1-4 of the exact phase toward `tgt`, from origin values `ob`;
 * `res` holds 2n elements (the strided result). */
static void exact_ops(struct bwin *w, int t, size_t n, int tgt, char *ob, char *res)
{
    MPI_Datatype dt = type_of(t), strided;
    MPI_Aint d = bwin_disp(w, tgt);
    int cnt = (int) n;

    for (size_t i = 0; i < n; ++i) set_v(ob, t, i, v_sum(i, rank));
    OK(MPI_Get_accumulate(ob, cnt, dt, res, cnt, dt, tgt, d, cnt, dt, MPI_SUM, w->win));
    OK(MPI_Win_flush(tgt, w->win));
    check_buf("get_acc SUM result", res, t, n, 1, e_init, tgt, rank);
    for (size_t i = 0; i < n; ++i) set_v(ob, t, i, v_max(i, rank));
    OK(MPI_Accumulate(ob, cnt, dt, tgt, d, cnt, dt, MPI_MAX, w->win));
    MPI_Type_vector(cnt, 1, 2, dt, &strided);
    MPI_Type_commit(&strided);
    OK(MPI_Get_accumulate(NULL, 0, dt, res, 1, strided, tgt, d, cnt, dt, MPI_NO_OP, w->win));
    OK(MPI_Win_flush(tgt, w->win));
    MPI_Type_free(&strided);
    check_buf("get_acc NO_OP strided result", res, t, n, 2, e_after_sum_max, tgt, rank);
    for (size_t i = 0; i < n; ++i) set_v(ob, t, i, v_rep(i, rank));
    OK(MPI_Get_accumulate(ob, cnt, dt, res, cnt, dt, tgt, d, cnt, dt, MPI_REPLACE, w->win));
    OK(MPI_Win_flush(tgt, w->win));
    check_buf("get_acc REPLACE result", res, t, n, 1, e_after_sum_max, tgt, rank);
}

/* Step 5: MPI_SUM of 1 into every other element through a strided target type. */
static void exact_strided_sum(struct bwin *w, int t, size_t n, int tgt, char *ob)
{
    MPI_Datatype dt = type_of(t), strided;
    int half = (int) ((n + 1) / 2);

    for (int i = 0; i < half; ++i) set_v(ob, t, (size_t) i, 1.0);
    MPI_Type_vector(half, 1, 2, dt, &strided);
    MPI_Type_commit(&strided);
    OK(MPI_Accumulate(ob, half, dt, tgt, bwin_disp(w, tgt), 1, strided, MPI_SUM, w->win));
    MPI_Type_free(&strided);
}

static void exact(int flavor, int t, size_t bytes, struct bwin *w, char *ob, char *res)
{
    size_t n = bytes / type_size[t];

    set_case("exact %s %s %zu B", flavor_name[flavor], type_name[t], bytes);
    bwin_fill(w, t, n, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w->win));
    exact_ops(w, t, n, right, ob, res);
    exact_strided_sum(w, t, n, right, ob);
    OK(MPI_Win_unlock(right, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    check_buf("final window", w->base, t, n, 1, e_final, rank, left);
    OK(MPI_Win_unlock(rank, w->win));
}

static void exact_all(int flavor)
{
    struct bwin w;
    char *ob = malloc(ACC_LARGE_MAX), *res = malloc(2 * (size_t) ACC_LARGE_MAX);

    bwin_open(&w, flavor, ACC_LARGE_MAX);
    for (int t = 0; t < NTYPES; ++t) {
        for (size_t bytes = 8; bytes <= ACC_LARGE_MAX; bytes *= (bytes < 1024 ? 128 : 64)) {
            exact(flavor, t, bytes, &w, ob, res);
        }
    }
    bwin_close(&w);
    free(ob);
    free(res);
}

/* ---- atomicity: concurrent adds of 1 ---------------------------------- */

static unsigned next_rand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

/* The large accumulate of an iteration: the whole range contiguous
 * (reduced in place) or, every other time, blocks of 4 out of every 8
 * (gathered, reduced and scattered: the pass holds the old values for
 * its whole length, so an element update it let in would be lost). */
static void big_acc(struct bwin *w, int t, int tgt, char *ones, int *added, int it)
{
    MPI_Datatype dt = type_of(t), blocks;
    MPI_Aint d = bwin_disp(w, tgt);

    if (0 == it % 2) {
        OK(MPI_Accumulate(ones, CONC_N, dt, tgt, d, CONC_N, dt, MPI_SUM, w->win));
        for (int i = 0; i < CONC_N; ++i) added[i]++;
        return;
    }
    MPI_Type_vector(CONC_N / 8, 4, 8, dt, &blocks);
    MPI_Type_commit(&blocks);
    OK(MPI_Accumulate(ones, CONC_N / 2, dt, tgt, d, 1, blocks, MPI_SUM, w->win));
    MPI_Type_free(&blocks);
    for (int i = 0; i < CONC_N; ++i) added[i] += 0 == (i / 4) % 2;
}

/* One iteration of this rank's mix toward tgt; counts what it added. */
static void conc_iter(struct bwin *w, int t, int tgt, char *ones, char *res, int *added,
                      unsigned *seed, int it)
{
    MPI_Datatype dt = type_of(t);
    MPI_Aint d = bwin_disp(w, tgt), es = (MPI_Aint) type_size[t];
    int k, len, at;


    big_acc(w, t, tgt, ones, added, it);
    for (k = 0; k < 32; ++k) {
        /* half of them on a few hot elements, which every pass covers */
        at = (int) (next_rand(seed) % (k % 2 ? CONC_N : 64));
        OK(MPI_Fetch_and_op(ones, res, dt, tgt, d + at * es, MPI_SUM, w->win));
        added[at]++;
        len = 1 + (int) (next_rand(seed) % 7);
        at = (int) (next_rand(seed) % (CONC_N - len));
        OK(MPI_Accumulate(ones, len, dt, tgt, d + at * es, len, dt, MPI_SUM, w->win));
        for (int i = 0; i < len; ++i) added[at + i]++;
    }
    OK(MPI_Get_accumulate(ones, CONC_N / 2, dt, res, CONC_N / 2, dt, tgt, d + CONC_N / 4 * es,
                          CONC_N / 2, dt, MPI_SUM, w->win));
    OK(MPI_Win_flush(tgt, w->win));
    for (int i = 0; i < CONC_N / 2; ++i) {
        added[CONC_N / 4 + i]++;
        if (get_v(res, t, (size_t) i) < 0 || get_v(res, t, (size_t) i) > 1e6) {
            fail("get_accumulate fetched %g at %d", get_v(res, t, (size_t) i), CONC_N / 4 + i);
            break;
        }
    }
}

static void concurrent(int flavor, int t, int tgt, struct bwin *w, char *ones, char *res)
{
    int *added = calloc(CONC_N, sizeof(int)), *total = calloc(CONC_N, sizeof(int));
    unsigned seed = 77u + 1000u * (unsigned) rank;
    double end;

    set_case("concurrent %s %s target %d", flavor_name[flavor], type_name[t], tgt);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    for (int i = 0; i < CONC_N; ++i) set_v(w->base, t, (size_t) i, 0.0);
    OK(MPI_Win_unlock(rank, w->win));
    for (int i = 0; i < CONC_N; ++i) set_v(ones, t, (size_t) i, 1.0);
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock_all(0, w->win));
    end = MPI_Wtime() + CONC_SECONDS;
    for (int it = 0; it < 2 || MPI_Wtime() < end; ++it) {
        conc_iter(w, t, tgt, ones, res, added, &seed, it);
    }
    OK(MPI_Win_unlock_all(w->win));
    MPI_Reduce(added, total, CONC_N, MPI_INT, MPI_SUM, tgt, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == tgt) {
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
        for (int i = 0; i < CONC_N; ++i) {
            if (!check_eq("total", i, total[i], (long long) get_v(w->base, t, (size_t) i))) break;
        }
        OK(MPI_Win_unlock(rank, w->win));
    }
    free(added);
    free(total);
}

static void concurrent_all(int flavor)
{
    static const int types[] = {T_INT, T_DOUBLE};
    struct bwin w;
    char *ones = malloc(CONC_N * sizeof(double)), *res = malloc(CONC_N * sizeof(double));

    bwin_open(&w, flavor, CONC_N * sizeof(double));
    for (int k = 0; k < 2; ++k) {
        concurrent(flavor, types[k], 0, &w, ones, res);
        concurrent(flavor, types[k], size - 1, &w, ones, res);
    }
    bwin_close(&w);
    free(ones);
    free(res);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    for (int fl = FL_CREATE; fl <= FL_DYNAMIC; ++fl) {
        exact_all(fl);
        concurrent_all(fl);
    }
    return ompix_test_finish("rdma2/rma_acc_large");
}
