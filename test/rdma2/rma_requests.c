/*
 * ompix-test: np=2,3,4 tls=shm,tcp,net pml=ob1 timeout=240 paths="win:ucx" mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * Request-based RMA with thousands of operations outstanding, on an
 * allocate and a dynamic window: 5000 Rput of one element each to the
 * right neighbour then one MPI_Waitall; 5000 Rget then completion with
 * MPI_Testall polling; 2000 Raccumulate (SUM) then MPI_Waitany one by one;
 * 2000 Rget_accumulate (SUM) completed with MPI_Testsome; every origin
 * buffer is overwritten as soon as its request completes (local
 * completion), and every element is checked at the target and every
 * fetched value at the origin.  Also: requests completed by MPI_Wait after
 * MPI_Win_unlock_all, and Rput/Rget requests that are MPI_Test'ed to
 * completion before a flush.  Stock osc ucx needs ~75 s at np=4 over tcp
 * (osc pt2pt ~2 s), hence timeout=240.
 */
#include "rdma2_common.h"

#define NR 5000
#define NA 2000

static elem_t val(int o, int i) { return (elem_t) o * 1000003 + i * 7 + 1; }

static void run(int flavor)
{
    struct rwin w;
    elem_t *src = malloc(NR * sizeof(elem_t)), *dst = malloc(NR * sizeof(elem_t));
    MPI_Request *req = malloc(NR * sizeof(MPI_Request));
    int *idx = malloc(NR * sizeof(int)), t = right, done, flag;

    set_case("requests on %s window", flavor_name[flavor]);
    /* elements [0, NR): Rput target; [NR, 2NR): Rget source; [2NR, 2NR+NA): accumulates */
    rwin_open(&w, flavor, 2 * NR + NA, MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.win));
    for (int i = 0; i < 2 * NR + NA; ++i) {
        w.base[i] = -1 - i;
    }
    OK(MPI_Win_unlock(rank, w.win));
    MPI_Barrier(MPI_COMM_WORLD);

    OK(MPI_Win_lock_all(0, w.win));
    /* 5000 Rput, Waitall */
    for (int i = 0; i < NR; ++i) {
        src[i] = val(rank, i);
        OK(MPI_Rput(&src[i], 1, ELEM, t, rwin_disp(&w, t, i), 1, ELEM, w.win, &req[i]));
    }
    OK(MPI_Waitall(NR, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < NR; ++i) {
        src[i] = -7;
    }
    /* 5000 Rget of the target's initial values, Testall */
    for (int i = 0; i < NR; ++i) {
        dst[i] = 0;
        OK(MPI_Rget(&dst[i], 1, ELEM, t, rwin_disp(&w, t, NR + NR - 1 - i), 1, ELEM, w.win, &req[i]));
    }
    for (flag = 0; !flag;) {
        OK(MPI_Testall(NR, req, &flag, MPI_STATUSES_IGNORE));
    }
    for (int i = 0; i < NR; ++i) {
        check_eq("Rget result", i, -1 - (NR + NR - 1 - i), dst[i]);
    }
    /* 2000 Raccumulate, Waitany */
    for (int i = 0; i < NA; ++i) {
        src[i] = val(rank, i);
        OK(MPI_Raccumulate(&src[i], 1, ELEM, t, rwin_disp(&w, t, 2 * NR + i), 1, ELEM, MPI_SUM,
                           w.win, &req[i]));
    }
    for (done = 0; done < NA; ++done) {
        int k;
        OK(MPI_Waitany(NA, req, &k, MPI_STATUS_IGNORE));
        if (k < 0 || k >= NA) {
            fail("MPI_Waitany returned index %d", k);
            break;
        }
        src[k] = -7;
    }
    OK(MPI_Win_flush(t, w.win));
    /* 2000 Rget_accumulate on the same elements, Testsome */
    for (int i = 0; i < NA; ++i) {
        src[i] = 1000;
        dst[i] = 0;
        OK(MPI_Rget_accumulate(&src[i], 1, ELEM, &dst[i], 1, ELEM, t, rwin_disp(&w, t, 2 * NR + i),
                               1, ELEM, MPI_SUM, w.win, &req[i]));
    }
    for (done = 0; done < NA;) {
        int n;
        OK(MPI_Testsome(NA, req, &n, idx, MPI_STATUSES_IGNORE));
        if (MPI_UNDEFINED == n) {
            fail("MPI_Testsome: no active request left after %d of %d", done, NA);
            break;
        }
        for (int j = 0; j < n; ++j) {
            src[idx[j]] = -7;
        }
        done += n;
    }
    for (int i = 0; i < NA; ++i) {
        check_eq("Rget_accumulate result", i, -1 - (2 * NR + i) + val(rank, i), dst[i]);
    }
    /* Rput/Rget tested to completion, then a flush; a Wait after unlock_all */
    elem_t one = val(rank, 77), back = 0, last = val(rank, 78);
    MPI_Request r2;
    OK(MPI_Rput(&one, 1, ELEM, t, rwin_disp(&w, t, 5), 1, ELEM, w.win, &req[0]));
    for (flag = 0; !flag;) {
        OK(MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE));
    }
    OK(MPI_Win_flush(t, w.win));
    OK(MPI_Rget(&back, 1, ELEM, t, rwin_disp(&w, t, 5), 1, ELEM, w.win, &req[0]));
    OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    check_eq("Rget after flushed Rput", 5, one, back);
    OK(MPI_Rput(&last, 1, ELEM, t, rwin_disp(&w, t, 6), 1, ELEM, w.win, &r2));
    OK(MPI_Win_unlock_all(w.win));
    OK(MPI_Wait(&r2, MPI_STATUS_IGNORE));
    if (MPI_REQUEST_NULL != r2) {
        fail("request not freed by MPI_Wait");
    }
    MPI_Barrier(MPI_COMM_WORLD);

    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w.win));
    for (int i = 0; i < NR; ++i) {
        elem_t e = 5 == i ? val(left, 77) : 6 == i ? val(left, 78) : val(left, i);
        check_eq("target element written by Rput", i, e, w.base[i]);
        check_eq("target element read by Rget", NR + i, -1 - (NR + i), w.base[NR + i]);
    }
    for (int i = 0; i < NA; ++i) {
        check_eq("target element after Raccumulate and Rget_accumulate", 2 * NR + i,
                 -1 - (2 * NR + i) + val(left, i) + 1000, w.base[2 * NR + i]);
    }
    OK(MPI_Win_unlock(rank, w.win));
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
    free(src);
    free(dst);
    free(req);
    free(idx);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    run(FL_ALLOCATE);
    run(FL_DYNAMIC);
    return ompix_test_finish("rdma2/rma_requests");
}
