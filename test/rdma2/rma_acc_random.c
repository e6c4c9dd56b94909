/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1 timeout=240 mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * The accumulate family with random nested derived datatypes, checked
 * exactly against a reference that applies the type maps itself.
 *
 * Every case draws (from the seed and its index) a window flavor (create,
 * allocate, dynamic, in turn), a synchronization (lock, lock_all with
 * flush / flush_all / flush_local, fence), a base type (int, double,
 * long long, short), a pattern (ring: rank r works on r+1; all-to-one:
 * every rank works on rank 0) and one commutative op for the "shared"
 * part of the target.  Every origin then draws 1-3 operations
 * (Accumulate, Get_accumulate, Fetch_and_op, Raccumulate,
 * Rget_accumulate; SUM, MAX, MIN, BXOR, BAND, BOR, REPLACE, NO_OP) of
 * 1 to 256 Ki elements with origin, target and result datatypes built at
 * random from contiguous, vector, hvector, indexed, hindexed, struct and
 * resized constructors, several levels deep, with negative strides and
 * displacements, type-map order differing from address order, and (for
 * integer types, in the origin's own part of the target) misaligned
 * elements.  Operations with a commutative op go, in the all-to-one
 * pattern, concurrently to one shared part of rank 0's window; every
 * other operation to a part of the target owned by its origin, often at
 * the place of the previous one, so the ordering of accumulates from one
 * origin to one location is checked too (requests are waited for only at
 * the end).
 *
 * Cases 0-8 are fixed: the shapes of issue 16 (an origin of a resized
 * contiguous of a vector of an hvector, 65 530 MPI_INTs, into MPI_INT;
 * that type as target with a negative-stride vector as result; it on all
 * three sides with REPLACE) on every flavor under lock, fence and
 * lock_all+flush.
 *
 * The reference: the origin computes the byte offsets of its elements
 * from the type maps (child extents as MPI reports them) and sends them
 * with the origin values to the target, which applies every operation to
 * an image of its window; the origin applies its own operations to an
 * image of its part and checks every fetched element and the untouched
 * rest of its result buffers; the target compares its whole window.
 *
 * Arguments: [seed [first_case [ncases [v]]]] (v: print every operation); a failure prints the seed and
 * case to replay ("rma_acc_random SEED CASE 1").  Fewer and smaller cases
 * over TCP and under valgrind, so each run takes seconds.
 */
#include "rdma2_common.h"
#include <inttypes.h>

/* ---------------------------------------------------------------------- */
/* random numbers                                                          */

static uint64_t rng;

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t rnd64(void) { return mix64(rng++ * 0x2545f4914f6cdd1dULL); }
static int rnd(int n) { return (int) (rnd64() % (uint64_t) n); }
static void rng_seed(uint64_t a, uint64_t b, uint64_t c) { rng = mix64(a ^ mix64(b ^ mix64(c))); }
static uint64_t hash4(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    return mix64(a ^ mix64(b ^ mix64(c ^ mix64(d))));
}

/* ---------------------------------------------------------------------- */
/* base types, values, operations                                          */

enum { BT_INT, BT_DOUBLE, BT_LL, BT_SHORT, NBT };
static const char *const bt_name[NBT] = {"int", "double", "long long", "short"};
static const int bt_size[NBT] = {4, 8, 8, 2};
static MPI_Datatype bt_mpi(int bt)
{
    return BT_INT == bt ? MPI_INT : BT_DOUBLE == bt ? MPI_DOUBLE : BT_LL == bt ? MPI_LONG_LONG
                                                                                : MPI_SHORT;
}

enum { OP_SUM, OP_MAX, OP_MIN, OP_BXOR, OP_BAND, OP_BOR, OP_REPLACE, OP_NO_OP, NOPS };
static const char *const op_name[NOPS] = {"SUM", "MAX", "MIN", "BXOR", "BAND", "BOR",
                                          "REPLACE", "NO_OP"};
static MPI_Op op_mpi(int op)
{
    MPI_Op t[NOPS] = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_BXOR, MPI_BAND, MPI_BOR, MPI_REPLACE, MPI_NO_OP};
    return t[op];
}
static int op_valid(int op, int bt) { return BT_DOUBLE != bt || op <= OP_MIN || op >= OP_REPLACE; }

/* A value of type bt from a hash: small integers (halves for double), so
 * sums from every origin stay exact in any order. */
static void make_val(int bt, uint64_t h, void *out)
{
    long long v = (long long) (h % 2001) - 1000;
    switch (bt) {
    case BT_INT: { int x = (int) v; memcpy(out, &x, 4); break; }
    case BT_DOUBLE: { double x = 0.5 * (double) v; memcpy(out, &x, 8); break; }
    case BT_LL: { long long x = v * 1000000007LL; memcpy(out, &x, 8); break; }
    default: { short x = (short) (v / 10); memcpy(out, &x, 2); break; }
    }
}

/* Integers wrap (misaligned elements read arbitrary bit patterns). */
#define APPLY_INT(T, U)                                                       \
    do {                                                                      \
        T a, b;                                                               \
        memcpy(&a, dst, sizeof a);                                            \
        memcpy(&b, src, sizeof b);                                            \
        switch (op) {                                                         \
        case OP_SUM: a = (T) ((U) a + (U) b); break;                          \
        case OP_MAX: a = a > b ? a : b; break;                                \
        case OP_MIN: a = a < b ? a : b; break;                                \
        case OP_BXOR: a = a ^ b; break;                                       \
        case OP_BAND: a = a & b; break;                                       \
        case OP_BOR: a = a | b; break;                                        \
        case OP_REPLACE: a = b; break;                                        \
        }                                                                     \
        memcpy(dst, &a, sizeof a);                                            \
    } while (0)

static void apply(int bt, int op, char *dst, const char *src)
{
    if (OP_NO_OP == op) return;
    switch (bt) {
    case BT_INT: APPLY_INT(int, unsigned); break;
    case BT_LL: APPLY_INT(long long, unsigned long long); break;
    case BT_SHORT: APPLY_INT(short, unsigned short); break;
    default: {
        double a, b;
        memcpy(&a, dst, 8);
        memcpy(&b, src, 8);
        a = OP_SUM == op ? a + b : OP_MAX == op ? (a > b ? a : b)
          : OP_MIN == op ? (a < b ? a : b) : b;
        memcpy(dst, &a, 8);
    }
    }
}

static void fmt_val(int bt, const char *p, char *out, size_t n)
{
    switch (bt) {
    case BT_INT: { int x; memcpy(&x, p, 4); snprintf(out, n, "%d", x); break; }
    case BT_DOUBLE: { double x; memcpy(&x, p, 8); snprintf(out, n, "%g", x); break; }
    case BT_LL: { long long x; memcpy(&x, p, 8); snprintf(out, n, "%lld", x); break; }
    default: { short x; memcpy(&x, p, 2); snprintf(out, n, "%d", x); break; }
    }
}

/* ---------------------------------------------------------------------- */
/* random datatypes and their maps                                         */

static int g_bt, g_esize, g_misalign;

/* One datatype with the byte offsets of its elements in type-map order. */
struct built {
    MPI_Datatype dt;
    int64_t *map;
    int nel;
    MPI_Aint lb, ext;
    char desc[200];
};

static void built_free(struct built *b)
{
    if (b->dt != bt_mpi(g_bt)) MPI_Type_free(&b->dt);
    free(b->map);
    b->map = NULL;
}

static void finish(struct built *b)
{
    MPI_Type_get_extent(b->dt, &b->lb, &b->ext);
}

static int divisor(int d, int max)
{
    int c[64], n = 0;
    for (int i = 1; i <= d && i <= max && n < 64; ++i) {
        if (0 == d % i) c[n++] = i;
    }
    return c[rnd(n)];
}

static int sign(void) { return rnd(3) ? 1 : -1; }

/* Byte padding for h-constructors: multiples of the element size, or,
 * when misalignment is allowed, half of it. */
static MPI_Aint pad_bytes(void)
{
    if (g_misalign && g_esize > 1 && 0 == rnd(4)) return g_esize / 2;
    return (MPI_Aint) g_esize * rnd(3);
}

static void gen(struct built *b, int d, int depth);

static void leaf(struct built *b, int d)
{
    MPI_Datatype base = bt_mpi(g_bt);
    int k = d > 1 ? rnd(3) : 0, s = sign() * (1 + rnd(2));

    b->nel = d;
    b->map = malloc(sizeof(int64_t) * (size_t) d);
    if (1 == d && 0 == rnd(2)) {
        b->dt = base;
        b->map[0] = 0;
        snprintf(b->desc, sizeof b->desc, "b");
    } else if (0 == k || 1 == d) {
        MPI_Type_contiguous(d, base, &b->dt);
        for (int i = 0; i < d; ++i) b->map[i] = (int64_t) i * g_esize;
        snprintf(b->desc, sizeof b->desc, "c%d", d);
    } else {
        MPI_Type_vector(d, 1, s, base, &b->dt);
        for (int i = 0; i < d; ++i) b->map[i] = (int64_t) i * s * g_esize;
        snprintf(b->desc, sizeof b->desc, "v%d:%d", d, s);
    }
    finish(b);
}

/* contiguous(a, child) or vector(cnt, bl, stride, child) or hvector. */
static void gen_vector(struct built *b, int d, int depth, int kind)
{
    struct built c;
    int cnt = divisor(d, 16), bl = 0 == kind ? 1 : divisor(d / cnt, 8);
    int stride = sign() * (bl + rnd(3));
    MPI_Aint bstride = 0;

    gen(&c, d / cnt / bl, depth - 1);
    if (0 == kind) {
        MPI_Type_contiguous(cnt, c.dt, &b->dt);
        stride = 1;
    } else if (1 == kind) {
        MPI_Type_vector(cnt, bl, stride, c.dt, &b->dt);
    } else {
        bstride = stride * c.ext + (stride < 0 ? -pad_bytes() : pad_bytes());
        MPI_Type_create_hvector(cnt, bl, bstride, c.dt, &b->dt);
    }
    b->nel = d;
    b->map = malloc(sizeof(int64_t) * (size_t) d);
    for (int k = 0, o = 0; k < cnt; ++k) {
        int64_t start = 2 == kind ? (int64_t) k * bstride : (int64_t) k * stride * c.ext;
        for (int j = 0; j < bl; ++j) {
            for (int i = 0; i < c.nel; ++i) b->map[o++] = start + (int64_t) j * c.ext + c.map[i];
        }
    }
    snprintf(b->desc, sizeof b->desc, "%s%d:%d:%ld(%.100s)", 0 == kind ? "C" : 1 == kind ? "V" : "H",
             cnt, bl, 2 == kind ? (long) bstride : (long) stride, c.desc);
    built_free(&c);
    finish(b);
}

/* indexed or hindexed: blocks laid out in address order with gaps, then
 * listed in a shuffled order, shifted so that some displacements are
 * negative. */
static void gen_indexed(struct built *b, int d, int depth, int h)
{
    struct built c;
    int m = divisor(d, 8), q = d / m, nb = 1 + rnd(q < 6 ? q : 6);
    int bl[6], disp[6], ord[6];
    MPI_Aint hd[6];
    int64_t pos = 0, shift;

    gen(&c, m, depth - 1);
    for (int i = 0; i < nb; ++i) {
        bl[i] = q / nb + (i < q % nb);
        ord[i] = i;
    }
    for (int i = nb - 1; i > 0; --i) {
        int j = rnd(i + 1), t = ord[i];
        ord[i] = ord[j];
        ord[j] = t;
    }
    shift = rnd(2) ? rnd(4) : 0;
    for (int i = 0; i < nb; ++i) {     /* block ord[i] is i-th in memory */
        disp[ord[i]] = (int) (pos - shift);
        pos += bl[ord[i]] + rnd(3);
    }
    for (int i = 0; i < nb; ++i) {
        hd[i] = (MPI_Aint) disp[i] * c.ext + (h && i ? pad_bytes() : 0);
    }
    if (h) {
        MPI_Type_create_hindexed(nb, bl, hd, c.dt, &b->dt);
    } else {
        MPI_Type_indexed(nb, bl, disp, c.dt, &b->dt);
    }
    b->nel = d;
    b->map = malloc(sizeof(int64_t) * (size_t) d);
    for (int k = 0, o = 0; k < nb; ++k) {
        for (int j = 0; j < bl[k]; ++j) {
            for (int i = 0; i < c.nel; ++i) b->map[o++] = hd[k] + (int64_t) j * c.ext + c.map[i];
        }
    }
    snprintf(b->desc, sizeof b->desc, "%s%d(%.120s)", h ? "HI" : "I", nb, c.desc);
    built_free(&c);
    finish(b);
}

static void span_of(const int64_t *map, int n, int64_t *lo, int64_t *hi)
{
    *lo = INT64_MAX;
    *hi = INT64_MIN;
    for (int i = 0; i < n; ++i) {
        if (map[i] < *lo) *lo = map[i];
        if (map[i] > *hi) *hi = map[i];
    }
    *hi += g_esize;
}

/* struct of 2-3 different children (same base type), placed one after
 * the other with gaps, listed in a shuffled order. */
static void gen_struct(struct built *b, int d, int depth)
{
    struct built c[3];
    int nk = d >= 3 ? 2 + rnd(2) : d, part[3], ord[3] = {0, 1, 2}, bl[3] = {1, 1, 1};
    MPI_Aint disp[3];
    MPI_Datatype dts[3];
    int64_t cursor = 0;

    for (int i = 0, left = d; i < nk; ++i) {
        part[i] = i == nk - 1 ? left : 1 + rnd(left - (nk - 1 - i));
        left -= part[i];
        gen(&c[i], part[i], depth - 1);
        dts[i] = c[i].dt;
    }
    for (int i = nk - 1; i > 0; --i) {
        int j = rnd(i + 1), t = ord[i];
        ord[i] = ord[j];
        ord[j] = t;
    }
    for (int i = 0; i < nk; ++i) {
        int64_t lo, hi;
        struct built *k = &c[ord[i]];
        span_of(k->map, k->nel, &lo, &hi);
        disp[ord[i]] = cursor + g_esize * rnd(3) - lo;
        cursor = disp[ord[i]] + hi;
    }
    MPI_Type_create_struct(nk, bl, disp, dts, &b->dt);
    b->nel = d;
    b->map = malloc(sizeof(int64_t) * (size_t) d);
    b->desc[0] = 0;
    for (int k = 0, o = 0; k < nk; ++k) {
        for (int i = 0; i < c[k].nel; ++i) b->map[o++] = disp[k] + c[k].map[i];
    }
    snprintf(b->desc, sizeof b->desc, "S(%.45s|%.45s|%.45s)", c[0].desc, nk > 1 ? c[1].desc : "",
             nk > 2 ? c[2].desc : "");
    for (int i = 0; i < nk; ++i) built_free(&c[i]);
    finish(b);
}

static void gen_resized(struct built *b, int d, int depth)
{
    struct built c;
    MPI_Aint lo = (MPI_Aint) g_esize * rnd(3), hi = (MPI_Aint) g_esize * rnd(3);

    gen(&c, d, depth - 1);
    MPI_Type_create_resized(c.dt, c.lb - lo, c.ext + lo + hi, &b->dt);
    b->nel = d;
    b->map = c.map;
    c.map = NULL;
    snprintf(b->desc, sizeof b->desc, "R%ld:%ld(%.120s)", (long) lo, (long) hi, c.desc);
    built_free(&c);
    finish(b);
}

/* A datatype of exactly d elements of the base type. */
static void gen(struct built *b, int d, int depth)
{
    if (depth <= 0 || 0 == rnd(5)) {
        leaf(b, d);
        return;
    }
    switch (rnd(7)) {
    case 0: gen_vector(b, d, depth, 0); break;
    case 1: gen_vector(b, d, depth, 1); break;
    case 2: gen_vector(b, d, depth, 2); break;
    case 3: gen_indexed(b, d, depth, 0); break;
    case 4: gen_indexed(b, d, depth, 1); break;
    case 5: gen_struct(b, d, depth); break;
    default: gen_resized(b, d, depth); break;
    }
}

/* (count, type) for n elements, and the byte offsets of all of them. */
struct access {
    struct built t;
    int count;
    int64_t *off, lo, hi;
};

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

/* No two elements share a byte (targets and results are written). */
static int distinct(const struct access *a, int n)
{
    int64_t *s = malloc(sizeof(int64_t) * (size_t) n);
    int ok = 1;
    memcpy(s, a->off, sizeof(int64_t) * (size_t) n);
    qsort(s, (size_t) n, sizeof *s, cmp64);
    for (int i = 1; i < n && ok; ++i) ok = s[i] - s[i - 1] >= g_esize;
    free(s);
    return ok;
}

static void access_make(struct access *a, int n, int basic)
{
    int c = basic ? n : divisor(n, 8), d = n / c;

    if (basic) {
        leaf(&a->t, 1);
        if (a->t.dt != bt_mpi(g_bt)) {
            MPI_Type_free(&a->t.dt);
            a->t.dt = bt_mpi(g_bt);
            finish(&a->t);
        }
    } else {
        gen(&a->t, d, 1 + rnd(4));
    }
    if (a->t.dt != bt_mpi(g_bt)) MPI_Type_commit(&a->t.dt);
    a->count = c;
    a->off = malloc(sizeof(int64_t) * (size_t) n);
    for (int k = 0; k < c; ++k) {
        for (int i = 0; i < d; ++i) a->off[(size_t) k * d + i] = k * (int64_t) a->t.ext + a->t.map[i];
    }
    span_of(a->off, n, &a->lo, &a->hi);
}

static void access_free(struct access *a)
{
    built_free(&a->t);
    free(a->off);
}

/* ---------------------------------------------------------------------- */
/* cases                                                                   */

enum { K_ACC, K_GACC, K_FOP, K_RACC, K_RGACC, NKINDS };
static const char *const kind_name[NKINDS] = {"Accumulate", "Get_accumulate", "Fetch_and_op",
                                              "Raccumulate", "Rget_accumulate"};
enum { S_LOCK, S_FLUSH, S_FLUSH_ALL, S_FLUSH_LOCAL, S_FENCE, NSYNC };
static const char *const sync_name[NSYNC] = {"lock", "lock_all+flush", "lock_all+flush_all",
                                             "lock_all+flush_local", "fence"};

#define MAXOPS 3
#define NFIXED 9                /* cases 0-8: issue 16's shapes (fixed_op) */

struct op {
    int kind, op, n, shared;
    struct access o, t, r;
    int64_t tpos;            /* target window byte offset of the target access' origin */
    char *omem, *rmem;       /* origin and result buffers (spans of their accesses) */
    size_t olen, rlen;
    char *ovals;             /* the n origin values in type-map order */
};

static uint64_t g_seed;
static int g_case, g_slow, g_verbose, g_big;
static size_t g_slot, g_winlen, g_maxwin;
static struct rwin_b {
    MPI_Win win;
    char *base;
    MPI_Aint *addr;
} wins[3];

static int fail_report(const char *what, long idx, const char *exp, const char *got)
{
    ompix_test_failures++;
    if (report_count++ < REPORT_LIMIT) {
        printf("rank %d: seed %" PRIu64 " case %d (replay: rma_acc_random %" PRIu64 " %d 1): %s: "
               "%s index %ld: expected %s, got %s\n",
               rank, g_seed, g_case, g_seed, g_case, report_label, what, idx, exp, got);
        fflush(stdout);
    }
    return 0;
}

static char init_byte_val(int t, int64_t b, char *out)
{
    make_val(g_bt, hash4(g_seed, (uint64_t) g_case, (uint64_t) t, (uint64_t) (b / g_esize)), out);
    return 0;
}

/* The initial image of target t's window. */
static void init_image(int t, char *img, size_t len)
{
    for (size_t b = 0; b < len; b += (size_t) g_esize) init_byte_val(t, (int64_t) b, img + b);
}

/* Number of elements of one operation: in big cases around 64 Ki to
 * 256 Ki (a quarter of that over TCP and under valgrind), else mostly
 * up to 1 100 and some up to 5 000. */
static int draw_n(void)
{
    static const int special[] = {65530, 65536, 262144, 262140};
    int r = rnd(100);
    if (g_big) {
        if (r < 40) return special[rnd(4)] >> (g_slow ? 2 : 0);
        if (r < 80) return 1018 + rnd(g_slow ? 60000 : 250000);
        return 1 + rnd(1100);
    }
    if (r < 25) return 1018 + rnd(4000);
    if (r < 75) return 1 + rnd(1100);
    return 1 + rnd(16);
}

/* The shapes of issue 16, as fixed cases: (count 2 of) a resized
 * contiguous of a vector of an hvector of MPI_INT, 65 530 in all; a
 * vector with a negative stride; MPI_INT itself. */
enum { FX_NESTED, FX_NEGVEC, FX_BASIC };
#define FX_N 65530

static void fixed_access(struct access *a, int which)
{
    int half = FX_N / 2;
    MPI_Datatype hv, v, c;

    memset(a, 0, sizeof *a);
    a->t.nel = FX_N;
    a->off = malloc(sizeof(int64_t) * FX_N);
    a->t.map = malloc(sizeof(int64_t) * FX_N);
    if (FX_NESTED == which) {
        /* hvector(5,1,4 B) is 5 ints in a row, vector(6553,1,1) of it
         * 32 765, resized 8 bytes longer: one block and a gap, twice */
        MPI_Type_create_hvector(5, 1, 4, MPI_INT, &hv);
        MPI_Type_vector(half / 5, 1, 1, hv, &v);
        MPI_Type_contiguous(1, v, &c);
        MPI_Type_create_resized(c, 0, (MPI_Aint) half * 4 + 8, &a->t.dt);
        MPI_Type_free(&hv);
        MPI_Type_free(&v);
        MPI_Type_free(&c);
        a->count = 2;
        a->t.nel = half;
        for (int i = 0; i < FX_N; ++i) a->off[i] = (int64_t) (i / half) * (half * 4 + 8) + (i % half) * 4;
        snprintf(a->t.desc, sizeof a->t.desc, "R0:8(C1(V%d:1:1(H5:1:4(int))))", half / 5);
    } else if (FX_NEGVEC == which) {
        MPI_Type_vector(FX_N, 1, -2, MPI_INT, &a->t.dt);
        a->count = 1;
        for (int i = 0; i < FX_N; ++i) a->off[i] = -8 * (int64_t) i;
        snprintf(a->t.desc, sizeof a->t.desc, "v%d:-2", FX_N);
    } else {
        a->t.dt = MPI_INT;
        a->count = FX_N;
        a->t.nel = 1;
        for (int i = 0; i < FX_N; ++i) a->off[i] = 4 * (int64_t) i;
        snprintf(a->t.desc, sizeof a->t.desc, "int");
    }
    memcpy(a->t.map, a->off, sizeof(int64_t) * (size_t) a->t.nel);
    if (MPI_INT != a->t.dt) MPI_Type_commit(&a->t.dt);
    finish(&a->t);
    span_of(a->off, FX_N, &a->lo, &a->hi);
}

/* Fixed operation k: Accumulate SUM nested -> int; Get_accumulate SUM
 * int -> nested, result negative vector; Rget_accumulate REPLACE nested
 * on all three sides. */
static void fixed_op(struct op *p, int k)
{
    static const int kind[3] = {K_ACC, K_GACC, K_RGACC}, op[3] = {OP_SUM, OP_SUM, OP_REPLACE};
    static const int o[3] = {FX_NESTED, FX_BASIC, FX_NESTED}, t[3] = {FX_BASIC, FX_NESTED, FX_NESTED};
    static const int r[3] = {-1, FX_NEGVEC, FX_NESTED};

    p->kind = kind[k];
    p->op = op[k];
    p->n = FX_N;
    fixed_access(&p->o, o[k]);
    fixed_access(&p->t, t[k]);
    if (r[k] >= 0) fixed_access(&p->r, r[k]);
}

/* Draws one operation of this origin (its own stream of random numbers). */
static void op_make(struct op *p, const struct op *prev, int pattern, int shared_op, int fixed)
{
    int64_t slot0, room;

    memset(p, 0, sizeof *p);
    if (fixed >= 0) {
        fixed_op(p, fixed);
        goto place;
    }
    p->kind = rnd(NKINDS);
    do {
        p->op = rnd(NOPS);
    } while (!op_valid(p->op, g_bt) ||
             (OP_NO_OP == p->op && (K_ACC == p->kind || K_RACC == p->kind)));
    /* all-to-one: accumulates with the case's commutative op are shared */
    p->shared = 1 == pattern && (K_ACC == p->kind || K_RACC == p->kind) && rnd(2);
    if (p->shared) p->op = shared_op;
    p->n = K_FOP == p->kind ? 1 : draw_n();
    g_misalign = !p->shared && BT_DOUBLE != g_bt && 0 == rnd(6);
    for (int tries = 0;; ++tries) {
        access_make(&p->t, p->n, K_FOP == p->kind || 5 == tries);
        if (p->t.hi - p->t.lo <= (int64_t) g_slot && distinct(&p->t, p->n) &&
            (!p->shared || 0 == (p->t.lo % g_esize + g_esize) % g_esize)) {
            break;
        }
        access_free(&p->t);
        if (tries >= 5) p->n = p->n / 2 + 1;
    }
    access_make(&p->o, p->n, K_FOP == p->kind);
    if (K_GACC == p->kind || K_RGACC == p->kind || K_FOP == p->kind) {
        do {
            access_make(&p->r, p->n, K_FOP == p->kind);
        } while (!distinct(&p->r, p->n) && (access_free(&p->r), 1));
    }
    g_misalign = 0;
place:
    /* where in the target: the shared part, or the origin's own part, at
     * the previous operation's place half of the time */
    slot0 = (int64_t) g_slot * (p->shared ? 0 : 1 + rank);
    room = (int64_t) g_slot - (p->t.hi - p->t.lo);
    p->tpos = slot0 - p->t.lo + (room > 0 ? rnd((int) (room / g_esize) + 1) * (int64_t) g_esize : 0);
    if (NULL != prev && !prev->shared && !p->shared && rnd(2)) {
        int64_t want = prev->tpos;
        if (want + p->t.lo >= slot0 && want + p->t.hi <= slot0 + (int64_t) g_slot) p->tpos = want;
    }
    /* origin buffer: values written through the map (later entries of
     * an overlapping origin type win), then read back through it */
    p->olen = (size_t) (p->o.hi - p->o.lo);
    p->omem = malloc(p->olen);
    p->ovals = malloc((size_t) p->n * g_esize);
    for (int i = 0; i < p->n; ++i) {
        make_val(g_bt, hash4(g_seed + 1, (uint64_t) g_case, (uint64_t) rank, rnd64() + (uint64_t) i),
                 p->omem + (p->o.off[i] - p->o.lo));
    }
    for (int i = 0; i < p->n; ++i) {
        memcpy(p->ovals + (size_t) i * g_esize, p->omem + (p->o.off[i] - p->o.lo), g_esize);
    }
    if (NULL != p->r.off && NULL == p->rmem) {
        p->rlen = (size_t) (p->r.hi - p->r.lo);
        p->rmem = malloc(p->rlen);
        memset(p->rmem, 0xa5, p->rlen);
    }
}

static void op_free(struct op *p)
{
    access_free(&p->o);
    access_free(&p->t);
    if (NULL != p->r.off) access_free(&p->r);
    free(p->omem);
    free(p->rmem);
    free(p->ovals);
}

static MPI_Aint tdisp(int flavor, int t, int64_t pos)
{
    return FL_DYNAMIC == flavor ? MPI_Aint_add(wins[flavor].addr[t], pos) : (MPI_Aint) pos;
}

/* Issues one operation; request-based ones are blocking under fence. */
static void op_issue(const struct op *p, int flavor, int t, int sync, MPI_Request *req)
{
    MPI_Win win = wins[flavor].win;
    MPI_Datatype bt = bt_mpi(g_bt);
    char *o = p->omem - p->o.lo, *r = NULL != p->rmem ? p->rmem - p->r.lo : NULL;
    MPI_Aint d = tdisp(flavor, t, p->tpos);
    int kind = p->kind;

    *req = MPI_REQUEST_NULL;
    if (S_FENCE == sync) kind = K_RACC == kind ? K_ACC : K_RGACC == kind ? K_GACC : kind;
    switch (kind) {
    case K_ACC:
        OK(MPI_Accumulate(o, p->o.count, p->o.t.dt, t, d, p->t.count, p->t.t.dt, op_mpi(p->op), win));
        break;
    case K_RACC:
        OK(MPI_Raccumulate(o, p->o.count, p->o.t.dt, t, d, p->t.count, p->t.t.dt, op_mpi(p->op),
                           win, req));
        break;
    case K_GACC:
        OK(MPI_Get_accumulate(o, p->o.count, p->o.t.dt, r, p->r.count, p->r.t.dt, t, d, p->t.count,
                              p->t.t.dt, op_mpi(p->op), win));
        break;
    case K_RGACC:
        OK(MPI_Rget_accumulate(o, p->o.count, p->o.t.dt, r, p->r.count, p->r.t.dt, t, d,
                               p->t.count, p->t.t.dt, op_mpi(p->op), win, req));
        break;
    default:
        OK(MPI_Fetch_and_op(o, r, bt, t, d, op_mpi(p->op), win));
        break;
    }
}

/* Applies one operation's target offsets and values to an image whose
 * byte 0 is window offset `base`; fetched old values go to `old`. */
static void image_apply(char *img, int64_t base, int op, int n, int64_t tpos, const int64_t *off,
                        const char *vals, char *old)
{
    for (int i = 0; i < n; ++i) {
        char *e = img + (tpos + off[i] - base);
        if (NULL != old) memcpy(old + (size_t) i * g_esize, e, g_esize);
        apply(g_bt, op, e, vals + (size_t) i * g_esize);
    }
}

/* Origin side: replays its own operations on its part of the target and
 * checks every fetched element and the untouched rest of each result. */
static void check_results(struct op *ops, int nops, int t)
{
    char *img = malloc(g_slot), *old, *pad = malloc(64), e[64], g[64];
    int64_t base = (int64_t) g_slot * (1 + rank);

    memset(pad, 0xa5, 64);
    for (size_t b = 0; b < g_slot; b += (size_t) g_esize) init_byte_val(t, base + (int64_t) b, img + b);
    for (int k = 0; k < nops; ++k) {
        struct op *p = &ops[k];
        if (p->shared) continue;
        old = malloc((size_t) p->n * g_esize);
        image_apply(img, base, p->op, p->n, p->tpos, p->t.off, p->ovals, old);
        if (NULL != p->rmem) {
            char *seen = calloc(p->rlen, 1);
            set_case("%s %s %s x%d o=%d*%s t=%d*%s r=%d*%s", kind_name[p->kind], op_name[p->op],
                     bt_name[g_bt], p->n, p->o.count, p->o.t.desc, p->t.count, p->t.t.desc,
                     p->r.count, p->r.t.desc);
            for (int i = 0; i < p->n; ++i) {
                const char *x = old + (size_t) i * g_esize, *y = p->rmem + (p->r.off[i] - p->r.lo);
                memset(seen + (p->r.off[i] - p->r.lo), 1, g_esize);
                if (memcmp(x, y, g_esize)) {
                    fmt_val(g_bt, x, e, sizeof e);
                    fmt_val(g_bt, y, g, sizeof g);
                    fail_report("fetched element", i, e, g);
                }
            }
            for (size_t b = 0; b < p->rlen; ++b) {
                if (!seen[b] && (unsigned char) p->rmem[b] != 0xa5) {
                    snprintf(g, sizeof g, "0x%02x", (unsigned char) p->rmem[b]);
                    fail_report("result byte outside the result type", (long) b, "0xa5", g);
                    break;
                }
            }
            free(seen);
        }
        free(old);
    }
    free(pad);
    free(img);
}

/* Sends the target what its image needs: per operation (op, n, target
 * position), the target offsets and the origin values. */
static void ops_send(const struct op *ops, int nops, int t, MPI_Request *sreq, int64_t (*hdr)[3],
                     int *nops_msg)
{
    *nops_msg = nops;
    MPI_Isend(nops_msg, 1, MPI_INT, t, 99, MPI_COMM_WORLD, &sreq[0]);
    for (int k = 0; k < nops; ++k) {
        hdr[k][0] = ops[k].op;
        hdr[k][1] = ops[k].n;
        hdr[k][2] = ops[k].tpos;
        MPI_Isend(hdr[k], 3, MPI_INT64_T, t, 100 + k, MPI_COMM_WORLD, &sreq[1 + 3 * k]);
        MPI_Isend(ops[k].t.off, ops[k].n, MPI_INT64_T, t, 200 + k, MPI_COMM_WORLD,
                  &sreq[2 + 3 * k]);
        MPI_Isend(ops[k].ovals, ops[k].n * g_esize, MPI_BYTE, t, 300 + k, MPI_COMM_WORLD,
                  &sreq[3 + 3 * k]);
    }
}

/* Target side: the image of the whole window after every origin's
 * operations (ordered per origin; the shared part only takes commutative
 * ops, so the order between origins does not matter). */
static char *expected_window(int nsrc, const int *srcs)
{
    char *img = malloc(g_winlen);

    init_image(rank, img, g_winlen);
    for (int s = 0; s < nsrc; ++s) {
        int n;
        MPI_Recv(&n, 1, MPI_INT, srcs[s], 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int k = 0; k < n; ++k) {
            int64_t h[3], *off;
            char *vals;
            MPI_Recv(h, 3, MPI_INT64_T, srcs[s], 100 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            off = malloc(sizeof(int64_t) * (size_t) h[1]);
            vals = malloc((size_t) h[1] * g_esize);
            MPI_Recv(off, (int) h[1], MPI_INT64_T, srcs[s], 200 + k, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Recv(vals, (int) h[1] * g_esize, MPI_BYTE, srcs[s], 300 + k, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            image_apply(img, 0, (int) h[0], (int) h[1], h[2], off, vals, NULL);
            free(off);
            free(vals);
        }
    }
    return img;
}

static void check_window(int flavor, const char *img)
{
    char e[64], g[64], what[64];
    const char *w = wins[flavor].base;

    set_case("%s target window", bt_name[g_bt]);
    for (size_t b = 0; b < g_winlen; b += (size_t) g_esize) {
        if (memcmp(img + b, w + b, g_esize)) {
            snprintf(what, sizeof what, "window part %d (0: shared) element", (int) (b / g_slot));
            fmt_val(g_bt, img + b, e, sizeof e);
            fmt_val(g_bt, w + b, g, sizeof g);
            fail_report(what, (long) ((b % g_slot) / g_esize), e, g);
        }
    }
}

static void init_window(int flavor)
{
    MPI_Win win = wins[flavor].win;
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    init_image(rank, wins[flavor].base, g_winlen);
    OK(MPI_Win_unlock(rank, win));
}

/* The epoch: all of this origin's operations toward t, completed per the
 * case's synchronization; requests are waited for only at the end, some
 * after the epoch closed. */
static void epoch(struct op *ops, int nops, int flavor, int t, int sync)
{
    MPI_Win win = wins[flavor].win;
    MPI_Request req[MAXOPS];
    int late = rnd(2);

    switch (sync) {
    case S_LOCK: OK(MPI_Win_lock(rnd(2) ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, win)); break;
    case S_FENCE: OK(MPI_Win_fence(0, win)); break;
    default: OK(MPI_Win_lock_all(0, win)); break;
    }
    for (int k = 0; k < nops; ++k) {
        op_issue(&ops[k], flavor, t, sync, &req[k]);
        if (0 == rnd(3)) {      /* a completion call in the middle now and then */
            if (S_FLUSH == sync) OK(MPI_Win_flush(t, win));
            if (S_FLUSH_ALL == sync) OK(MPI_Win_flush_all(win));
            if (S_FLUSH_LOCAL == sync) OK(MPI_Win_flush_local(t, win));
        }
    }
    if (!late) OK(MPI_Waitall(nops, req, MPI_STATUSES_IGNORE));
    switch (sync) {
    case S_LOCK: OK(MPI_Win_unlock(t, win)); break;
    case S_FENCE: OK(MPI_Win_fence(0, win)); break;
    case S_FLUSH: OK(MPI_Win_flush(t, win)); OK(MPI_Win_unlock_all(win)); break;
    case S_FLUSH_ALL: OK(MPI_Win_flush_all(win)); OK(MPI_Win_unlock_all(win)); break;
    default: OK(MPI_Win_flush_local(t, win)); OK(MPI_Win_unlock_all(win)); break;
    }
    if (late) OK(MPI_Waitall(nops, req, MPI_STATUSES_IGNORE));
}

static void run_case(void)
{
    int flavor = g_case % 3, sync, pattern, shared_op, t, nops, nsrc = 0, srcs[256], nops_msg;
    struct op ops[MAXOPS];
    MPI_Request sreq[1 + 3 * MAXOPS];
    int64_t hdr[MAXOPS][3];
    char *img;

    rng_seed(g_seed, (uint64_t) g_case, 0);
    sync = rnd(NSYNC);
    g_bt = rnd(NBT);
    g_esize = bt_size[g_bt];
    pattern = rnd(2);
    do {
        shared_op = rnd(OP_BOR + 1);
    } while (!op_valid(shared_op, g_bt));
    /* one case in six moves up to 256 Ki elements per operation; the
     * others use (and initialize and check) a small part of the windows */
    g_big = 0 == rnd(6);
    if (g_case < NFIXED) {      /* issue 16's shapes on every flavor */
        static const int fs[3] = {S_LOCK, S_FENCE, S_FLUSH};
        sync = fs[g_case / 3];
        g_bt = BT_INT;
        g_esize = 4;
        pattern = 0;
        g_big = 1;
    }
    g_slot = g_big ? (size_t) 3 << 20 : (size_t) 160 << 10;
    g_winlen = g_slot * (size_t) (1 + size);
    t = 1 == pattern ? 0 : right;
    for (int s = 0; s < size; ++s) {
        if ((1 == pattern ? 0 : (s + 1) % size) == rank) srcs[nsrc++] = s;
    }

    rng_seed(g_seed, (uint64_t) g_case, 1 + (uint64_t) rank);
    nops = g_case < NFIXED ? 3 : 1 + rnd(MAXOPS);
    for (int k = 0; k < nops; ++k) {
        op_make(&ops[k], k ? &ops[k - 1] : NULL, pattern, shared_op, g_case < NFIXED ? k : -1);
    }
    if (g_verbose) {
        for (int k = 0; k < nops; ++k) {
            struct op *p = &ops[k];
            printf("rank %d case %d: %s window, %s, %s, %s: %s %s x%d%s o=%d*%s t=%d*%s@%lld r=%d*%s\n",
                   rank, g_case, flavor_name[flavor], sync_name[sync], bt_name[g_bt],
                   pattern ? "all-to-one" : "ring", kind_name[p->kind], op_name[p->op], p->n,
                   p->shared ? " shared" : "", p->o.count, p->o.t.desc, p->t.count, p->t.t.desc,
                   (long long) p->tpos, p->r.count, NULL != p->r.off ? p->r.t.desc : "-");
        }
        fflush(stdout);
    }
    ops_send(ops, nops, t, sreq, hdr, &nops_msg);
    img = expected_window(nsrc, srcs);
    MPI_Waitall(1 + 3 * nops, sreq, MPI_STATUSES_IGNORE);

    init_window(flavor);
    MPI_Barrier(MPI_COMM_WORLD);
    set_case("%s window, %s, %s, %s", flavor_name[flavor], sync_name[sync], bt_name[g_bt],
             pattern ? "all-to-one" : "ring");
    epoch(ops, nops, flavor, t, sync);
    MPI_Barrier(MPI_COMM_WORLD);

    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, wins[flavor].win));
    check_window(flavor, img);
    OK(MPI_Win_unlock(rank, wins[flavor].win));
    check_results(ops, nops, t);
    for (int k = 0; k < nops; ++k) op_free(&ops[k]);
    free(img);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void wins_open(void)
{
    for (int f = 0; f < 3; ++f) {
        struct rwin_b *w = &wins[f];
        MPI_Aint mine;
        w->addr = NULL;
        if (FL_ALLOCATE == f) {
            OK(MPI_Win_allocate((MPI_Aint) g_maxwin, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w->base,
                                &w->win));
            continue;
        }
        w->base = malloc(g_maxwin);
        if (FL_CREATE == f) {
            OK(MPI_Win_create(w->base, (MPI_Aint) g_maxwin, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                              &w->win));
            continue;
        }
        OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->win));
        OK(MPI_Win_attach(w->win, w->base, (MPI_Aint) g_maxwin));
        MPI_Get_address(w->base, &mine);
        w->addr = malloc(sizeof(MPI_Aint) * (size_t) size);
        MPI_Allgather(&mine, 1, MPI_AINT, w->addr, 1, MPI_AINT, MPI_COMM_WORLD);
    }
}

static void wins_close(void)
{
    for (int f = 0; f < 3; ++f) {
        struct rwin_b *w = &wins[f];
        if (FL_DYNAMIC == f) OK(MPI_Win_detach(w->win, w->base));
        OK(MPI_Win_free(&w->win));
        if (FL_ALLOCATE != f) free(w->base);
        free(w->addr);
    }
}

int main(int argc, char **argv)
{
    const char *tls = getenv("UCX_TLS"), *pre = getenv("LD_PRELOAD");
    int first, ncases;

    ompix_test_init(&argc, &argv);
    /* over TCP and under valgrind, fewer and smaller cases */
    g_slow = (NULL != tls && NULL != strstr(tls, "tcp")) || (NULL != pre && strstr(pre, "vgpreload"));
    g_seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20260416;
    first = argc > 2 ? atoi(argv[2]) : 0;
    ncases = argc > 3 ? atoi(argv[3]) : NFIXED + (g_slow ? 21 : 33);
    g_verbose = argc > 4;
    g_maxwin = ((size_t) 3 << 20) * (size_t) (1 + size);
    wins_open();
    for (g_case = first; g_case < first + ncases; ++g_case) run_case();
    wins_close();
    return ompix_test_finish("rdma2/rma_acc_random");
}
