/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1 timeout=300 valgrind=no mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * 10 000 window create/free cycles of small windows, flavors in rotation
 * (allocate, create, dynamic with one attached region, and every 100th an
 * allocate_shared); the part size changes with the cycle so stale state
 * from an earlier window of the same size cannot hide.  Every 8th window
 * is used before it is freed: a fence epoch in which every rank puts a
 * stamp of this cycle into its right neighbour and fetch-and-adds into its
 * left neighbour, checked exactly; every other window gets one
 * zero-communication epoch (lock_all/unlock_all) so that freeing a window
 * right after an epoch is exercised too.  Resource leaks (registrations,
 * remote keys, shared segments) show up as failures of later cycles.  On
 * 2 oversubscribed cores stock osc rdma (+ osc sm) needs ~25 s at np=2 and
 * 80-150 s at np=4 (every creation is collective and 4 ranks share 2
 * cores), so this test runs at np=2,3 only, with a longer timeout, and
 * not under valgrind (valgrind=no).
 */
#include "rdma2_common.h"

#define CYCLES 10000

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    for (int c = 0; c < CYCLES; ++c) {
        struct rwin w;
        int fl = c % 100 == 99 ? FL_SHARED : (int[]){FL_ALLOCATE, FL_CREATE, FL_DYNAMIC}[c % 3];
        MPI_Aint n = 2 + c % 5;
        if (0 == c % 500) {
            set_case("cycle %d (%s)", c, flavor_name[fl]);
        }
        rwin_open(&w, fl, n, MPI_COMM_WORLD);
        if (c % 8 == 0) {
            elem_t stamp = (elem_t) c * 1000 + rank, one = 1, got = -1;
            for (MPI_Aint i = 0; i < n; ++i) {
                w.base[i] = (elem_t) c;
            }
            OK(MPI_Win_fence(0, w.win));
            OK(MPI_Put(&stamp, 1, ELEM, right, rwin_disp(&w, right, 0), 1, ELEM, w.win));
            OK(MPI_Fetch_and_op(&one, &got, ELEM, left, rwin_disp(&w, left, n - 1), MPI_SUM, w.win));
            OK(MPI_Win_fence(0, w.win));
            check_eq("stamp put by left neighbour", c, (elem_t) c * 1000 + left, w.base[0]);
            check_eq("counter added by right neighbour", c, (elem_t) c + 1, w.base[n - 1]);
            check_eq("fetch_and_op result", c, (elem_t) c, got);
        } else {
            OK(MPI_Win_lock_all(0, w.win));
            OK(MPI_Win_unlock_all(w.win));
        }
        rwin_close(&w);
        if (c % 8 == 0) {
            /* stop together once anything failed, so no rank waits alone */
            int any = 0;
            MPI_Allreduce(&ompix_test_failures, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            if (any) {
                if (ompix_test_failures) {
                    fail("stopping at cycle %d", c);
                }
                break;
            }
        }
    }
    return ompix_test_finish("rdma2/rma_cycles");
}
