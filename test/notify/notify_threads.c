/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=180 threads mca="osc rdma2,sm"
 *
 * Exactly-once consumption under MPI_THREAD_MULTIPLE: every rank's main
 * thread sends MPIX_Put_notify of one byte to the others (100 000
 * notifications in the whole job, spread over the ordered pairs) while four
 * threads per rank consume the rank's one slot range with waitsome + reset.
 * Sender r uses its own 16 slots at each target, and each notification
 * writes its own byte (a value that depends on sender, slot and position),
 * so at the moment a consumer takes a count it checks that at least as
 * many bytes of that slot are in place as notifications were taken on the
 * slot, and that each byte in place is the right one.  At the end every
 * slot's total must equal exactly what was sent to it (nothing lost, none
 * taken twice) and no slot may remain set.  Skipped (exit 0) when the MPI
 * library does not provide MPI_THREAD_MULTIPLE.  Under valgrind only 4 000
 * notifications are sent.  notify_threads_gen.c: the generic path (osc sm:
 * osc pt2pt refuses MPI_THREAD_MULTIPLE).
 */
#include "notify_common.h"
#include <pthread.h>

#define TOTAL 100000
#define TOTAL_VALGRIND 4000
#define SPR 16                       /* slots per sender */
#define CONSUMERS 4
#define FLUSH_EVERY 512

static nwin_t w;
static int total_sent;               /* in the job */
static long per_sender_max;          /* marks per slot, the most any pair needs */
static long expect_total;            /* notifications this rank receives */
static long *slot_expect;            /* [size * SPR] */
static long *slot_taken;             /* [size * SPR], atomically updated */
static long taken_total;             /* atomically updated */
static long *known, *scanpos;        /* [size * SPR]: marks counted so far, under locks[] */
static pthread_mutex_t *locks;
static int consumer_failures;        /* atomically updated */

/* Notifications sender r sends to target t. */
static long pair_count(int r, int t)
{
    long pairs = (long) size * (size - 1);
    long p = (long) r * (size - 1) + (t < r ? t : t - 1);
    return total_sent / pairs + (p < total_sent % pairs);
}

static unsigned char stamp(int r, int s, long j)
{
    return (unsigned char) ((r * 17 + s * 5 + j) % 255 + 1);
}

static MPI_Aint mark_off(int r, int s, long j)
{
    return ((MPI_Aint) r * SPR + s) * per_sender_max + j;
}

static void consumer_fail(const char *fmt, long a, long b, long c)
{
    __atomic_add_fetch(&consumer_failures, 1, __ATOMIC_RELAXED);
    printf("rank %d: %s path: ", rank, PATH_NAME);
    printf(fmt, a, b, c);
    printf("\n");
    fflush(stdout);
}

/* Slot `id` has had `taken` notifications consumed: at least that many
 * of its bytes must be in place, each with the right value. */
static void check_marks(int id, long taken)
{
    int r = id / SPR, s = id % SPR;
    long n = slot_expect[id];
    const volatile unsigned char *m = w.base + mark_off(r, s, 0);

    pthread_mutex_lock(&locks[id]);
    long cnt = known[id], pos = scanpos[id];
    while (cnt < taken && pos < n) {      /* marks arrive roughly in order */
        unsigned char v = m[pos];
        if (0 != v && v != stamp(r, s, pos)) {
            consumer_fail("slot %ld byte %ld holds a wrong value %ld", id, pos, v);
        }
        cnt += 0 != v;
        ++pos;
    }
    if (cnt < taken) {                    /* some arrived behind the scan */
        cnt = 0;
        for (pos = 0; pos < n; ++pos) {
            cnt += 0 != m[pos];
        }
    }
    known[id] = cnt;
    scanpos[id] = pos;
    pthread_mutex_unlock(&locks[id]);
    if (cnt < taken) {
        consumer_fail("slot %ld: %ld notifications taken but only %ld bytes in place", id, taken,
                      cnt);
    }
}

static void *consumer(void *arg)
{
    double end = notify_now() + 60.0;
    (void) arg;
    while (__atomic_load_n(&taken_total, __ATOMIC_ACQUIRE) < expect_total) {
        int id = -7;
        MPI_Count old = -1;
        if (notify_now() > end) {
            consumer_fail("gave up after 60 s with %ld of %ld notifications taken (%ld)",
                          __atomic_load_n(&taken_total, __ATOMIC_ACQUIRE), expect_total, 0);
            break;
        }
        if (MPI_SUCCESS != MPIX_Win_notify_waitsome(w.win, 0, size * SPR, 20, &id)) {
            consumer_fail("waitsome failed (%ld %ld %ld)", 0, 0, 0);
            break;
        }
        if (MPIX_NOTIFY_NONE == id) {
            continue;
        }
        if (id < 0 || id >= size * SPR) {
            consumer_fail("waitsome returned id %ld outside [0, %ld) (%ld)", id, size * SPR, 0);
            break;
        }
        if (MPI_SUCCESS != MPIX_Win_notify_reset(w.win, id, &old) || old < 0) {
            consumer_fail("reset of slot %ld failed or took %ld (%ld)", id, (long) old, 0);
            break;
        }
        if (0 == old) {
            continue;                     /* another consumer took it first */
        }
        long t = __atomic_add_fetch(&slot_taken[id], (long) old, __ATOMIC_ACQ_REL);
        __atomic_add_fetch(&taken_total, (long) old, __ATOMIC_ACQ_REL);
        check_marks(id, t);
    }
    return NULL;
}

static void produce(void)
{
    long sent = 0, *next = calloc(size, sizeof(long)), *n = calloc(size, sizeof(long));
    static unsigned char *src;
    long left = 0;

    for (int t = 0; t < size; ++t) {
        n[t] = t == rank ? 0 : pair_count(rank, t);
        left += n[t];
    }
    /* one source byte per notification: each must stay untouched until
     * its put completes (at the next flush) */
    src = malloc(FLUSH_EVERY);
    OK(MPI_Win_lock_all(0, w.win));
    for (int t = 0; left > 0; t = (t + 1) % size) {
        if (next[t] == n[t]) {
            continue;
        }
        long j = next[t]++;
        int s = (int) (j % SPR);
        unsigned char *b = &src[sent % FLUSH_EVERY];
        *b = stamp(rank, s, j / SPR);
        int rc = MPIX_Put_notify(b, 1, MPI_BYTE, t, nwin_disp(&w, t, mark_off(rank, s, j / SPR)),
                                 1, MPI_BYTE, rank * SPR + s, w.win);
        if (MPI_SUCCESS != rc) {
            notify_fail("put_notify to %d failed with class %d", t, err_class(rc));
            break;
        }
        --left;
        if (0 == ++sent % FLUSH_EVERY) {
            OK(MPI_Win_flush_all(w.win));
        }
    }
    OK(MPI_Win_unlock_all(w.win));
    free(src);
    free(next);
    free(n);
}

static int under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload");
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[CONSUMERS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_MULTIPLE || size < 2) {
        if (0 == rank) {
            printf("notify_threads: skipped (%s)\n", size < 2 ? "needs 2 ranks"
                   : "MPI_THREAD_MULTIPLE not provided");
        }
        MPI_Finalize();
        return 0;
    }
    total_sent = under_valgrind() ? TOTAL_VALGRIND : TOTAL;
    per_sender_max = (pair_count(0, 1) + SPR - 1) / SPR;
    slot_expect = calloc(size * SPR, sizeof(long));
    slot_taken = calloc(size * SPR, sizeof(long));
    known = calloc(size * SPR, sizeof(long));
    scanpos = calloc(size * SPR, sizeof(long));
    locks = malloc(size * SPR * sizeof(*locks));
    for (int r = 0; r < size; ++r) {
        long n = r == rank ? 0 : pair_count(r, rank);
        expect_total += n;
        for (int s = 0; s < SPR; ++s) {
            slot_expect[r * SPR + s] = n / SPR + (s < n % SPR);
            pthread_mutex_init(&locks[r * SPR + s], NULL);
        }
    }

    nwin_open(&w, NF_ALLOCATE, (MPI_Aint) size * SPR * per_sender_max, MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win));
    memset(w.base, 0, (size_t) w.bytes);
    OK(MPI_Win_unlock(rank, w.win));
    MPI_Barrier(MPI_COMM_WORLD);

    for (int i = 0; i < CONSUMERS; ++i) {
        pthread_create(&th[i], NULL, consumer, NULL);
    }
    produce();
    for (int i = 0; i < CONSUMERS; ++i) {
        pthread_join(th[i], NULL);
    }
    ompix_test_failures += consumer_failures;

    CHECK(taken_total == expect_total);
    for (int id = 0; id < size * SPR; ++id) {
        if (slot_taken[id] != slot_expect[id]) {
            notify_fail("%s path: slot %d: %ld notifications taken, %ld sent", PATH_NAME, id,
                        slot_taken[id], slot_expect[id]);
        }
        /* every byte of the slot is in place and right */
        for (long j = 0; j < slot_expect[id]; ++j) {
            unsigned char v = w.base[mark_off(id / SPR, id % SPR, j)];
            if (v != stamp(id / SPR, id % SPR, j)) {
                notify_fail("%s path: slot %d byte %ld is %d, expected %d", PATH_NAME, id, j, v,
                            stamp(id / SPR, id % SPR, j));
                break;
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    notify_check_empty(w.win, 0, size * SPR, "after all were taken");
    if (0 == rank) {
        printf("notify_threads: %s path, %d notifications in the job, %d consumer threads per "
               "rank\n", PATH_NAME, total_sent, CONSUMERS);
    }
    nwin_close(&w);
    for (int i = 0; i < size * SPR; ++i) {
        pthread_mutex_destroy(&locks[i]);
    }
    free(slot_expect);
    free(slot_taken);
    free(known);
    free(scanpos);
    free(locks);
    return ompix_test_finish("notify_threads");
}
