/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1 timeout=120 mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Concurrency with exact outcomes:
 *  - tickets: every rank takes 300 tickets from one 64-bit and one 32-bit
 *    counter at rank 0 with Fetch_and_op(SUM, 1) under lock_all; the
 *    fetched values over all ranks must be exactly 0 .. size*300-1, each
 *    once, and the counters end at size*300;
 *  - mixed mechanisms on one word: half the ranks add with Accumulate, half
 *    with Fetch_and_op, some with Get_accumulate, concurrently; exact sum;
 *  - overlapping windows: two windows created over the same memory; ranks
 *    add through both concurrently (Accumulate and Fetch_and_op); the sum
 *    must be exact, so atomicity holds across the two windows.  The same
 *    across an allocated window, a window created over its memory and a
 *    dynamic window it is attached to (different atomicity mechanisms).  This is
 *    stricter than MPI-3.1 11.2.1 (concurrent access through overlapping
 *    windows is undefined there); ompix requires it of rdma2 (one atomicity
 *    mechanism that also holds across overlapping windows, notes/rma.md);
 *  - exclusive-lock contention: every rank increments a counter at rank 0
 *    with a non-atomic Get/flush/Put under MPI_LOCK_EXCLUSIVE; the final
 *    value must be exactly size*iterations (a lost update means two
 *    exclusive epochs overlapped);
 *  - shared readers vs exclusive writers: writers store the same stamp into
 *    two words (with a flush in between) under an exclusive lock; readers
 *    under a shared lock must always see both words equal.
 */
#include "rdma2_common.h"

#define TICKETS 300
#define ROUNDS 100

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *) a, y = *(const long long *) b;
    return x < y ? -1 : x > y;
}

static void tickets(void)
{
    long long *base, one = 1, mine[TICKETS], *all = NULL;
    int ione = 1, imine[TICKETS];
    MPI_Win win;
    set_case("fetch_and_op tickets");
    OK(MPI_Win_allocate(2 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD,
                        &base, &win));
    base[0] = 0;
    base[1] = 0;                 /* an int counter in the first 4 bytes of base[1] */
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < TICKETS; ++i) {
        OK(MPI_Fetch_and_op(&one, &mine[i], MPI_LONG_LONG, 0, 0, MPI_SUM, win));
        OK(MPI_Fetch_and_op(&ione, &imine[i], MPI_INT, 0, 1, MPI_SUM, win));
        OK(MPI_Win_flush(0, win));
    }
    OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        all = malloc((size_t) size * TICKETS * 2 * sizeof(long long));
    }
    long long both[2 * TICKETS];
    for (int i = 0; i < TICKETS; ++i) {
        both[i] = mine[i];
        both[TICKETS + i] = imine[i];
    }
    MPI_Gather(both, 2 * TICKETS, MPI_LONG_LONG, all, 2 * TICKETS, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        long long *l = malloc((size_t) size * TICKETS * sizeof(long long));
        long long *i32 = malloc((size_t) size * TICKETS * sizeof(long long));
        for (int r = 0; r < size; ++r) {
            for (int i = 0; i < TICKETS; ++i) {
                l[r * TICKETS + i] = all[r * 2 * TICKETS + i];
                i32[r * TICKETS + i] = all[r * 2 * TICKETS + TICKETS + i];
            }
        }
        qsort(l, (size_t) size * TICKETS, sizeof *l, cmp_ll);
        qsort(i32, (size_t) size * TICKETS, sizeof *i32, cmp_ll);
        for (int i = 0; i < size * TICKETS; ++i) {
            check_eq("sorted 64-bit ticket", i, i, l[i]);
            check_eq("sorted 32-bit ticket", i, i, i32[i]);
        }
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        check_eq("final 64-bit counter", 0, (long long) size * TICKETS, base[0]);
        int ic;
        memcpy(&ic, &base[1], sizeof ic);
        check_eq("final 32-bit counter", 0, (long long) size * TICKETS, ic);
        OK(MPI_Win_unlock(0, win));
        free(l);
        free(i32);
        free(all);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

#define MIXED_ROUNDS 2000

/* Adds to one word through three windows over the same memory at once: the
 * allocated window itself (element-wise CPU atomics on one node), a window
 * created over it and a dynamic window it is attached to (both updated under
 * the target's accumulate lock).  Exact only if the allocated window's
 * accumulates fall back to the lock once its memory is overlapped. */
static void adders_across_flavors(void)
{
    long long *mem, one = 1, got;
    MPI_Aint *addr = malloc((size_t) size * sizeof(MPI_Aint)), mine;
    MPI_Win w[3];
    set_case("concurrent adds through allocated, created and dynamic windows over the same memory");
    OK(MPI_Win_allocate(4 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD,
                        &mem, &w[0]));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w[0]));
    memset(mem, 0, 4 * sizeof(long long));
    OK(MPI_Win_unlock(rank, w[0]));
    OK(MPI_Win_create(mem, 4 * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                      MPI_COMM_WORLD, &w[1]));
    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w[2]));
    OK(MPI_Win_attach(w[2], mem, 4 * sizeof(long long)));
    MPI_Get_address(&mem[2], &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD);
    for (int k = 0; k < 3; ++k) {
        OK(MPI_Win_lock_all(0, w[k]));
    }
    for (int i = 0; i < MIXED_ROUNDS; ++i) {
        int k = (i + rank) % 3, t = (i + rank) % size;
        MPI_Aint disp = 2 == k ? addr[t] : 2;
        if (0 == i % 2) {
            OK(MPI_Accumulate(&one, 1, MPI_LONG_LONG, t, disp, 1, MPI_LONG_LONG, MPI_SUM, w[k]));
        } else {
            OK(MPI_Fetch_and_op(&one, &got, MPI_LONG_LONG, t, disp, MPI_SUM, w[k]));
        }
        OK(MPI_Win_flush(t, w[k]));
    }
    for (int k = 0; k < 3; ++k) {
        OK(MPI_Win_unlock_all(w[k]));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w[0]));
    long long exp = 0;
    for (int o = 0; o < size; ++o) {
        for (int i = 0; i < MIXED_ROUNDS; ++i) {
            exp += (i + o) % size == rank;
        }
    }
    check_eq("final sum", 2, exp, mem[2]);
    check_eq("untouched neighbour word", 1, 0, mem[1]);
    check_eq("untouched neighbour word", 3, 0, mem[3]);
    OK(MPI_Win_unlock(rank, w[0]));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_detach(w[2], mem));
    OK(MPI_Win_free(&w[2]));
    OK(MPI_Win_free(&w[1]));
    OK(MPI_Win_free(&w[0]));
    free(addr);
}

/* Accumulate, Fetch_and_op and Get_accumulate adding to one word at once,
 * through one window or through two windows over the same memory. */
static void adders(int two_windows)
{
    long long *mem = calloc(4, sizeof(long long)), one = 1, got, sum;
    MPI_Win w[2];
    int n = two_windows ? 2 : 1;
    set_case("concurrent adds through %s", two_windows ? "two overlapping windows" : "one window");
    for (int k = 0; k < n; ++k) {
        OK(MPI_Win_create(mem, 4 * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                          MPI_COMM_WORLD, &w[k]));
    }
    for (int k = 0; k < n; ++k) {
        OK(MPI_Win_lock_all(0, w[k]));
    }
    for (int i = 0; i < ROUNDS; ++i) {
        MPI_Win x = w[(i + rank) % n];
        int t = (i + rank) % size;              /* every rank is a target */
        switch ((i + rank) % 3) {
        case 0: OK(MPI_Accumulate(&one, 1, MPI_LONG_LONG, t, 2, 1, MPI_LONG_LONG, MPI_SUM, x)); break;
        case 1: OK(MPI_Fetch_and_op(&one, &got, MPI_LONG_LONG, t, 2, MPI_SUM, x)); break;
        case 2:
            OK(MPI_Get_accumulate(&one, 1, MPI_LONG_LONG, &got, 1, MPI_LONG_LONG, t, 2, 1,
                                  MPI_LONG_LONG, MPI_SUM, x));
            break;
        }
        OK(MPI_Win_flush(t, x));
    }
    for (int k = 0; k < n; ++k) {
        OK(MPI_Win_unlock_all(w[k]));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < n; ++k) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w[k]));
        sum = mem[2];
        OK(MPI_Win_unlock(rank, w[k]));
        /* ROUNDS adds per origin spread evenly over the targets */
        long long exp = 0;
        for (int o = 0; o < size; ++o) {
            for (int i = 0; i < ROUNDS; ++i) {
                exp += (i + o) % size == rank;
            }
        }
        check_eq("final sum", 2, exp, sum);
        check_eq("untouched neighbour word", 1, 0, mem[1]);
        check_eq("untouched neighbour word", 3, 0, mem[3]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < n; ++k) {
        OK(MPI_Win_free(&w[k]));
    }
    free(mem);
}

/* Non-atomic read-modify-write under an exclusive lock. */
static void contention(int flavor)
{
    struct rwin w;
    long long v;
    set_case("exclusive-lock counter on %s window", flavor_name[flavor]);
    rwin_open(&w, flavor, 2, MPI_COMM_WORLD);
    w.base[0] = 0;
    w.base[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < ROUNDS; ++i) {
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w.win));
        OK(MPI_Get(&v, 1, ELEM, 0, rwin_disp(&w, 0, 0), 1, ELEM, w.win));
        OK(MPI_Win_flush(0, w.win));
        v += 1;
        OK(MPI_Put(&v, 1, ELEM, 0, rwin_disp(&w, 0, 0), 1, ELEM, w.win));
        OK(MPI_Win_unlock(0, w.win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w.win));
        check_eq("final counter", 0, (long long) size * ROUNDS, w.base[0]);
        OK(MPI_Win_unlock(0, w.win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
}

/* Odd ranks write (exclusive), even ranks read (shared). */
static void readers_writers(void)
{
    struct rwin w;
    long long pair[2], stamp;
    int t = size - 1;
    set_case("shared readers vs exclusive writers");
    rwin_open(&w, FL_ALLOCATE, 2, MPI_COMM_WORLD);
    w.base[0] = 0;
    w.base[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < ROUNDS; ++i) {
        if (rank % 2) {
            stamp = (long long) rank * 1000000 + i + 1;
            OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, w.win));
            OK(MPI_Put(&stamp, 1, ELEM, t, 0, 1, ELEM, w.win));
            OK(MPI_Win_flush(t, w.win));
            OK(MPI_Put(&stamp, 1, ELEM, t, 1, 1, ELEM, w.win));
            OK(MPI_Win_unlock(t, w.win));
        } else {
            OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w.win));
            OK(MPI_Get(pair, 2, ELEM, t, 0, 2, ELEM, w.win));
            OK(MPI_Win_unlock(t, w.win));
            check_eq("second word equals first word", i, pair[0], pair[1]);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    tickets();
    adders(0);
    adders(1);
    adders_across_flavors();
    for (int fl = FL_CREATE; fl <= FL_DYNAMIC; ++fl) {
        contention(fl);
    }
    readers_writers();
    return ompix_test_finish("rdma2/rma_concurrency");
}
