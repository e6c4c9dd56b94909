/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1 timeout=120 mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * MPI_THREAD_MULTIPLE use of one window by several threads, in the ways
 * MPI allows and osc rdma2 claims to support: RMA operations, flushes and
 * request waits from concurrent threads; synchronization calls that open
 * or close epochs (lock_all/unlock_all, fence) only from the main thread,
 * between phases (concurrent synchronization calls on one window are not
 * claimed, README-design.md).  Each phase starts NTHREADS pthreads per
 * rank that begin together (pthread barrier):
 *
 *  - tickets: inside one lock_all epoch every thread takes NFAO tickets
 *    from a 64-bit counter at rank 0 with Fetch_and_op(SUM, 1) + flush;
 *    each thread's tickets must increase, all fetched values over all
 *    threads and ranks must be exactly 0 .. size*NTHREADS*NFAO-1 (rank 0
 *    gathers them), and the counter ends at size*NTHREADS*NFAO;
 *  - put/get: each thread puts its own slots (1, 7 or KMAX elements) at
 *    every rank, flushes, gets them back, flushes and compares; afterwards
 *    every rank checks its whole slot area (last round of every thread of
 *    every origin);
 *  - rput/rget: the same with Rput to every rank, MPI_Wait (same thread),
 *    flush, Rget from every rank, MPI_Wait, compare; target area checked;
 *  - accumulate: every thread adds integer-valued doubles with
 *    Accumulate(SUM, MPI_DOUBLE) to one word at each rank in turn (distinct
 *    origin buffers, no flush until unlock_all); the sum must be exact and
 *    the neighbouring words untouched;
 *  - fence: inside a fence epoch opened and closed by the main thread,
 *    threads put their slots at every rank and add 1 to a 64-bit word at
 *    every rank with Accumulate(SUM, MPI_LONG_LONG); exact target image.
 *
 * If the library does not provide MPI_THREAD_MULTIPLE, the program says so
 * and passes.  Dynamic windows are left out: concurrent operations to one
 * target of a dynamic window are not claimed (README-design.md).
 * Each phase runs on an MPI_Win_create and an MPI_Win_allocate window.  On
 * one node rdma2 moves their data by memcpy (mapped memory) or CMA, never
 * through UCX; so that the UCX data path (flushes of endpoints with
 * pending operations, request completion callbacks) is covered too, runs
 * with np=3 set osc_rdma2_cma=0 (OMPI_MCA_osc_rdma2_cma before
 * MPI_Init_thread, unless already set; the runner has no per-case MCA
 * parameters and rdma2 does not let MPI_T change it); reports then say
 * "(osc_rdma2_cma=0)".  Any launch honours OMPI_MCA_osc_rdma2_cma=0 too.
 * Debugging argument: `rma_threads create|allocate` runs one flavor.
 */
#include "rdma2_common.h"
#include <pthread.h>

#define NTHREADS 4
#define NFAO 150                 /* tickets per thread */
#define KMAX 64                  /* elements per thread and target in put/get */
#define PG_ROUNDS 150            /* put/get rounds per thread (each: every target) */
#define RQ_ROUNDS 150            /* rput/rget rounds per thread */
#define NACC 120                 /* accumulates per thread */

/* Window layout, in 8-byte elements (disp unit 8), the same on every rank. */
enum {
    W_COUNTER = 0,               /* tickets (rank 0) */
    W_ACC = 8,                   /* double accumulate word, W_ACC +- 1 guards */
    W_FENCE_ADD = 16,            /* int64 accumulate word of the fence phase */
    W_SLOTS = 24                 /* size * NTHREADS * KMAX: put/get/rput/fence slots */
};

static MPI_Aint win_elems(void)
{
    return W_SLOTS + (MPI_Aint) size * NTHREADS * KMAX;
}

static MPI_Aint slot(int origin, int tid)
{
    return W_SLOTS + ((MPI_Aint) origin * NTHREADS + tid) * KMAX;
}

/* The value element j of origin o's thread tid writes to target t in
 * round `round` of phase `phase`; never 0. */
static long long stamp(int phase, int o, int tid, int t, int round, int j)
{
    return ((((long long) phase * 64 + o) * NTHREADS + tid) * 64 + t) * 1000000LL +
           (long long) round * 1000 + j + 1;
}

/* Elements a thread moves in round r (the last round always moves KMAX,
 * so the target image after a phase is the last round's). */
static int round_len(int r, int nrounds)
{
    static const int len[3] = {KMAX, 1, 7};
    return r == nrounds - 1 ? KMAX : len[r % 3];
}

/* Reports from threads: rdma2_common.h's reporting keeps static state, so
 * threads go through one mutex.  The case label is set by the main thread
 * before the threads start. */
static pthread_mutex_t report_mu = PTHREAD_MUTEX_INITIALIZER;

#define TOK(tid, call)                                                        \
    do {                                                                      \
        int rc_ = (call);                                                     \
        if (MPI_SUCCESS != rc_) {                                             \
            char s_[MPI_MAX_ERROR_STRING];                                    \
            int l_ = 0;                                                       \
            MPI_Error_string(rc_, s_, &l_);                                   \
            pthread_mutex_lock(&report_mu);                                   \
            fail("thread %d: %s:%d: %s failed: %s", (tid), __FILE__, __LINE__, \
                 #call, s_);                                                  \
            pthread_mutex_unlock(&report_mu);                                 \
        }                                                                     \
    } while (0)

static int tcheck(int tid, const char *what, long idx, long long expected, long long got)
{
    char w[160];
    int ok;
    if (expected == got) {
        return 1;
    }
    snprintf(w, sizeof w, "thread %d: %s", tid, what);
    pthread_mutex_lock(&report_mu);
    ok = check_eq(w, idx, expected, got);
    pthread_mutex_unlock(&report_mu);
    return ok;
}

struct thr {
    pthread_t th;
    int tid;
    struct rwin *w;
    long long fetched[NFAO];
    long long put[KMAX], back[KMAX];
    long long *rput, *rback;     /* size * KMAX each */
    MPI_Request *req;            /* size */
    double acc[NACC];
    long long fone[1];
};

static pthread_barrier_t start_bar;

/* Rank 0's counter, 64-bit Fetch_and_op(SUM, 1) + flush, in lock_all. */
static void *th_tickets(void *arg)
{
    struct thr *T = arg;
    long long one = 1;
    pthread_barrier_wait(&start_bar);
    for (int i = 0; i < NFAO; ++i) {
        T->fetched[i] = -1;
        TOK(T->tid, MPI_Fetch_and_op(&one, &T->fetched[i], MPI_LONG_LONG, 0,
                                     rwin_disp(T->w, 0, W_COUNTER), MPI_SUM, T->w->win));
        TOK(T->tid, MPI_Win_flush(0, T->w->win));
        if (i > 0 && T->fetched[i] <= T->fetched[i - 1]) {
            /* flush completed ticket i-1 before i was issued */
            tcheck(T->tid, "ticket greater than the thread's previous one (previous in expected)",
                   i, T->fetched[i - 1], T->fetched[i]);
        }
    }
    return NULL;
}

static void *th_put_get(void *arg)
{
    struct thr *T = arg;
    MPI_Win win = T->w->win;
    pthread_barrier_wait(&start_bar);
    for (int r = 0; r < PG_ROUNDS; ++r) {
        int k = round_len(r, PG_ROUNDS);
        for (int s = 0; s < size; ++s) {
            int t = (rank + T->tid + r + s) % size;
            MPI_Aint d = rwin_disp(T->w, t, slot(rank, T->tid));
            for (int j = 0; j < k; ++j) {
                T->put[j] = stamp(1, rank, T->tid, t, r, j);
                T->back[j] = 0;
            }
            TOK(T->tid, MPI_Put(T->put, k, ELEM, t, d, k, ELEM, win));
            TOK(T->tid, MPI_Win_flush(t, win));
            TOK(T->tid, MPI_Get(T->back, k, ELEM, t, d, k, ELEM, win));
            TOK(T->tid, MPI_Win_flush(t, win));
            for (int j = 0; j < k; ++j) {
                if (!tcheck(T->tid, "get after put+flush (index: target*1000000+round*1000+element)",
                            (long) t * 1000000 + r * 1000 + j, T->put[j], T->back[j])) {
                    break;
                }
            }
        }
    }
    return NULL;
}

static void *th_rput_rget(void *arg)
{
    struct thr *T = arg;
    MPI_Win win = T->w->win;
    pthread_barrier_wait(&start_bar);
    for (int r = 0; r < RQ_ROUNDS; ++r) {
        int k = round_len(r, RQ_ROUNDS);
        for (int t = 0; t < size; ++t) {
            for (int j = 0; j < k; ++j) {
                T->rput[t * KMAX + j] = stamp(2, rank, T->tid, t, r, j);
                T->rback[t * KMAX + j] = 0;
            }
            T->req[t] = MPI_REQUEST_NULL;
            TOK(T->tid, MPI_Rput(&T->rput[t * KMAX], k, ELEM, t, rwin_disp(T->w, t, slot(rank, T->tid)),
                                 k, ELEM, win, &T->req[t]));
        }
        /* wait in an order that differs between rounds and threads */
        for (int s = 0; s < size; ++s) {
            int t = (s + r + T->tid) % size;
            TOK(T->tid, MPI_Wait(&T->req[t], MPI_STATUS_IGNORE));
            TOK(T->tid, MPI_Win_flush(t, win));
        }
        for (int t = 0; t < size; ++t) {
            T->req[t] = MPI_REQUEST_NULL;
            TOK(T->tid, MPI_Rget(&T->rback[t * KMAX], k, ELEM, t, rwin_disp(T->w, t, slot(rank, T->tid)),
                                 k, ELEM, win, &T->req[t]));
        }
        for (int s = size - 1; s >= 0; --s) {
            int t = (s + r) % size;
            TOK(T->tid, MPI_Wait(&T->req[t], MPI_STATUS_IGNORE));
        }
        for (int t = 0; t < size; ++t) {
            for (int j = 0; j < k; ++j) {
                if (!tcheck(T->tid, "rget after rput+wait+flush (index: target*1000000+round*1000+element)",
                            (long) t * 1000000 + r * 1000 + j, T->rput[t * KMAX + j],
                            T->rback[t * KMAX + j])) {
                    break;
                }
            }
        }
    }
    return NULL;
}

/* Value origin o's thread tid adds in accumulate number i; target of it. */
static double acc_value(int o, int tid, int i)
{
    return (double) ((o * NTHREADS + tid) * 8 + i % 7 + 1);
}

static int acc_target(int o, int tid, int i)
{
    return (o + tid + i) % size;
}

static void *th_accumulate(void *arg)
{
    struct thr *T = arg;
    pthread_barrier_wait(&start_bar);
    for (int i = 0; i < NACC; ++i) {
        int t = acc_target(rank, T->tid, i);
        T->acc[i] = acc_value(rank, T->tid, i);
        TOK(T->tid, MPI_Accumulate(&T->acc[i], 1, MPI_DOUBLE, t, rwin_disp(T->w, t, W_ACC), 1,
                                   MPI_DOUBLE, MPI_SUM, T->w->win));
    }
    return NULL;
}

/* Inside a fence epoch: slots at every rank and one int64 add per target. */
static void *th_fence(void *arg)
{
    struct thr *T = arg;
    MPI_Win win = T->w->win;
    pthread_barrier_wait(&start_bar);
    T->fone[0] = 1;
    for (int s = 0; s < size; ++s) {
        int t = (rank + T->tid + s) % size;
        for (int j = 0; j < KMAX; ++j) {
            T->rput[t * KMAX + j] = stamp(3, rank, T->tid, t, 0, j);
        }
        TOK(T->tid, MPI_Put(&T->rput[t * KMAX], KMAX, ELEM, t, rwin_disp(T->w, t, slot(rank, T->tid)),
                            KMAX, ELEM, win));
        TOK(T->tid, MPI_Accumulate(T->fone, 1, MPI_LONG_LONG, t, rwin_disp(T->w, t, W_FENCE_ADD), 1,
                                   MPI_LONG_LONG, MPI_SUM, win));
    }
    return NULL;
}

static struct thr thr[NTHREADS];
static const char *variant = "";    /* " (osc_rdma2_cma=0)" while CMA is off */

static void run_threads(struct rwin *w, void *(*fn)(void *))
{
    pthread_barrier_init(&start_bar, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; ++i) {
        thr[i].tid = i;
        thr[i].w = w;
        if (pthread_create(&thr[i].th, NULL, fn, &thr[i])) {
            fail("pthread_create failed");
            abort();
        }
    }
    for (int i = 0; i < NTHREADS; ++i) {
        pthread_join(thr[i].th, NULL);
    }
    pthread_barrier_destroy(&start_bar);
}

static void zero_window(struct rwin *w)
{
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    memset(w->base, 0, (size_t) w->nelem * sizeof(elem_t));
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *) a, y = *(const long long *) b;
    return x < y ? -1 : x > y;
}

/* This rank's slot area must hold phase `phase`'s last round from every
 * thread of every origin. */
static void check_slots(struct rwin *w, int phase, int round)
{
    for (int o = 0; o < size; ++o) {
        for (int tid = 0; tid < NTHREADS; ++tid) {
            for (int j = 0; j < KMAX; ++j) {
                if (!check_eq("target slot (index: origin*1000+thread*100+element)",
                              o * 1000 + tid * 100 + j, stamp(phase, o, tid, rank, round, j),
                              w->base[slot(o, tid) + j])) {
                    break;
                }
            }
        }
    }
}

static void phase_tickets(struct rwin *w)
{
    long long total = (long long) size * NTHREADS * NFAO, *all = NULL, mine[NTHREADS * NFAO];
    set_case("%s%s: %d threads x %d Fetch_and_op(SUM, int64) + flush to rank 0 in lock_all",
             flavor_name[w->flavor], variant, NTHREADS, NFAO);
    zero_window(w);
    OK(MPI_Win_lock_all(0, w->win));
    run_threads(w, th_tickets);
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < NTHREADS; ++i) {
        memcpy(&mine[i * NFAO], thr[i].fetched, sizeof thr[i].fetched);
    }
    if (0 == rank) {
        all = malloc((size_t) total * sizeof *all);
    }
    MPI_Gather(mine, NTHREADS * NFAO, MPI_LONG_LONG, all, NTHREADS * NFAO, MPI_LONG_LONG, 0,
               MPI_COMM_WORLD);
    if (0 == rank) {
        qsort(all, (size_t) total, sizeof *all, cmp_ll);
        for (long i = 0; i < total; ++i) {
            if (!check_eq("sorted fetched tickets of all threads and ranks", i, i, all[i])) {
                break;
            }
        }
        free(all);
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w->win));
        check_eq("final counter at rank 0 (size*threads*N)", 0, total, w->base[W_COUNTER]);
        OK(MPI_Win_unlock(0, w->win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void phase_put_get(struct rwin *w)
{
    set_case("%s%s: %d threads Put/flush/Get/flush own slots at every rank in lock_all",
             flavor_name[w->flavor], variant, NTHREADS);
    zero_window(w);
    OK(MPI_Win_lock_all(0, w->win));
    run_threads(w, th_put_get);
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win));
    check_slots(w, 1, PG_ROUNDS - 1);
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void phase_requests(struct rwin *w)
{
    set_case("%s%s: %d threads Rput+Wait+flush, Rget+Wait at every rank in lock_all",
             flavor_name[w->flavor], variant, NTHREADS);
    zero_window(w);
    OK(MPI_Win_lock_all(0, w->win));
    run_threads(w, th_rput_rget);
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win));
    check_slots(w, 2, RQ_ROUNDS - 1);
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void phase_accumulate(struct rwin *w)
{
    double expected = 0, got;
    set_case("%s%s: %d threads x %d Accumulate(SUM, double) to one word per rank in lock_all",
             flavor_name[w->flavor], variant, NTHREADS, NACC);
    zero_window(w);
    OK(MPI_Win_lock_all(0, w->win));
    run_threads(w, th_accumulate);
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int o = 0; o < size; ++o) {
        for (int tid = 0; tid < NTHREADS; ++tid) {
            for (int i = 0; i < NACC; ++i) {
                if (acc_target(o, tid, i) == rank) {
                    expected += acc_value(o, tid, i);
                }
            }
        }
    }
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win));
    memcpy(&got, &w->base[W_ACC], sizeof got);
    if (got != expected) {
        fail("accumulated double at this rank: expected %.1f, got %.17g", expected, got);
    }
    check_eq("guard word before the double", W_ACC - 1, 0, w->base[W_ACC - 1]);
    check_eq("guard word after the double", W_ACC + 1, 0, w->base[W_ACC + 1]);
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void phase_fence(struct rwin *w)
{
    set_case("%s%s: %d threads Put + Accumulate(SUM, int64) at every rank in a fence epoch",
             flavor_name[w->flavor], variant, NTHREADS);
    zero_window(w);
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
    run_threads(w, th_fence);
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
    check_slots(w, 3, 0);
    check_eq("fence accumulate word (size*threads)", W_FENCE_ADD, (long long) size * NTHREADS,
             w->base[W_FENCE_ADD]);
    check_eq("guard word after it", W_FENCE_ADD + 1, 0, w->base[W_FENCE_ADD + 1]);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    const char *np = getenv("OMPI_COMM_WORLD_SIZE"), *cma;
    /* np=3: window data through UCX instead of CMA (see the top). */
    if (NULL != np && 3 == atoi(np) && NULL == getenv("OMPI_MCA_osc_rdma2_cma")) {
        setenv("OMPI_MCA_osc_rdma2_cma", "0", 1);
    }
    cma = getenv("OMPI_MCA_osc_rdma2_cma");
    if (NULL != cma && (0 == strcmp(cma, "0") || 0 == strcmp(cma, "false"))) {
        variant = " (osc_rdma2_cma=0)";
    }
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    if (provided < MPI_THREAD_MULTIPLE) {
        if (0 == rank) {
            printf("rdma2/rma_threads: SKIPPED: MPI_Init_thread(MPI_THREAD_MULTIPLE) provided "
                   "only level %d; nothing tested\n", provided);
        }
        return ompix_test_finish("rdma2/rma_threads");
    }
    for (int i = 0; i < NTHREADS; ++i) {
        thr[i].rput = malloc((size_t) size * KMAX * sizeof(long long));
        thr[i].rback = malloc((size_t) size * KMAX * sizeof(long long));
        thr[i].req = malloc((size_t) size * sizeof(MPI_Request));
    }
    for (int fl = FL_CREATE; fl <= FL_ALLOCATE; ++fl) {
        struct rwin w;
        if (argc > 1 && strcmp(argv[1], flavor_name[fl])) {
            continue;
        }
        set_case("%s%s: window creation", flavor_name[fl], variant);
        rwin_open(&w, fl, win_elems(), MPI_COMM_WORLD);
        phase_tickets(&w);
        phase_put_get(&w);
        phase_requests(&w);
        phase_accumulate(&w);
        phase_fence(&w);
        set_case("%s%s: window free", flavor_name[fl], variant);
        rwin_close(&w);
    }
    for (int i = 0; i < NTHREADS; ++i) {
        free(thr[i].rput);
        free(thr[i].rback);
        free(thr[i].req);
    }
    return ompix_test_finish(*variant ? "rdma2/rma_threads (osc_rdma2_cma=0)" : "rdma2/rma_threads");
}
