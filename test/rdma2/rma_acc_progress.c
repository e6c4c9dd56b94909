/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1 timeout=120 mca="osc rdma2,sm osc_rdma2_cma 0 osc_rdma2_progress_thread always"
 *
 * Request-based accumulates advance while their origin computes outside
 * MPI, when the progress thread is on.  With osc_rdma2_cma 0 the data of
 * created and dynamic windows goes through UCX, where Raccumulate and
 * Rget_accumulate run as state machines (lock, fetch, update and
 * write-back, release).  Rank 0 issues NR of them (64 elements, SUM, one
 * place; and Rget_accumulate SUM on a counter) to rank 1 under a shared
 * lock and then makes no MPI call: it waits on a flag in a shared file.
 * Rank 1 polls MPI and reads its own window memory until every update is
 * there (or 60 s passed), then raises the flag; rank 0 then completes the
 * requests and checks the fetched values (the i-th sees i adds).  Without
 * a progress thread that runs the machines' next steps (only the UCX
 * callbacks of the current one), rank 1 never sees the updates.  A rank
 * that sees them too late says so; no timing is asserted.
 */
#include "rdma2_common.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define NR 20
#define W 64
#define NE (W + 1)          /* [0, W): SUM target; W: fetch counter */

static elem_t init(int r, int i) { return (elem_t) r * 100000 + i * 3 - 7; }

/* What rank 1's part holds once every update landed. */
static elem_t expected(int i)
{
    elem_t e = init(1, i);

    if (W == i) return e + NR;
    for (int k = 0; k < NR; ++k) e += (elem_t) k * 5 + i;
    return e;
}

static int all_landed(const struct rwin *w)
{
    for (int i = 0; i < NE; ++i) {
        if (((volatile elem_t *) w->base)[i] != expected(i)) return 0;
    }
    return 1;
}

static void advance_outside_mpi(int flavor, volatile int *flag)
{
    struct rwin w;
    MPI_Request req[2 * NR];
    elem_t src[NR * W], one = 1, got[NR];
    int n = 0;

    set_case("Raccumulate advances while the origin is outside MPI, %s window",
             flavor_name[flavor]);
    rwin_open(&w, flavor, NE, MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win));
    for (int i = 0; i < NE; ++i) w.base[i] = init(rank, i);
    OK(MPI_Win_unlock(rank, w.win));
    if (0 == rank) flag[0] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        time_t t0;
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w.win));
        for (int k = 0; k < NR; ++k) {
            for (int i = 0; i < W; ++i) src[k * W + i] = (elem_t) k * 5 + i;
            got[k] = -1;
            OK(MPI_Raccumulate(&src[k * W], W, ELEM, 1, rwin_disp(&w, 1, 0), W, ELEM, MPI_SUM,
                               w.win, &req[n++]));
            OK(MPI_Rget_accumulate(&one, 1, ELEM, &got[k], 1, ELEM, 1, rwin_disp(&w, 1, W), 1,
                                   ELEM, MPI_SUM, w.win, &req[n++]));
        }
        t0 = time(NULL);
        while (0 == flag[0] && time(NULL) - t0 < 70) {  /* outside MPI */
        }
        if (1 != flag[0]) fail("rank 1 did not see the updates while rank 0 was outside MPI");
        OK(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
        OK(MPI_Win_unlock(1, w.win));
        for (int k = 0; k < NR; ++k) {
            check_eq("k-th Rget_accumulate fetched", k, init(1, W) + k, got[k]);
        }
    } else if (1 == rank) {
        time_t t0 = time(NULL);
        int seen = 0, any;
        while (!(seen = all_landed(&w)) && time(NULL) - t0 < 60) {
            MPI_Iprobe(MPI_ANY_SOURCE, 4711, MPI_COMM_WORLD, &any, MPI_STATUS_IGNORE);
        }
        flag[0] = seen ? 1 : 2;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (1 == rank) {
        for (int i = 0; i < NE; ++i) {
            check_eq("target element at the end", i, expected(i), ((volatile elem_t *) w.base)[i]);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
}

int main(int argc, char **argv)
{
    char name[64] = {0};
    volatile int *flag = NULL;
    int fd = -1;

    ompix_test_init(&argc, &argv);
    snprintf(name, sizeof name, "/dev/shm/ompix-acc-progress-%d", (int) getpid());
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || 0 != ftruncate(fd, 4096)) fail("cannot create %s", name);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 != rank) fd = open(name, O_RDWR);
    if (fd >= 0) flag = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (MAP_FAILED == (void *) flag) flag = NULL;
    if (NULL == flag) {
        fail("cannot map %s", name);
    } else {
        advance_outside_mpi(FL_CREATE, flag);
        advance_outside_mpi(FL_DYNAMIC, flag);
        munmap((void *) flag, 4096);
    }
    if (fd >= 0) close(fd);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) unlink(name);
    return ompix_test_finish("rdma2/rma_acc_progress");
}
