/*
 * ompix-test: np=2 tls=tcp pml=ob1 timeout=120 mca="osc rdma2,sm osc_rdma2_cma 0 osc_rdma2_progress_thread 0"
 *
 * Raccumulate toward a TCP target that applies accumulates from active
 * messages (osc_rdma2_acc_path auto), with a target layout the messages
 * refuse (a vector: scattered): the request must run as a state machine
 * and stay outstanding while the target is outside MPI, as rma_acc_requests'
 * `outstanding` checks for the lock path, instead of blocking in the call
 * (osc_rdma2_accumulate.c:mca_osc_rdma2_acc_start asks the path's
 * `accepts`).  Rank 1 waits outside MPI (no progress thread) on a flag in
 * a shared file; rank 0 issues 16 Raccumulate SUM of 2 elements onto every
 * other element of rank 1's part, MPI_Testall must say false, then it
 * raises the flag and waits; the sums are exact.  Blocking in the call
 * would hold rank 0 until rank 1 gives up after 60 s, and Testall would
 * then find them complete.
 */
#define RMA_ACC_REQUESTS_NO_MAIN
#include "rma_acc_requests.c"

static MPI_Datatype every_other;
static elem_t scattered_v[NOUT][2];

static void scattered_issue(struct rwin *w, int k, MPI_Request *req)
{
    scattered_v[k][0] = k + 1;
    scattered_v[k][1] = 2 * (k + 1);
    OK(MPI_Raccumulate(scattered_v[k], 2, ELEM, 1, rwin_disp(w, 1, W - 4), 1, every_other,
                       MPI_SUM, w->win, req));
}

static void outstanding_scattered(void)
{
    struct rwin w;

    set_case("Raccumulate into a scattered target outstanding while the target is outside MPI");
    OK(MPI_Type_vector(2, 1, 2, ELEM, &every_other));
    OK(MPI_Type_commit(&every_other));
    rwin_open(&w, FL_CREATE, NE, MPI_COMM_WORLD);
    fill(&w);
    outstanding_while_away(&w, "Raccumulates into a scattered target", scattered_issue);
    if (1 == rank) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w.win));
        check_eq("first target element", W - 4, init(1, W - 4) + 136, w.base[W - 4]);
        check_eq("element between, untouched", W - 3, init(1, W - 3), w.base[W - 3]);
        check_eq("second target element", W - 2, init(1, W - 2) + 272, w.base[W - 2]);
        OK(MPI_Win_unlock(1, w.win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rwin_close(&w);
    OK(MPI_Type_free(&every_other));
}

int main(int argc, char **argv)
{
    /* rma_acc_requests' other cases run there */
    (void) ordering;
    (void) contention;
    (void) epoch_completion;
    (void) outstanding;
    ompix_test_init(&argc, &argv);
    outstanding_scattered();
    return ompix_test_finish("rdma2/rma_acc_requests_am");
}
