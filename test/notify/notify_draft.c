/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp pml=ob1,ucx timeout=120 mca="osc rdma2,sm"
 *
 * The MPI Forum draft's calls (mpi-standard PR #1131) that ompix added to
 * its own: MPIX_Get_accumulate_notify, the request forms MPIX_Rput_notify,
 * MPIX_Rget_notify, MPIX_Raccumulate_notify, MPIX_Rget_accumulate_notify,
 * MPIX_Win_reset_notify_value (the draft's name of MPIX_Win_notify_reset),
 * MPIX_Win_notify_threshold and MPIX_ERR_RMA_NOTIFICATION, on allocate,
 * create and dynamic windows (and shared ones in the generic variant,
 * notify_draft_gen.c).
 *
 * Under lock_all every rank r, toward every rank t (itself included), in
 * this order into its own int64 words of t's window:
 *   gacc   Get_accumulate_notify(+1, SUM) into A[r]: result 0
 *   rput   Rput_notify of a value into B[r]; the request then completes
 *   rget   Rget_notify of C[r] (t's pattern): the data is there once the
 *          request completes
 *   racc   Raccumulate_notify(+1) into A[r]
 *   rgacc  Rget_accumulate_notify(+1) into A[r]: result 2 (same-origin
 *          accumulates to one location are ordered)
 * each with its own slot (kind * size + r).  As target, with no
 * synchronization with the origins, every rank waits on each slot with
 * MPIX_Win_notify_threshold(1) and checks its memory then (B[r] holds the
 * value; A[r] is 3 once the three accumulate slots reached 1); takes each
 * count with MPIX_Win_reset_notify_value (exactly 1), and no slot is left
 * set.  Then the same get_accumulate_notify under fence (active target),
 * a threshold of 2 reached by two notifications, the threshold's timeout,
 * MPI_PROC_NULL and the error classes.
 */
#include "notify_common.h"

enum { K_GACC, K_RPUT, K_RGET, K_RACC, K_RGACC, K_COUNT };
static const char *const k_name[] = {"gacc", "rput", "rget", "racc", "rgacc"};

#define SLOT(k, r) ((k) * size + (r))
/* Word offsets of origin r's words in a target's window. */
#define OFF_A(r) ((MPI_Aint) (r) * 8)
#define OFF_B(r) ((MPI_Aint) (size + (r)) * 8)
#define OFF_C(r) ((MPI_Aint) (2 * size + (r)) * 8)
#define WIN_BYTES(n) ((MPI_Aint) (3 * (n) + 1) * 8)

static const int64_t one = 1;

static int64_t put_value(int r, int t)
{
    return 1000 * (int64_t) r + t + 7;
}

static int64_t c_value(int t, int r)
{
    return -(5000 * (int64_t) t + r + 3);
}

static int64_t *word(const nwin_t *w, MPI_Aint off)
{
    return (int64_t *) (w->base + off);
}

/* Zeroes A and B, sets C to this rank's values (in a self-lock), then a
 * barrier. */
static void draft_fill(nwin_t *w)
{
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    memset(w->base, 0, (size_t) w->bytes);
    for (int r = 0; r < size; ++r) {
        *word(w, OFF_C(r)) = c_value(rank, r);
    }
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A request form's request must be complete-able at once, and its
 * operation locally complete afterwards. */
static void draft_wait(MPI_Request *req, const char *what, int t)
{
    if (MPI_REQUEST_NULL == *req) {
        notify_fail("%s toward %d: MPI_REQUEST_NULL after success", what, t);
        return;
    }
    OK(MPI_Wait(req, MPI_STATUS_IGNORE));
    CHECK(MPI_REQUEST_NULL == *req);
}

static void draft_issue(nwin_t *w, int t)
{
    int64_t res = -1, val = put_value(rank, t), got = 0;
    MPI_Request req = MPI_REQUEST_NULL;

    OK(MPIX_Get_accumulate_notify(&one, 1, MPI_INT64_T, &res, 1, MPI_INT64_T, t,
                                  nwin_disp(w, t, OFF_A(rank)), 1, MPI_INT64_T, MPI_SUM,
                                  SLOT(K_GACC, rank), w->win));
    OK(MPIX_Rput_notify(&val, 1, MPI_INT64_T, t, nwin_disp(w, t, OFF_B(rank)), 1, MPI_INT64_T,
                        SLOT(K_RPUT, rank), w->win, &req));
    draft_wait(&req, "rput", t);
    OK(MPIX_Rget_notify(&got, 1, MPI_INT64_T, t, nwin_disp(w, t, OFF_C(rank)), 1, MPI_INT64_T,
                        SLOT(K_RGET, rank), w->win, &req));
    draft_wait(&req, "rget", t);
    if (got != c_value(t, rank)) {
        notify_fail("%s: rget from %d read %lld", nf_name[w->flavor], t, (long long) got);
    }
    OK(MPIX_Raccumulate_notify(&one, 1, MPI_INT64_T, t, nwin_disp(w, t, OFF_A(rank)), 1,
                               MPI_INT64_T, MPI_SUM, SLOT(K_RACC, rank), w->win, &req));
    draft_wait(&req, "racc", t);
    OK(MPIX_Rget_accumulate_notify(&one, 1, MPI_INT64_T, &got, 1, MPI_INT64_T, t,
                                   nwin_disp(w, t, OFF_A(rank)), 1, MPI_INT64_T, MPI_SUM,
                                   SLOT(K_RGACC, rank), w->win, &req));
    draft_wait(&req, "rgacc", t);
    OK(MPI_Win_flush(t, w->win));
    if (0 != res || 2 != got) {
        notify_fail("%s toward %d: get_accumulate results %lld and %lld, expected 0 and 2",
                    nf_name[w->flavor], t, (long long) res, (long long) got);
    }
}

/* Waits for slot k of origin r to reach 1; checks what it announces. */
static void draft_expect(nwin_t *w, int k, int r)
{
    MPI_Count v = -1;

    OK(MPIX_Win_notify_threshold(w->win, SLOT(k, r), 1, (int) (NOTIFY_DEADLINE * 1000), &v));
    if (v < 1) {
        notify_fail("%s: %s notification of origin %d lost (count %lld)", nf_name[w->flavor],
                    k_name[k], r, (long long) v);
        return;
    }
    if (K_RPUT == k && *(volatile int64_t *) word(w, OFF_B(r)) != put_value(r, rank)) {
        notify_fail("%s: rput of %d notified before its data", nf_name[w->flavor], r);
    }
    if (K_RGACC == k && *(volatile int64_t *) word(w, OFF_A(r)) < 3) {
        notify_fail("%s: accumulates of %d notified before their effect", nf_name[w->flavor], r);
    }
}

static void draft_consume(nwin_t *w)
{
    for (int r = 0; r < size; ++r) {
        for (int k = 0; k < K_COUNT; ++k) {
            draft_expect(w, k, r);
        }
    }
    for (int r = 0; r < size; ++r) {
        for (int k = 0; k < K_COUNT; ++k) {
            MPI_Count old = -1;
            OK(MPIX_Win_reset_notify_value(w->win, SLOT(k, r), &old));
            if (1 != old) {
                notify_fail("%s: slot %s/%d held %lld, expected 1", nf_name[w->flavor],
                            k_name[k], r, (long long) old);
            }
        }
    }
    notify_check_empty(w->win, 0, K_COUNT * size, "lock_all");
}

/* get_accumulate_notify in a fence epoch, twice into one slot: a
 * threshold of 2 is reached, a threshold of 3 times out. */
static void draft_fence(nwin_t *w)
{
    int t = (rank + 1) % size, from = (rank + size - 1) % size;
    int64_t res[2] = {-1, -1};
    MPI_Count v = -1;

    draft_fill(w);
    OK(MPI_Win_fence(0, w->win));
    for (int i = 0; i < 2; ++i) {
        OK(MPIX_Get_accumulate_notify(&one, 1, MPI_INT64_T, &res[i], 1, MPI_INT64_T, t,
                                      nwin_disp(w, t, OFF_A(rank)), 1, MPI_INT64_T, MPI_SUM,
                                      0, w->win));
    }
    OK(MPI_Win_fence(0, w->win));
    CHECK(res[0] + res[1] == 1 && res[0] * res[1] == 0);
    OK(MPIX_Win_notify_threshold(w->win, 0, 2, (int) (NOTIFY_DEADLINE * 1000), &v));
    CHECK(2 == v);
    CHECK(2 == *(volatile int64_t *) word(w, OFF_A(from)));
    v = -1;
    OK(MPIX_Win_notify_threshold(w->win, 0, 3, 0, &v));
    CHECK(2 == v);
    OK(MPIX_Win_notify_threshold(w->win, 0, 3, 10, &v));
    CHECK(2 == v);
    OK(MPIX_Win_reset_notify_value(w->win, 0, &v));
    CHECK(2 == v);
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
}

/* MPI_PROC_NULL: no notification, an empty request; the errors. */
static void draft_edges(nwin_t *w)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int64_t v64 = 0;
    MPI_Count v = -1;
    int n = 0;

    OK(MPI_Win_lock_all(0, w->win));
    OK(MPIX_Rput_notify(&v64, 1, MPI_INT64_T, MPI_PROC_NULL, 0, 1, MPI_INT64_T, 0, w->win,
                        &req));
    CHECK(MPI_REQUEST_NULL != req);
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPIX_Get_accumulate_notify(NULL, 0, MPI_INT64_T, &v64, 1, MPI_INT64_T, rank,
                                  nwin_disp(w, rank, OFF_A(rank)), 1, MPI_INT64_T, MPI_NO_OP,
                                  1, w->win));
    OK(MPI_Win_unlock_all(w->win));
    OK(MPIX_Win_notify_threshold(w->win, 1, 1, (int) (NOTIFY_DEADLINE * 1000), &v));
    CHECK(1 == v);
    OK(MPIX_Win_reset_notify_value(w->win, 1, &v));
    OK(MPIX_Win_get_num_notify(w->win, &n));
    CHECK_CLASS(MPIX_Win_reset_notify_value(w->win, n, &v), MPIX_ERR_RMA_NOTIFICATION);
    CHECK_CLASS(MPIX_Win_notify_threshold(w->win, n, 1, 0, &v), MPIX_ERR_RMA_NOTIFICATION);
    CHECK_CLASS(MPIX_Win_notify_threshold(w->win, 0, 1, -2, &v), MPI_ERR_ARG);
    CHECK_CLASS(MPIX_Win_notify_threshold(w->win, 0, 1, 0, NULL), MPI_ERR_ARG);
    OK(MPI_Win_lock_all(0, w->win));
    CHECK_CLASS(MPIX_Rput_notify(&v64, 1, MPI_INT64_T, rank, 0, 1, MPI_INT64_T, 0, w->win,
                                 NULL), MPI_ERR_REQUEST);
    req = MPI_REQUEST_NULL;
    CHECK_CLASS(MPIX_Rget_notify(&v64, 1, MPI_INT64_T, rank, nwin_disp(w, rank, 0), 1,
                                 MPI_INT64_T, n, w->win, &req), MPIX_ERR_RMA_NOTIFICATION);
    CHECK(MPI_REQUEST_NULL == req);
    OK(MPI_Win_unlock_all(w->win));
    notify_check_empty(w->win, 0, K_COUNT * size, "edges");
}

static void draft_round(nwin_t *w)
{
    draft_fill(w);
    OK(MPI_Win_lock_all(0, w->win));
    for (int i = 0; i < size; ++i) {
        draft_issue(w, (rank + i) % size);
    }
    OK(MPI_Win_unlock_all(w->win));
    draft_consume(w);
    MPI_Barrier(MPI_COMM_WORLD);
    draft_fence(w);
    draft_edges(w);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    ompix_test_init(&argc, &argv);
    for (int f = 0; f < NF_COUNT; ++f) {
        nwin_t w;
        nwin_open(&w, f, WIN_BYTES(size), MPI_COMM_WORLD);
        draft_round(&w);
        nwin_close(&w);
    }
    return ompix_test_finish("notify_draft");
}
