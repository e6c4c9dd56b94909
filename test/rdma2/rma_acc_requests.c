/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1 timeout=120 mca="osc rdma2,sm osc_rdma2_cma 0 osc_rdma2_progress_thread 0 osc_rdma2_acc_path lock" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Raccumulate and Rget_accumulate as outstanding requests.  With
 * osc_rdma2_cma 0 the data of created and dynamic windows goes through
 * UCX (lock words mapped over shm, UCX atomics over TCP), where these
 * operations run as state machines (osc_rdma2_acc_path lock: by default
 * a TCP target gets Raccumulate as one active message, whose request
 * completes in the call; rma_am covers that path); allocated windows take
 * the mapped paths over shm.  On every flavor, under lock_all:
 *  - ordering: each rank issues, without completing any, NK Raccumulate
 *    SUM of 64 elements onto the same 64 elements of its right
 *    neighbour, NK Raccumulate REPLACE of i onto one element (the last
 *    must win), and NK Rget_accumulate SUM of 1 on one element (the i-th
 *    must fetch init + i), one MPI_Waitall for all; every fetched value
 *    and the target elements are checked exactly;
 *  - contention: every rank issues NC Raccumulate SUM (and NC
 *    Rget_accumulate NO_OP) to rank 0 at once, completed by
 *    MPI_Testany polling then MPI_Win_flush; the sum is exact.
 *  - completion by the epoch: rank 0 issues Raccumulate SUM (64
 *    elements) and Rget_accumulate SUM to rank 1 under a shared lock,
 *    then MPI_Win_flush or MPI_Win_unlock, and makes no MPI call after
 *    that until rank 1 has checked: the fetched values must be in place
 *    at once (before MPI_Waitall), and rank 1, polling MPI until rank 0
 *    raises a flag in a shared file, must find every update in its
 *    window memory.  Meanwhile the other ranks keep rank 1's accumulate
 *    lock busy with blocking accumulates elsewhere in its part, so that
 *    some of rank 0's requests wait for it.
 * Over TCP, a proof that the requests are outstanding: rank 1 waits
 * outside MPI (no progress: no progress thread) on a flag in a shared
 * file while rank 0 issues Raccumulates to it on a created window; they
 * cannot complete before rank 1 calls MPI again, so MPI_Testall must say
 * false; then rank 0 raises the flag and waits for them (rank 1 gives up
 * waiting after 60 s so a blocking implementation fails instead of
 * hanging).  MPI lets an implementation complete Raccumulate locally
 * (stock osc pt2pt does): that check is about rdma2, whose requests
 * complete after the release of the target's accumulate lock.
 */
#include "rdma2_common.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define NK 300
#define NC 200
#define W 64
/* element layout: [0, W) SUM target; W: REPLACE target; W+1: fetch counter;
 * W+2: contention sum at rank 0 */
#define NE (W + 3)

static elem_t init(int r, int i) { return (elem_t) r * 100000 + i * 3 - 7; }

static void fill(struct rwin *w)
{
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    for (int i = 0; i < NE; ++i) w->base[i] = init(rank, i);
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void ordering(int flavor)
{
    struct rwin w;
    MPI_Request *req = malloc(3 * NK * sizeof(MPI_Request));
    elem_t *src = malloc(NK * W * sizeof(elem_t)), *rep = malloc(NK * sizeof(elem_t));
    elem_t *one = malloc(NK * sizeof(elem_t)), *got = malloc(NK * sizeof(elem_t));
    int t = right, n = 0;

    set_case("ordering of request-based accumulates on a %s window", flavor_name[flavor]);
    rwin_open(&w, flavor, NE, MPI_COMM_WORLD);
    fill(&w);
    OK(MPI_Win_lock_all(0, w.win));
    for (int k = 0; k < NK; ++k) {
        for (int i = 0; i < W; ++i) src[k * W + i] = (elem_t) rank * 7 + k * 11 + i;
        rep[k] = 1000 * rank + k;
        one[k] = 1;
        got[k] = -1;
        OK(MPI_Raccumulate(&src[k * W], W, ELEM, t, rwin_disp(&w, t, 0), W, ELEM, MPI_SUM, w.win,
                           &req[n++]));
        OK(MPI_Raccumulate(&rep[k], 1, ELEM, t, rwin_disp(&w, t, W), 1, ELEM, MPI_REPLACE, w.win,
                           &req[n++]));
        OK(MPI_Rget_accumulate(&one[k], 1, ELEM, &got[k], 1, ELEM, t, rwin_disp(&w, t, W + 1), 1,
                               ELEM, MPI_SUM, w.win, &req[n++]));
    }
    OK(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
    for (int k = 0; k < NK; ++k) check_eq("k-th Rget_accumulate fetched", k, init(t, W + 1) + k, got[k]);
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w.win));
    for (int i = 0; i < W; ++i) {
        elem_t e = init(rank, i);
        for (int k = 0; k < NK; ++k) e += (elem_t) left * 7 + k * 11 + i;
        check_eq("element after NK Raccumulate SUM", i, e, w.base[i]);
    }
    check_eq("element after NK Raccumulate REPLACE (the last wins)", W, 1000 * left + NK - 1,
             w.base[W]);
    check_eq("counter after NK Rget_accumulate", W + 1, init(rank, W + 1) + NK, w.base[W + 1]);
    OK(MPI_Win_unlock(rank, w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
    free(req);
    free(src);
    free(rep);
    free(one);
    free(got);
}

static void contention(int flavor)
{
    struct rwin w;
    MPI_Request *req = malloc(2 * NC * sizeof(MPI_Request));
    elem_t *v = malloc(NC * sizeof(elem_t)), *old = malloc(NC * sizeof(elem_t)), dummy = 0;
    int n = 0, done = 0;

    set_case("all ranks' request-based accumulates to rank 0 on a %s window", flavor_name[flavor]);
    rwin_open(&w, flavor, NE, MPI_COMM_WORLD);
    fill(&w);
    OK(MPI_Win_lock_all(0, w.win));
    for (int k = 0; k < NC; ++k) {
        v[k] = (elem_t) rank * 1000 + k;
        old[k] = 0;
        OK(MPI_Raccumulate(&v[k], 1, ELEM, 0, rwin_disp(&w, 0, W + 2), 1, ELEM, MPI_SUM, w.win,
                           &req[n++]));
        OK(MPI_Rget_accumulate(&dummy, 1, ELEM, &old[k], 1, ELEM, 0, rwin_disp(&w, 0, W + 2), 1,
                               ELEM, MPI_NO_OP, w.win, &req[n++]));
    }
    while (done < n) {
        int idx, flag;
        OK(MPI_Testany(n, req, &idx, &flag, MPI_STATUS_IGNORE));
        if (flag && MPI_UNDEFINED == idx) break;
        done += flag;
    }
    OK(MPI_Win_flush(0, w.win));
    /* our own adds are ordered: the k-th NO_OP saw at least k+1 of them */
    for (int k = 1; k < NC; ++k) {
        if (old[k] < old[k - 1]) fail("fetched sum went down at %d", k);
    }
    OK(MPI_Win_unlock_all(w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        elem_t e = init(0, W + 2);
        for (int r = 0; r < size; ++r) {
            for (int k = 0; k < NC; ++k) e += (elem_t) r * 1000 + k;
        }
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w.win));
        check_eq("sum of every rank's Raccumulate", W + 2, e, w.base[W + 2]);
        OK(MPI_Win_unlock(0, w.win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
    free(req);
    free(v);
    free(old);
}

/* Flags every rank sees outside MPI: a shared file's page (NULL when it
 * could not be mapped). */
struct flags {
    char name[64];
    int fd;
    volatile int *flag;
};

static void flags_open(struct flags *f)
{
    memset(f->name, 0, sizeof f->name);
    f->fd = -1;
    snprintf(f->name, sizeof f->name, "/dev/shm/ompix-acc-req-%d", (int) getpid());
    MPI_Bcast(f->name, sizeof f->name, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        f->fd = open(f->name, O_RDWR | O_CREAT | O_TRUNC, 0600);
        if (f->fd < 0 || 0 != ftruncate(f->fd, 4096)) fail("cannot create %s", f->name);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 != rank) f->fd = open(f->name, O_RDWR);
    f->flag = f->fd >= 0 ? mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0) : NULL;
    if (MAP_FAILED == (void *) f->flag) f->flag = NULL;
    if (NULL == f->flag) fail("cannot map %s", f->name);
}

static void flags_close(struct flags *f)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (NULL != f->flag) munmap((void *) f->flag, 4096);
    if (f->fd >= 0) close(f->fd);
    if (0 == rank) unlink(f->name);
}

/* Until flag i is raised, outside MPI (progress: false) or polling MPI;
 * false after 60 s. */
static int flags_wait(struct flags *f, int i, int progress)
{
    time_t t0 = time(NULL);

    while (NULL != f->flag && 0 == f->flag[i]) {
        if (time(NULL) - t0 > 60) return 0;
        if (progress) {
            int any;
            MPI_Iprobe(MPI_ANY_SOURCE, 4711, MPI_COMM_WORLD, &any, MPI_STATUS_IGNORE);
        }
    }
    return NULL != f->flag;
}

#define NE_EPOCH 50

/* Raccumulates complete with MPI_Win_flush / MPI_Win_unlock (flush: 1). */
static void epoch_completion(int flavor, int flush)
{
    struct rwin w;
    struct flags f;
    MPI_Request req[2 * NE_EPOCH];
    elem_t *src = malloc(NE_EPOCH * W * sizeof(elem_t)), one = 1, got[NE_EPOCH];
    int n = 0;

    set_case("Raccumulate completed by MPI_Win_%s on a %s window", flush ? "flush" : "unlock",
             flavor_name[flavor]);
    flags_open(&f);
    rwin_open(&w, flavor, NE, MPI_COMM_WORLD);
    fill(&w);
    if (0 == rank) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w.win));
        for (int k = 0; k < NE_EPOCH; ++k) {
            for (int i = 0; i < W; ++i) src[k * W + i] = (elem_t) k * 5 + i;
            got[k] = -1;
            OK(MPI_Raccumulate(&src[k * W], W, ELEM, 1, rwin_disp(&w, 1, 0), W, ELEM, MPI_SUM,
                               w.win, &req[n++]));
            OK(MPI_Rget_accumulate(&one, 1, ELEM, &got[k], 1, ELEM, 1, rwin_disp(&w, 1, W + 1),
                                   1, ELEM, MPI_SUM, w.win, &req[n++]));
        }
        OK(flush ? MPI_Win_flush(1, w.win) : MPI_Win_unlock(1, w.win));
        /* no MPI call until rank 1 has looked */
        for (int k = 0; k < NE_EPOCH; ++k) {
            check_eq("Rget_accumulate result right after the epoch call", k,
                     init(1, W + 1) + k, got[k]);
        }
        if (NULL != f.flag) f.flag[0] = 1;
        if (!flags_wait(&f, 1, 0)) fail("rank 1 did not check within 60 s");
        OK(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
        if (flush) OK(MPI_Win_unlock(1, w.win));
    } else if (1 == rank) {
        if (!flags_wait(&f, 0, 1)) fail("rank 0 did not raise its flag within 60 s");
        for (int i = 0; i < W; ++i) {
            elem_t e = init(1, i);
            for (int k = 0; k < NE_EPOCH; ++k) e += (elem_t) k * 5 + i;
            check_eq("element seen by the target after the origin's epoch call", i, e,
                     ((volatile elem_t *) w.base)[i]);
        }
        check_eq("counter seen by the target after the origin's epoch call", W + 1,
                 init(1, W + 1) + NE_EPOCH, ((volatile elem_t *) w.base)[W + 1]);
        if (NULL != f.flag) f.flag[1] = 1;
    } else {
        time_t t0 = time(NULL);
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w.win));
        while (NULL != f.flag && 0 == f.flag[0] && time(NULL) - t0 < 60) {
            OK(MPI_Accumulate(&one, 1, ELEM, 1, rwin_disp(&w, 1, W + 2), 1, ELEM, MPI_SUM,
                              w.win));
            OK(MPI_Win_flush(1, w.win));
        }
        OK(MPI_Win_unlock(1, w.win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
    flags_close(&f);
    free(src);
}

/* Over TCP, with no progress thread: rank 0 issues NOUT requests toward
 * rank 1 through `issue` under lock_all while rank 1 waits outside MPI on
 * a flag in a shared file; MPI_Testall must find them not all complete,
 * then rank 0 raises the flag and waits for them. */
#define NOUT 16
static void outstanding_while_away(struct rwin *w, const char *what,
                                   void (*issue)(struct rwin *w, int k, MPI_Request *req))
{
    struct flags f;
    volatile int *flag;
    MPI_Request req[NOUT];
    int all = 1;

    flags_open(&f);
    flag = f.flag;
    MPI_Barrier(MPI_COMM_WORLD);
    if (1 == rank && NULL != flag) {
        time_t t0 = time(NULL);
        while (0 == *flag && time(NULL) - t0 < 60) {     /* outside MPI: no progress */
        }
    } else if (0 == rank) {
        OK(MPI_Win_lock_all(0, w->win));
        for (int k = 0; k < NOUT; ++k) {
            issue(w, k, &req[k]);
        }
        OK(MPI_Testall(NOUT, req, &all, MPI_STATUSES_IGNORE));
        if (all) fail("%d %s complete while their target was outside MPI", NOUT, what);
        if (NULL != flag) *flag = 1;
        OK(MPI_Waitall(NOUT, req, MPI_STATUSES_IGNORE));
        OK(MPI_Win_unlock_all(w->win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    flags_close(&f);
}

static elem_t outstanding_v[NOUT];

static void outstanding_issue(struct rwin *w, int k, MPI_Request *req)
{
    outstanding_v[k] = k + 1;
    OK(MPI_Raccumulate(&outstanding_v[k], 1, ELEM, 1, rwin_disp(w, 1, W + 2), 1, ELEM, MPI_SUM,
                       w->win, req));
}

/* Over TCP: requests outstanding while the target makes no progress. */
static void outstanding(void)
{
    struct rwin w;

    set_case("Raccumulate outstanding while the target is outside MPI");
    rwin_open(&w, FL_CREATE, NE, MPI_COMM_WORLD);
    fill(&w);
    outstanding_while_away(&w, "Raccumulates", outstanding_issue);
    if (1 == rank) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w.win));
        check_eq("target after the outstanding Raccumulates", W + 2, init(1, W + 2) + 136,
                 w.base[W + 2]);
        OK(MPI_Win_unlock(1, w.win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
}

#ifndef RMA_ACC_REQUESTS_NO_MAIN
int main(int argc, char **argv)
{
    const char *tls = getenv("UCX_TLS");

    ompix_test_init(&argc, &argv);
    for (int f = FL_CREATE; f <= FL_DYNAMIC; ++f) {
        ordering(f);
        contention(f);
        epoch_completion(f, 1);
        epoch_completion(f, 0);
    }
    if (NULL != tls && NULL != strstr(tls, "tcp")) {
        outstanding();
    }
    return ompix_test_finish("rdma2/rma_acc_requests");
}
#endif
