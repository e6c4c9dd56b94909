/*
 * ompix-test: np=2,4 tls=shm,tcp pml=ob1 timeout=180 mca="osc rdma2" intree="np=2" intree_why="CI time: 4 ranks run on the plugin build"
 *
 * Dynamic windows with many regions (osc rdma2 once refused more than 64
 * per rank, MPI_ERR_RMA_ATTACH):
 *  - attach under traffic: every rank attaches NREG (10 000) small regions
 *    of 1-4 int64 (a third malloc()ed one by one, the rest from one big
 *    buffer, runs of them adjacent), publishing each address in a control
 *    window as it goes, while the other ranks access the regions already
 *    published: Get, Put, Accumulate, Fetch_and_op, Compare_and_swap of
 *    one element and Get of a whole region, each flushed and checked
 *    exactly against the origin's shadow copy (one origin writes each
 *    region, so the shadow is exact); then each writer sends its shadows to
 *    the owner, which checks every region (untouched ones keep their
 *    initial values);
 *  - accesses across two adjacent regions, overlapping attaches and the
 *    detach of a base that is not attached fail with MPI_ERR_RMA_RANGE /
 *    MPI_ERR_RMA_ATTACH (counting error handler);
 *  - detach in a random order (a permutation every rank can compute) while
 *    the others keep accessing the regions still attached: the owner
 *    announces the next batch, waits until every origin acknowledged it
 *    (after which they no longer touch it), detaches it; origins also
 *    access regions already detached and must get MPI_ERR_RMA_RANGE;
 *  - re-attach: a quarter of the regions again, at the same addresses in the big
 *    buffer (the same base and length as a detached region) and in new
 *    malloc()ed memory, new values, accessed and checked the same way;
 *  - a linked list: every rank builds a list of LN nodes, each malloc()ed
 *    and attached on its own in random order; every other rank walks it
 *    remotely (Get of value and next, Accumulate on a counter per node);
 *    the owner checks values and counters, then detaches in random order.
 *
 * Usage: rma_attach_many [NREG [LN]]
 */
#include "rdma2_common.h"

#include <stdint.h>

typedef int64_t i64;

static int nreg = 10000, nlist = 1000;
#define BATCH 64                /* regions attached per step under traffic */
#define DBATCH 256              /* regions announced per detach step */
#define OPS 16                  /* accesses per origin step */
#define MAXE 4                  /* elements per region at most */

/* ---- random numbers (xorshift64*, explicit seeds) ---------------------- */

static uint64_t rnd_state;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state >> 12;
    rnd_state ^= rnd_state << 25;
    rnd_state ^= rnd_state >> 27;
    return rnd_state * UINT64_C(2685821657736338717);
}

/* The detach order of rank t: every rank computes it. */
static void permutation(int t, int *perm, int n)
{
    uint64_t s = UINT64_C(0x9E3779B97F4A7C15) * (uint64_t) (t + 1);
    for (int i = 0; i < n; ++i) perm[i] = i;
    for (int i = n - 1; i > 0; --i) {
        s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
        int j = (int) ((s * UINT64_C(2685821657736338717)) % (uint64_t) (i + 1));
        int x = perm[i]; perm[i] = perm[j]; perm[j] = x;
    }
}

/* ---- regions --------------------------------------------------------- */

static int nelem(int k) { return 1 + (k * 7) % MAXE; }
static int is_malloced(int k) { return k % 3 == 0; }
static i64 init_val(int phase, int t, int k, int e)
{
    return ((i64) phase << 56) + ((i64) t << 40) + ((i64) k << 4) + e;
}

static i64 *big;                /* regions with !is_malloced(k) */
static MPI_Aint *big_off;       /* per region: element offset in big */
static i64 **mem;               /* per region: its memory */
static int *perm_of;            /* size x nreg: every rank's detach order */
static i64 *shadow;             /* size x nreg x MAXE: what I wrote */
static MPI_Win dwin, cwin;      /* the dynamic window, the control window */
static long n_access, n_range;  /* accesses under traffic, detached regions probed */

/* Control window words of every rank. */
enum { C_PUBLISHED, C_LIMIT, C_DETACHED, C_DONE, C_ACK };
#define C_ADDR (C_ACK + size)
static i64 *ctl;

static i64 *shadow_of(int t, int k) { return shadow + ((size_t) t * nreg + k) * MAXE; }

/* The origin that writes region k of rank t (never t itself). */
static int writer(int t, int k) { return (t + 1 + k % (size - 1)) % size; }

static void layout_regions(void)
{
    MPI_Aint off = 0;
    big_off = malloc(nreg * sizeof(*big_off));
    mem = calloc(nreg, sizeof(*mem));
    for (int k = 0; k < nreg; ++k) {
        big_off[k] = -1;
        if (!is_malloced(k)) {
            big_off[k] = off;
            off += nelem(k) + (k % 5 == 4);      /* a gap after some; the others adjacent */
        }
    }
    big = malloc((off + 1) * sizeof(i64));
}

static void *region_mem(int k, int fresh_malloc)
{
    if (is_malloced(k)) {
        if (fresh_malloc || NULL == mem[k]) mem[k] = malloc(nelem(k) * sizeof(i64));
    } else {
        mem[k] = big + big_off[k];
    }
    return mem[k];
}

/* ---- control window -------------------------------------------------- */

static i64 ctl_read(int t, int word)
{
    i64 v, dummy = 0;
    OK(MPI_Fetch_and_op(&dummy, &v, MPI_INT64_T, t, word, MPI_NO_OP, cwin));
    OK(MPI_Win_flush(t, cwin));
    return v;
}

static void ctl_write(int t, int word, i64 v)
{
    OK(MPI_Accumulate(&v, 1, MPI_INT64_T, t, word, 1, MPI_INT64_T, MPI_REPLACE, cwin));
    OK(MPI_Win_flush(t, cwin));
}

static void publish_addr(int k, MPI_Aint a)
{
    i64 v = (i64) a;
    OK(MPI_Put(&v, 1, MPI_INT64_T, rank, C_ADDR + k, 1, MPI_INT64_T, cwin));
    OK(MPI_Win_flush(rank, cwin));
}

static int all_done(int phase)
{
    for (int t = 0; t < size; ++t) {
        if (ctl_read(t, C_DONE) < phase) return 0;
    }
    return 1;
}

/* ---- one access, checked --------------------------------------------- */

static void access_region(int t, int k, MPI_Aint addr, int phase)
{
    i64 *s = shadow_of(t, k), got[MAXE], v = (i64) (rnd() >> 8), d = (i64) (rnd() % 1000);
    int n = nelem(k), e = (int) (rnd() % n), op = (int) (rnd() % 6);
    MPI_Aint a = MPI_Aint_add(addr, e * sizeof(i64));

    (void) phase;
    ++n_access;
    switch (op) {
    case 0:
        OK(MPI_Get(got, 1, MPI_INT64_T, t, a, 1, MPI_INT64_T, dwin));
        OK(MPI_Win_flush(t, dwin));
        check_eq("Get", k, s[e], got[0]);
        break;
    case 1:
        OK(MPI_Put(&v, 1, MPI_INT64_T, t, a, 1, MPI_INT64_T, dwin));
        OK(MPI_Win_flush(t, dwin));
        s[e] = v;
        break;
    case 2:
        OK(MPI_Accumulate(&d, 1, MPI_INT64_T, t, a, 1, MPI_INT64_T, MPI_SUM, dwin));
        OK(MPI_Win_flush(t, dwin));
        s[e] += d;
        break;
    case 3:
        OK(MPI_Fetch_and_op(&d, got, MPI_INT64_T, t, a, MPI_SUM, dwin));
        OK(MPI_Win_flush(t, dwin));
        check_eq("Fetch_and_op", k, s[e], got[0]);
        s[e] += d;
        break;
    case 4:
        OK(MPI_Compare_and_swap(&v, &s[e], got, MPI_INT64_T, t, a, dwin));
        OK(MPI_Win_flush(t, dwin));
        check_eq("Compare_and_swap", k, s[e], got[0]);
        s[e] = v;
        break;
    default:
        OK(MPI_Get(got, n, MPI_INT64_T, t, addr, n, MPI_INT64_T, dwin));
        OK(MPI_Win_flush(t, dwin));
        for (int i = 0; i < n; ++i) check_eq("Get of the region", k * MAXE + i, s[i], got[i]);
        break;
    }
}

/* First access of a region by its writer: the shadow starts from the
 * owner's initial values. */
static unsigned char *seen;     /* size x nreg */

static void touch(int t, int k, MPI_Aint addr, int phase)
{
    if (!seen[(size_t) t * nreg + k]) {
        seen[(size_t) t * nreg + k] = 1;
        for (int e = 0; e < nelem(k); ++e) shadow_of(t, k)[e] = init_val(phase, t, k, e);
    }
    access_region(t, k, addr, phase);
}

static MPI_Aint addr_of(int t, int k)
{
    i64 v;
    OK(MPI_Get(&v, 1, MPI_INT64_T, t, C_ADDR + k, 1, MPI_INT64_T, cwin));
    OK(MPI_Win_flush(t, cwin));
    return (MPI_Aint) v;
}

static int other_target(void)
{
    int t = (int) (rnd() % (size - 1));
    return t >= rank ? t + 1 : t;
}

/* ---- attach under traffic -------------------------------------------- */

/* Origin step: a few accesses to published regions of one target. */
static void origin_attach_step(int phase, int nphase)
{
    int t = other_target(), res = (rank - t - 1 + size) % size;
    i64 pub = ctl_read(t, C_PUBLISHED);
    long mine = pub > res ? (pub - res + size - 2) / (size - 1) : 0;

    for (int i = 0; i < OPS && mine > 0; ++i) {
        int k = res + (size - 1) * (int) (rnd() % mine);
        if (k >= nphase) continue;
        touch(t, k, addr_of(t, k), phase);
    }
}

static void attach_phase(int phase, int nphase, int fresh_malloc)
{
    int next = 0;

    set_case("phase %d: attach %d regions under traffic", phase, nphase);
    for (;;) {
        if (next < nphase) {
            for (int b = 0; b < BATCH && next < nphase; ++b, ++next) {
                i64 *m = region_mem(next, fresh_malloc);
                MPI_Aint a;
                for (int e = 0; e < nelem(next); ++e) m[e] = init_val(phase, rank, next, e);
                OK(MPI_Win_attach(dwin, m, nelem(next) * sizeof(i64)));
                MPI_Get_address(m, &a);
                publish_addr(next, a);
            }
            ctl_write(rank, C_PUBLISHED, next);
            if (next == nphase) ctl_write(rank, C_DONE, 2 * phase + 1);
        }
        origin_attach_step(phase, nphase);
        if (next == nphase && all_done(2 * phase + 1)) break;
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Every writer sends each owner what it wrote (region, values); the owner
 * checks all its regions against that, and the untouched ones against
 * their initial values (so a write that went astray is seen too). */
static void verify_phase(int phase, int nphase)
{
    size_t rec = 1 + MAXE;                      /* k, then the values */
    i64 *out = malloc((size_t) nphase * rec * sizeof(i64));
    i64 *in = malloc((size_t) nphase * rec * sizeof(i64));
    unsigned char *written = calloc(nphase, 1);
    MPI_Request req;

    set_case("phase %d: every region checked by its owner", phase);
    MPI_Win_sync(dwin);
    for (int d = 1; d < size; ++d) {
        int t = (rank + d) % size, from = (rank - d + size) % size, nin = 0, nout = 0;
        for (int k = 0; k < nphase; ++k) {
            if (seen[(size_t) t * nreg + k]) {
                out[(size_t) nout * rec] = k;
                memcpy(&out[(size_t) nout++ * rec + 1], shadow_of(t, k), MAXE * sizeof(i64));
            }
        }
        MPI_Isend(out, nout * (int) rec, MPI_INT64_T, t, 7, MPI_COMM_WORLD, &req);
        MPI_Status st;
        MPI_Recv(in, nphase * (int) rec, MPI_INT64_T, from, 7, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT64_T, &nin);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < nin / (int) rec; ++i) {
            int k = (int) in[(size_t) i * rec];
            if (k < 0 || k >= nphase || writer(rank, k) != from) {
                fail("rank %d says it wrote region %d", from, k);
                continue;
            }
            written[k] = 1;
            for (int e = 0; e < nelem(k); ++e) {
                check_eq("region written", k * MAXE + e, in[(size_t) i * rec + 1 + e], mem[k][e]);
            }
        }
    }
    for (int k = 0; k < nphase; ++k) {
        for (int e = 0; e < nelem(k) && !written[k]; ++e) {
            check_eq("region not written", k * MAXE + e, init_val(phase, rank, k, e), mem[k][e]);
        }
    }
    free(out);
    free(in);
    free(written);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Accesses across two adjacent regions of the big buffer, and attaches
 * that overlap. */
static void errors_phase(void)
{
    int t = right, k;
    i64 buf[2] = { 0, 0 };

    set_case("errors: straddling, overlapping attach, detach of no region");
    for (k = 0; k + 1 < nreg; ++k) {            /* k, k + 1 adjacent in big */
        if (!is_malloced(k) && !is_malloced(k + 1) && k % 5 != 4) break;
    }
    if (k + 1 < nreg) {
        MPI_Aint a = MPI_Aint_add(addr_of(t, k), (nelem(k) - 1) * sizeof(i64));
        CHECK_ERR(MPI_Get(buf, 2, MPI_INT64_T, t, a, 2, MPI_INT64_T, dwin), MPI_ERR_RMA_RANGE);
        CHECK_ERR(MPI_Put(buf, 2, MPI_INT64_T, t, a, 2, MPI_INT64_T, dwin), MPI_ERR_RMA_RANGE);
        OK(MPI_Win_flush(t, dwin));
        /* inside region k, across its start, the same base again */
        CHECK_ERR(MPI_Win_attach(dwin, mem[k], sizeof(i64)), MPI_ERR_RMA_ATTACH);
        CHECK_ERR(MPI_Win_attach(dwin, (char *) mem[k] - 8, 16), MPI_ERR_RMA_ATTACH);
        CHECK_ERR(MPI_Win_attach(dwin, mem[k], nelem(k) * sizeof(i64)), MPI_ERR_RMA_ATTACH);
        CHECK_ERR(MPI_Win_detach(dwin, (char *) mem[k] + 8), MPI_ERR_RMA_ATTACH);
    } else {
        fail("no adjacent regions");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- detach under traffic --------------------------------------------- */

static int limit_mine, detached_mine;

static void owner_detach_step(void)
{
    const int *perm = perm_of + (size_t) rank * nreg;

    if (detached_mine < limit_mine) {
        for (int o = 0; o < size; ++o) {
            if (o != rank && ctl_read(rank, C_ACK + o) < limit_mine) return;
        }
        for (; detached_mine < limit_mine; ++detached_mine) {
            OK(MPI_Win_detach(dwin, mem[perm[detached_mine]]));
        }
        ctl_write(rank, C_DETACHED, detached_mine);
    }
    if (limit_mine < nreg) {
        limit_mine = limit_mine + DBATCH < nreg ? limit_mine + DBATCH : nreg;
        ctl_write(rank, C_LIMIT, limit_mine);
    } else if (detached_mine == nreg) {
        ctl_write(rank, C_DONE, 4);
    }
}

static void origin_detach_step(void)
{
    int t = other_target();
    const int *perm = perm_of + (size_t) t * nreg;
    i64 limit = ctl_read(t, C_LIMIT), detached = ctl_read(t, C_DETACHED);

    /* from now on we leave perm[0 .. limit) alone */
    ctl_write(t, C_ACK + rank, limit);
    for (int i = 0; i < OPS && limit < nreg; ++i) {
        int k = perm[limit + (int) (rnd() % (nreg - limit))];
        if (writer(t, k) == rank) touch(t, k, addr_of(t, k), 0);
    }
    if (detached > 0) {
        int k = perm[rnd() % detached];
        i64 got;
        ++n_range;
        CHECK_ERR(MPI_Get(&got, 1, MPI_INT64_T, t, addr_of(t, k), 1, MPI_INT64_T, dwin),
                  MPI_ERR_RMA_RANGE);
        CHECK_ERR(MPI_Accumulate(&got, 1, MPI_INT64_T, t, addr_of(t, k), 1, MPI_INT64_T,
                                 MPI_SUM, dwin), MPI_ERR_RMA_RANGE);
    }
}

static void detach_phase(void)
{
    set_case("detach in random order under traffic");
    limit_mine = detached_mine = 0;
    for (;;) {
        if (detached_mine < nreg) owner_detach_step();
        origin_detach_step();
        if (detached_mine == nreg && all_done(4)) break;
    }
    ctl_write(rank, C_PUBLISHED, 0);    /* for the re-attach phase */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < nreg; ++k) {
        if (is_malloced(k)) { free(mem[k]); mem[k] = NULL; }
    }
}

/* ---- a linked list, one region per node -------------------------------- */

struct node { i64 value, next, count; };

static void linked_list(void)
{
    struct node **nodes = malloc(nlist * sizeof(*nodes));
    int *order = malloc(nlist * sizeof(int));
    MPI_Aint head, *heads = malloc(size * sizeof(MPI_Aint));

    set_case("linked list of %d attached nodes", nlist);
    for (int i = 0; i < nlist; ++i) nodes[i] = malloc(sizeof(struct node));
    for (int i = 0; i < nlist; ++i) {
        MPI_Aint a = 0;
        if (i + 1 < nlist) MPI_Get_address(nodes[i + 1], &a);
        nodes[i]->value = init_val(9, rank, i, 0);
        nodes[i]->next = (i64) a;
        nodes[i]->count = 0;
    }
    permutation(rank + 1000, order, nlist);
    for (int i = 0; i < nlist; ++i) {
        OK(MPI_Win_attach(dwin, nodes[order[i]], sizeof(struct node)));
    }
    MPI_Get_address(nodes[0], &head);
    MPI_Allgather(&head, 1, MPI_AINT, heads, 1, MPI_AINT, MPI_COMM_WORLD);

    for (int d = 1; d < size; ++d) {
        int t = (rank + d) % size, i = 0;
        i64 one = 1, cur = (i64) heads[t];
        while (0 != cur && i <= nlist) {
            i64 got[2] = { -1, 0 };
            OK(MPI_Get(got, 2, MPI_INT64_T, t, (MPI_Aint) cur, 2, MPI_INT64_T, dwin));
            OK(MPI_Accumulate(&one, 1, MPI_INT64_T, t, (MPI_Aint) cur + 2 * sizeof(i64), 1,
                              MPI_INT64_T, MPI_SUM, dwin));
            OK(MPI_Win_flush(t, dwin));
            if (!check_eq("node value", i, init_val(9, t, i, 0), got[0])) break;
            cur = got[1];
            ++i;
        }
        check_eq("nodes walked", t, nlist, i);
    }
    MPI_Win_unlock_all(dwin);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < nlist; ++i) {
        check_eq("node counter", i, size - 1, nodes[i]->count);
        check_eq("node value kept", i, init_val(9, rank, i, 0), nodes[i]->value);
    }
    permutation(rank + 2000, order, nlist);
    for (int i = 0; i < nlist; ++i) {
        OK(MPI_Win_detach(dwin, nodes[order[i]]));
        free(nodes[order[i]]);
    }
    MPI_Win_lock_all(0, dwin);
    free(nodes);
    free(order);
    free(heads);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    i64 *cbase;

    ompix_test_init(&argc, &argv);
    if (argc > 1) nreg = atoi(argv[1]);
    if (argc > 2) nlist = atoi(argv[2]);
    if (size < 2) {
        if (0 == rank) printf("rma_attach_many: needs 2 ranks or more\n");
        return ompix_test_finish("rma_attach_many");
    }
    rnd_state = UINT64_C(0x2545F4914F6CDD1D) + (uint64_t) rank * 7919;
    layout_regions();
    perm_of = malloc((size_t) size * nreg * sizeof(int));
    for (int t = 0; t < size; ++t) permutation(t, perm_of + (size_t) t * nreg, nreg);
    shadow = calloc((size_t) size * nreg * MAXE, sizeof(i64));
    seen = calloc((size_t) size * nreg, 1);

    MPI_Win_allocate((C_ADDR + nreg) * sizeof(i64), sizeof(i64), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &cbase, &cwin);
    ctl = cbase;
    memset(ctl, 0, (C_ADDR + nreg) * sizeof(i64));
    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dwin));
    eh = counting_win_errhandler();
    MPI_Win_set_errhandler(dwin, eh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, cwin);
    MPI_Win_lock_all(0, dwin);

    attach_phase(0, nreg, 0);
    verify_phase(0, nreg);
    errors_phase();
    detach_phase();

    /* re-attach half, new values; shadows start again */
    memset(seen, 0, (size_t) size * nreg);
    attach_phase(2, nreg / 4, 1);
    verify_phase(2, nreg / 4);
    for (int k = nreg / 4; k-- > 0;) OK(MPI_Win_detach(dwin, mem[k]));
    MPI_Barrier(MPI_COMM_WORLD);

    linked_list();
    {
        long n[2] = { n_access, n_range };
        MPI_Reduce(0 == rank ? MPI_IN_PLACE : n, n, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (0 == rank) {
            printf("rma_attach_many: %ld checked accesses to regions, %ld to detached ones\n",
                   n[0], n[1]);
        }
    }

    MPI_Win_unlock_all(dwin);
    MPI_Win_unlock_all(cwin);
    OK(MPI_Win_free(&dwin));
    MPI_Win_free(&cwin);
    MPI_Errhandler_free(&eh);
    for (int k = 0; k < nreg; ++k) {
        if (is_malloced(k)) free(mem[k]);
    }
    free(big); free(big_off); free(mem); free(perm_of); free(shadow); free(seen);
    return ompix_test_finish("rma_attach_many");
}
