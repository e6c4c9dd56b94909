/*
 * ompix-test: np=2,3,4 tls=shm,tcp pml=ob1 timeout=120 mca="osc rdma2,sm" intree="np=2" intree_why="CI time: 3 and 4 ranks run on the plugin build"
 *
 * osc/rdma2's notified-RMA engine (version 3 of its registry table,
 * osc_rdma2_api.h), called through common/ompix's registry as the MPIX_
 * extension will call it, on allocated, created and dynamic windows:
 *  - notify_slots: osc_rdma2_notify_slots zeroed counters;
 *  - read_notify (contiguous and a strided origin layout) under lock_all:
 *    the origin polls its own slot (MPI_Iprobe for progress) and finds the
 *    data in its buffer when the slot is set;
 *  - put_notify / accumulate_notify under lock_all: the target spins on
 *    its slot with no MPI call (truly passive) and then finds the data
 *    (the sum) in its window;
 *  - get_notify: once its slot is set the target overwrites its memory;
 *    the origin still got the old data;
 *  - under a shared lock and under fence: the same four, checked after
 *    the unlock / the closing fence;
 *  - id >= the slot count: MPI_ERR_ARG; no epoch: MPI_ERR_RMA_SYNC;
 *    outside the window: MPI_ERR_RMA_RANGE;
 *  - set_num_notify: larger (ids beyond the old range work, the old
 *    range's counts are gone), then smaller (the old ids are MPI_ERR_ARG).
 */
#include "ompix_test.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "../../ompi/mca/osc/rdma2/osc_rdma2_api.h"

#define N 256
#define DEFAULT_SLOTS 65536

typedef const void *lookup_fn_t(const char *name, uint32_t version);

static const mca_osc_rdma2_api_t *api;
static MPI_Win win;
static int *mem;                        /* this rank's window memory */
static MPI_Aint *disp_of;               /* target_disp of rank r's mem[0] */

/* Our shared slots; *local: the private counters our own read
 * notifications completed in their call add to (NULL under
 * MPI_THREAD_MULTIPLE): a slot's count is the sum (API version 3). */
static int64_t *my_slots(int *num, int64_t **local)
{
    int64_t *slots = NULL;
    CHECK(MPI_SUCCESS == api->notify_slots(win, &slots, local, num));
    return slots;
}

static int64_t load_slot(int id)
{
    int num;
    int64_t *local, *slots = my_slots(&num, &local);
    return __atomic_load_n(&slots[id], __ATOMIC_ACQUIRE)
        + (NULL != local ? __atomic_load_n(&local[id], __ATOMIC_RELAXED) : 0);
}

static int64_t take_slot(int id)
{
    int num;
    int64_t *local, *slots = my_slots(&num, &local), v = 0;
    if (NULL != local) {
        v = local[id];
        local[id] = 0;
    }
    return v + __atomic_exchange_n(&slots[id], 0, __ATOMIC_ACQ_REL);
}

/* Waits for our slot: with MPI progress (read_notify's callbacks run in
 * our worker), or with none at all (notifications from others are truly
 * passive: CPU atomics, or our progress thread). */
static void wait_slot(int id, int64_t value, int progress)
{
    int flag;
    while (load_slot(id) < value) {
        if (progress) {
            MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
    }
}

static void fill(int tag)
{
    for (int i = 0; i < N; ++i) {
        mem[i] = tag * 100000 + rank * 1000 + i;
    }
}

static int expect(int tag, int r, int i)
{
    return tag * 100000 + r * 1000 + i;
}

/* ---------------------------------------------------------------------- */

static void read_notify_lock_all(int tag)
{
    int buf[N], strided[2 * N], i, ok = 1;
    MPI_Datatype every_other;

    fill(tag);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    memset(buf, 0, sizeof(buf));
    CHECK(MPI_SUCCESS == api->read_notify(buf, N, MPI_INT, right, disp_of[right], N, MPI_INT,
                                          5, win));
    wait_slot(5, 1, 1);
    for (i = 0; i < N; ++i) ok &= buf[i] == expect(tag, right, i);
    CHECK(ok);
    CHECK(1 == take_slot(5));

    /* a scattered origin: several pieces, one notification after all */
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    memset(strided, 0, sizeof(strided));
    CHECK(MPI_SUCCESS == api->read_notify(strided, 1, every_other, left, disp_of[left], N,
                                          MPI_INT, 7, win));
    wait_slot(7, 1, 1);
    for (ok = 1, i = 0; i < N; ++i) ok &= strided[2 * i] == expect(tag, left, i) &&
                                         0 == strided[2 * i + 1];
    CHECK(ok);
    CHECK(1 == take_slot(7));
    MPI_Type_free(&every_other);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void put_acc_notify_lock_all(int tag)
{
    int out[N], i, ok = 1;

    fill(tag);
    for (i = 0; i < N; ++i) out[i] = expect(tag + 1, rank, i);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    CHECK(MPI_SUCCESS == api->put_notify(out, N, MPI_INT, right, disp_of[right], N, MPI_INT,
                                         rank, win));
    wait_slot(left, 1, 0);
    for (i = 0; i < N; ++i) ok &= mem[i] == expect(tag + 1, left, i);
    CHECK(ok);
    CHECK(1 == take_slot(left));
    MPI_Win_flush_all(win);
    MPI_Barrier(MPI_COMM_WORLD);

    /* accumulate: the sum is there when the slot is */
    for (i = 0; i < N; ++i) out[i] = 1;
    CHECK(MPI_SUCCESS == api->accumulate_notify(out, N, MPI_INT, right, disp_of[right], N,
                                                MPI_INT, MPI_SUM, rank + 10, win));
    wait_slot(left + 10, 1, 0);
    for (ok = 1, i = 0; i < N; ++i) ok &= mem[i] == expect(tag + 1, left, i) + 1;
    CHECK(ok);
    CHECK(1 == take_slot(left + 10));
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void get_notify_lock_all(int tag)
{
    int buf[N], i, ok = 1;

    fill(tag);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    CHECK(MPI_SUCCESS == api->get_notify(buf, N, MPI_INT, right, disp_of[right], N, MPI_INT,
                                         rank + 20, win));
    /* read at the target: it may overwrite now */
    wait_slot(left + 20, 1, 0);
    fill(tag + 1);
    CHECK(1 == take_slot(left + 20));
    MPI_Win_flush(right, win);
    for (i = 0; i < N; ++i) ok &= buf[i] == expect(tag, right, i);
    CHECK(ok);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* All four in one epoch, checked once the epoch closed (close: the
 * unlock, or the fence; both followed by a barrier for the targets). */
static void all_four(int tag, int fence)
{
    int buf[N], got[N], out[N], ones[N], i, ok = 1;

    fill(tag);
    for (i = 0; i < N; ++i) {
        out[i] = expect(tag + 1, rank, i);
        ones[i] = 2;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (fence) {
        MPI_Win_fence(0, win);
    } else {
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    }
    /* read first, before anyone changes the target's memory */
    CHECK(MPI_SUCCESS == api->read_notify(buf, N, MPI_INT, right, disp_of[right], N, MPI_INT,
                                          30, win));
    CHECK(MPI_SUCCESS == api->get_notify(got, N, MPI_INT, right, disp_of[right], N, MPI_INT,
                                         31, win));
    if (fence) {
        MPI_Win_fence(0, win);
    } else {
        MPI_Win_unlock(right, win);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    CHECK(1 == load_slot(30));          /* ours, after completion */
    CHECK(1 == load_slot(31));          /* from the left neighbour */
    for (i = 0; i < N; ++i) ok &= buf[i] == expect(tag, right, i) && got[i] == buf[i];
    CHECK(ok);
    if (!fence) {
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    }
    CHECK(MPI_SUCCESS == api->put_notify(out, N, MPI_INT, right, disp_of[right], N, MPI_INT,
                                         32, win));
    if (fence) {
        MPI_Win_fence(0, win);
    } else {
        MPI_Win_unlock(right, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    }
    CHECK(1 == load_slot(32));
    CHECK(MPI_SUCCESS == api->accumulate_notify(ones, N, MPI_INT, right, disp_of[right], N,
                                                MPI_INT, MPI_SUM, 33, win));
    if (fence) {
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    } else {
        MPI_Win_unlock(right, win);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    CHECK(1 == load_slot(33));
    for (ok = 1, i = 0; i < N; ++i) ok &= mem[i] == expect(tag + 1, left, i) + 2;
    CHECK(ok);
    for (i = 30; i < 34; ++i) take_slot(i);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void errors(void)
{
    int buf[N], num;
    int64_t *local;

    my_slots(&num, &local);
    /* no epoch */
    CHECK(MPI_ERR_RMA_SYNC == api->put_notify(buf, 1, MPI_INT, right, disp_of[right], 1,
                                              MPI_INT, 0, win));
    CHECK(MPI_ERR_RMA_SYNC == api->read_notify(buf, 1, MPI_INT, right, disp_of[right], 1,
                                               MPI_INT, 0, win));
    MPI_Win_lock_all(0, win);
    CHECK(MPI_ERR_ARG == api->read_notify(buf, 1, MPI_INT, right, disp_of[right], 1, MPI_INT,
                                          num, win));
    CHECK(MPI_ERR_ARG == api->put_notify(buf, 1, MPI_INT, right, disp_of[right], 1, MPI_INT,
                                         num, win));
    CHECK(MPI_ERR_ARG == api->get_notify(buf, 1, MPI_INT, right, disp_of[right], 1, MPI_INT,
                                         num, win));
    CHECK(MPI_ERR_ARG == api->accumulate_notify(buf, 1, MPI_INT, right, disp_of[right], 1,
                                                MPI_INT, MPI_SUM, num, win));
    /* one element past the end of the target's memory */
    CHECK(MPI_ERR_RMA_RANGE == api->get_notify(buf, 2, MPI_INT, right, disp_of[right] + N - 1,
                                               2, MPI_INT, 0, win));
    CHECK(MPI_ERR_RMA_RANGE == api->read_notify(buf, 2, MPI_INT, right,
                                                disp_of[right] + N - 1, 2, MPI_INT, 0, win));
    MPI_Win_unlock_all(win);
    CHECK(0 == load_slot(0));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void set_num(void)
{
    int64_t *slots, *local;
    int num, i, ok = 1, big = DEFAULT_SLOTS + 1000, buf[4] = { 1, 2, 3, 4 };

    /* a count left in the old block, which must be gone */
    MPI_Win_lock_all(0, win);
    CHECK(MPI_SUCCESS == api->put_notify(buf, 4, MPI_INT, right, disp_of[right], 4, MPI_INT,
                                         3, win));
    MPI_Win_unlock_all(win);
    CHECK(MPI_SUCCESS == api->set_num_notify(win, big));
    slots = my_slots(&num, &local);
    CHECK(big == num);
    for (i = 0; i < num; ++i) ok &= 0 == slots[i] && (NULL == local || 0 == local[i]);
    CHECK(ok);
    MPI_Barrier(MPI_COMM_WORLD);        /* before anyone notifies into the new block */
    MPI_Win_lock_all(0, win);
    CHECK(MPI_SUCCESS == api->put_notify(buf, 4, MPI_INT, right, disp_of[right], 4, MPI_INT,
                                         big - 1, win));
    CHECK(MPI_SUCCESS == api->read_notify(buf, 4, MPI_INT, right, disp_of[right], 4, MPI_INT,
                                          DEFAULT_SLOTS, win));
    wait_slot(big - 1, 1, 0);
    wait_slot(DEFAULT_SLOTS, 1, 1);
    CHECK(MPI_ERR_ARG == api->put_notify(buf, 1, MPI_INT, right, disp_of[right], 1, MPI_INT,
                                         big, win));
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);

    CHECK(MPI_SUCCESS == api->set_num_notify(win, 16));
    slots = my_slots(&num, &local);
    CHECK(16 == num);
    CHECK(0 == slots[15] && (NULL == local || 0 == local[15]));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    CHECK(MPI_ERR_ARG == api->put_notify(buf, 1, MPI_INT, right, disp_of[right], 1, MPI_INT,
                                         16, win));
    CHECK(MPI_SUCCESS == api->put_notify(buf, 1, MPI_INT, right, disp_of[right], 1, MPI_INT,
                                         15, win));
    wait_slot(15, 1, 0);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---------------------------------------------------------------------- */

static void run_flavor(int flavor)
{
    MPI_Aint mine;
    void *base = NULL;
    int num, i, ok = 1;
    int64_t *slots, *local;

    if (0 == flavor) {
        MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                         &win);
        mem = base;
    } else if (1 == flavor) {
        mem = calloc(N, sizeof(int));
        MPI_Win_create(mem, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        mem = calloc(N, sizeof(int));
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_attach(win, mem, N * sizeof(int));
    }
    if (2 == flavor) {
        /* dynamic: displacements are addresses, counted in bytes (disp unit 1) */
        MPI_Get_address(mem, &mine);
        MPI_Allgather(&mine, 1, MPI_AINT, disp_of, 1, MPI_AINT, MPI_COMM_WORLD);
    } else {
        for (i = 0; i < size; ++i) disp_of[i] = 0;
    }
    CHECK(api->serves(win));

    slots = my_slots(&num, &local);
    CHECK(DEFAULT_SLOTS == num);
    for (i = 0; i < num; ++i) ok &= 0 == slots[i] && (NULL == local || 0 == local[i]);
    CHECK(ok);
    MPI_Barrier(MPI_COMM_WORLD);

    if (2 != flavor) {
        errors();               /* dynamic: the range error is an attach matter */
    }
    read_notify_lock_all(1);
    put_acc_notify_lock_all(3);
    get_notify_lock_all(5);
    all_four(7, 0);
    all_four(9, 1);
    set_num();

    if (2 == flavor) {
        MPI_Win_detach(win, mem);
    }
    MPI_Win_free(&win);
    if (0 != flavor) {
        free(mem);
    }
}

int main(int argc, char **argv)
{
    lookup_fn_t *lookup;

    ompix_test_init(&argc, &argv);
    *(void **) &lookup = dlsym(RTLD_DEFAULT, "mca_common_ompix_registry_lookup");
    CHECK(NULL != lookup);
    api = NULL != lookup ? lookup(MCA_OSC_RDMA2_API_NAME, MCA_OSC_RDMA2_API_VERSION) : NULL;
    CHECK(NULL != api && NULL != api->read_notify && NULL != api->set_num_notify);
    if (NULL != api && NULL != api->read_notify) {
        disp_of = calloc(size, sizeof(MPI_Aint));
        for (int flavor = 0; flavor < 3; ++flavor) {
            run_flavor(flavor);
        }
        free(disp_of);
    }
    return ompix_test_finish("notify_engine");
}
