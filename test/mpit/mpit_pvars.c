/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=90
 *
 * ompix's MPI_T performance variables (README.md, "MPI_T performance
 * variables"): every one is found by enumeration (MPI_T_pvar_get_num,
 * MPI_T_pvar_get_info) as a read-only continuous counter of unsigned long
 * long with the binding it is documented with; handles bound to a window
 * (osc/rdma2), to a communicator (coll/persist; pml/chan's comm_ ones,
 * test/mpit/mpit_chan_comm.c) or unbound (pml/chan)
 * count exactly the work done between two reads: 100 puts to the right neighbour are +100 on the
 * path the window takes to it (mapped over shared memory, CMA or UCX over
 * TCP, mapped to oneself) and +800 bytes, gets and accumulates likewise,
 * MPI_PROC_NULL nothing, emulated atomics only where the window is in lock
 * mode, and a handle freed and allocated again starts from zero; a channel
 * started 100 times counts 100 starts and its bytes on its path on both
 * ends, and stays counted after unbind; persistent collectives count their
 * starts under their algorithm; 100 put_notify are +100 issued
 * notifications, one to MPI_PROC_NULL nothing; 100 continuations are +100
 * registered and +100 run (looked up after MPIX_Continue_init, which
 * registers them); a channel to MPI_PROC_NULL (always on the generic
 * fallback) started 100 times is +100 fallback starts, one more such
 * channel +1 fallback channel (looked up after the first one).
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"
#include "ompix_mpit.h"
#include "ompix_persist_algs.h"

#include <stdbool.h>
#include <string.h>

#define N 100

typedef struct {
    const char *name;
    int bind;
} expected_pvar_t;

static const expected_pvar_t expected[] = {
    {"osc_rdma2_ops_mapped", MPI_T_BIND_MPI_WIN},
    {"osc_rdma2_ops_cma", MPI_T_BIND_MPI_WIN},
    {"osc_rdma2_ops_ucx", MPI_T_BIND_MPI_WIN},
    {"osc_rdma2_bytes_mapped", MPI_T_BIND_MPI_WIN},
    {"osc_rdma2_bytes_cma", MPI_T_BIND_MPI_WIN},
    {"osc_rdma2_bytes_ucx", MPI_T_BIND_MPI_WIN},
    {"osc_rdma2_emulated_atomics", MPI_T_BIND_MPI_WIN},
    {"osc_rdma2_lock_waits", MPI_T_BIND_MPI_WIN},
    {"coll_persist_starts_other", MPI_T_BIND_MPI_COMM},
    {"coll_persist_starts_allreduce_shm", MPI_T_BIND_MPI_COMM},
    {"coll_persist_starts_allreduce_recursive_doubling", MPI_T_BIND_MPI_COMM},
    {"coll_persist_starts_allreduce_ring", MPI_T_BIND_MPI_COMM},
#ifdef OMPI_HAVE_MPI_EXT_NOTIFY
    {"mpi_notify_issued", MPI_T_BIND_NO_OBJECT},
    {"mpi_notify_consumed", MPI_T_BIND_NO_OBJECT},
#endif
#ifdef OMPI_HAVE_MPI_EXT_CHAN
    {"pml_chan_channels_mapped", MPI_T_BIND_NO_OBJECT},
    {"pml_chan_starts_mapped", MPI_T_BIND_NO_OBJECT},
    {"pml_chan_bytes_mapped", MPI_T_BIND_NO_OBJECT},
    {"pml_chan_channels_tag", MPI_T_BIND_NO_OBJECT},
    {"pml_chan_starts_tag", MPI_T_BIND_NO_OBJECT},
    {"pml_chan_bytes_tag", MPI_T_BIND_NO_OBJECT},
    {"pml_chan_starts_am", MPI_T_BIND_NO_OBJECT},
    {"pml_chan_starts_large", MPI_T_BIND_NO_OBJECT},
    {"pml_chan_comm_channels_mapped", MPI_T_BIND_MPI_COMM},
    {"pml_chan_comm_starts_mapped", MPI_T_BIND_MPI_COMM},
    {"pml_chan_comm_bytes_tag", MPI_T_BIND_MPI_COMM},
    {"pml_chan_comm_starts_large", MPI_T_BIND_MPI_COMM},
#endif
};
#define NEXPECTED ((int) (sizeof(expected) / sizeof(expected[0])))

static MPI_T_pvar_session session;

/* Enumeration: the index of every expected variable, checked as declared. */
static void enumerate(int *index)
{
    int num, found = 0;

    for (int i = 0; i < NEXPECTED; ++i) {
        index[i] = -1;
    }
    CHECK(MPI_SUCCESS == MPI_T_pvar_get_num(&num));
    for (int i = 0; i < num; ++i) {
        char name[256], desc[1024];
        int nlen = sizeof(name), dlen = sizeof(desc), verb, cls, bind, ro, cont, atomic;
        MPI_Datatype type;
        MPI_T_enum et;

        if (MPI_SUCCESS != MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &type, &et, desc,
                                               &dlen, &bind, &ro, &cont, &atomic)) {
            continue;                    /* an invalidated variable */
        }
        for (int e = 0; e < NEXPECTED; ++e) {
            if (0 == strcmp(name, expected[e].name)) {
                CHECK(-1 == index[e]);
                index[e] = i;
                found++;
                CHECK(MPI_T_PVAR_CLASS_COUNTER == cls && MPI_UNSIGNED_LONG_LONG == type);
                CHECK(expected[e].bind == bind && ro && cont && dlen > 1);
            }
        }
    }
    for (int e = 0; e < NEXPECTED; ++e) {
        if (index[e] < 0) {
            printf("rank %d: performance variable %s not found\n", rank, expected[e].name);
        }
    }
    CHECK(NEXPECTED == found);
}

/* A handle on variable NAME bound to obj (NULL: unbound). */
static MPI_T_pvar_handle handle_on(const char *name, void *obj)
{
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    int index, count = 0;

    CHECK(MPI_SUCCESS == MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index));
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_alloc(session, index, obj, &h, &count));
    CHECK(1 == count);
    return h;
}

static unsigned long long readh(MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ULL;

    if (MPI_T_PVAR_HANDLE_NULL == h) {
        return v;                        /* its allocation failed (reported) */
    }
    CHECK(MPI_SUCCESS == MPI_T_pvar_read(session, h, &v));
    return v;
}

/* ---------------------------------------------------------------------- */
/* osc/rdma2                                                               */

enum { P_MAPPED, P_CMA, P_UCX, NPATHS };
static const char *const path_names[NPATHS] = {"mapped", "cma", "ucx"};

typedef struct {
    MPI_T_pvar_handle ops[NPATHS], bytes[NPATHS], emulated, waits;
} win_handles_t;

static void win_handles(MPI_Win *win, win_handles_t *wh)
{
    char name[64];

    for (int p = 0; p < NPATHS; ++p) {
        snprintf(name, sizeof(name), "osc_rdma2_ops_%s", path_names[p]);
        wh->ops[p] = handle_on(name, win);
        snprintf(name, sizeof(name), "osc_rdma2_bytes_%s", path_names[p]);
        wh->bytes[p] = handle_on(name, win);
    }
    wh->emulated = handle_on("osc_rdma2_emulated_atomics", win);
    wh->waits = handle_on("osc_rdma2_lock_waits", win);
}

static void win_handles_free(win_handles_t *wh)
{
    for (int p = 0; p < NPATHS; ++p) {
        MPI_T_pvar_handle_free(session, &wh->ops[p]);
        MPI_T_pvar_handle_free(session, &wh->bytes[p]);
    }
    MPI_T_pvar_handle_free(session, &wh->emulated);
    MPI_T_pvar_handle_free(session, &wh->waits);
}

/* The counts of one kind on every path, minus base. */
static void win_read(MPI_T_pvar_handle *h, unsigned long long *v, const unsigned long long *base)
{
    for (int p = 0; p < NPATHS; ++p) {
        v[p] = readh(h[p]) - (NULL == base ? 0 : base[p]);
    }
}

/* Everything went on path `path`: n operations, bytes bytes. */
static void win_expect(win_handles_t *wh, const unsigned long long *ops0,
                       const unsigned long long *bytes0, int path, unsigned long long n,
                       unsigned long long bytes)
{
    unsigned long long ops[NPATHS], by[NPATHS];

    win_read(wh->ops, ops, ops0);
    win_read(wh->bytes, by, bytes0);
    for (int p = 0; p < NPATHS; ++p) {
        if (ops[p] != (p == path ? n : 0) || by[p] != (p == path ? bytes : 0)) {
            printf("rank %d: path %s: %llu ops, %llu bytes; expected %llu, %llu\n", rank,
                   path_names[p], ops[p], by[p], p == path ? n : 0, p == path ? bytes : 0);
            ompix_test_failures++;
        }
    }
}

/* The path this rank's window takes to its right neighbour. */
static int expected_path(void)
{
    const char *tls = getenv("UCX_TLS");

    if (right == rank || (NULL != tls && NULL != strstr(tls, "posix"))) {
        return P_MAPPED;
    }
    return P_CMA;                        /* same node, UCX without shared memory */
}

static void rma_work(MPI_Win win, int *src, int *dst)
{
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < N; ++i) {
        MPI_Put(src, 2, MPI_INT, right, 2 * (i % 4), 2, MPI_INT, win);
    }
    MPI_Put(src, 2, MPI_INT, MPI_PROC_NULL, 0, 2, MPI_INT, win);
    MPI_Win_flush_all(win);
    for (int i = 0; i < N / 2; ++i) {
        MPI_Get(dst, 4, MPI_INT, right, 0, 4, MPI_INT, win);
    }
    MPI_Win_flush_all(win);
    for (int i = 0; i < 10; ++i) {
        MPI_Accumulate(src, 1, MPI_INT, right, 8, 1, MPI_INT, MPI_SUM, win);
    }
    MPI_Win_unlock_all(win);
}

static void test_window(void)
{
    unsigned long long ops0[NPATHS], bytes0[NPATHS], emu0, waits0;
    int *base, src[4] = {1, 2, 3, 4}, dst[4];
    int path = expected_path();
    win_handles_t wh;
    MPI_Win win;

    MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    win_handles(&win, &wh);
    win_read(wh.ops, ops0, NULL);
    win_read(wh.bytes, bytes0, NULL);
    emu0 = readh(wh.emulated);
    waits0 = readh(wh.waits);
    rma_work(win, src, dst);
    win_expect(&wh, ops0, bytes0, path, N + N / 2 + 10, 8 * N + 16 * (N / 2) + 4 * 10);
    /* shared memory: element atomics; over TCP the window is in lock mode */
    CHECK(readh(wh.emulated) - emu0 == (P_MAPPED == path ? 0 : 10));
    CHECK(readh(wh.waits) - waits0 == 0);   /* lock_all: nobody holds a lock */
    win_handles_free(&wh);

    /* Without handles nothing is counted; a new handle starts at zero. */
    rma_work(win, src, dst);
    win_handles(&win, &wh);
    win_read(wh.ops, ops0, NULL);
    win_read(wh.bytes, bytes0, NULL);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    for (int i = 0; i < 5; ++i) {
        MPI_Put(src, 1, MPI_INT, right, i, 1, MPI_INT, win);
    }
    MPI_Win_unlock(right, win);
    win_expect(&wh, ops0, bytes0, path, 5, 5 * sizeof(int));
    /* Erroneous but harmless: a handle that outlives its window keeps
     * reading what the window counted. */
    MPI_Win_free(&win);
    win_expect(&wh, ops0, bytes0, path, 5, 5 * sizeof(int));
    win_handles_free(&wh);
}

/* ---------------------------------------------------------------------- */
/* pml/chan                                                                */

#ifdef OMPI_HAVE_MPI_EXT_CHAN
typedef struct {
    MPI_T_pvar_handle channels, starts, bytes;
} chan_handles_t;

static void chan_handles(const char *path, chan_handles_t *ch)
{
    char name[64];

    snprintf(name, sizeof(name), "pml_chan_channels_%s", path);
    ch->channels = handle_on(name, NULL);
    snprintf(name, sizeof(name), "pml_chan_starts_%s", path);
    ch->starts = handle_on(name, NULL);
    snprintf(name, sizeof(name), "pml_chan_bytes_%s", path);
    ch->bytes = handle_on(name, NULL);
}

static void chan_expect(chan_handles_t *ch, unsigned long long channels,
                        unsigned long long starts, unsigned long long bytes)
{
    unsigned long long c = readh(ch->channels), s = readh(ch->starts), b = readh(ch->bytes);

    if (c != channels || s != starts || b != bytes) {
        printf("rank %d: channels %llu starts %llu bytes %llu; expected %llu %llu %llu\n", rank,
               c, s, b, channels, starts, bytes);
        ompix_test_failures++;
    }
}

/* Pairs (2k, 2k+1): one synchronous channel of 8 ints, N starts. */
static void test_channels(void)
{
    const char *tls = getenv("UCX_TLS");
    int buf[8] = {0}, peer = rank ^ 1;
    MPI_Request req, chan;
    chan_handles_t ch, other;

    if (peer >= size) {
        return;
    }
    chan_handles(NULL != tls && NULL != strstr(tls, "posix") ? "mapped" : "tag", &ch);
    chan_handles("large", &other);
    if (0 == rank % 2) {
        MPI_Ssend_init(buf, 8, MPI_INT, peer, 3, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(buf, 8, MPI_INT, peer, 3, MPI_COMM_WORLD, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
    MPI_Request_free(&req);
    chan_expect(&ch, 1, 0, 0);
    for (int i = 0; i < N; ++i) {
        buf[0] = i;
        MPI_Start(&chan);
        MPI_Wait(&chan, MPI_STATUS_IGNORE);
        CHECK(i == buf[0]);
    }
    chan_expect(&ch, 1, N, N * 8 * sizeof(int));
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    chan_expect(&ch, 1, N, N * 8 * sizeof(int));    /* unbound: still counted */
    chan_expect(&other, 0, 0, 0);
}
#endif

/* ---------------------------------------------------------------------- */
/* coll/persist                                                            */

/* Starts since the handles were made: other (the gather) N, the allreduce
 * N on one of its algorithms, nothing elsewhere. */
static void persist_expect(MPI_T_pvar_handle *h)
{
    int allreduce_algs = 0;

    for (int a = 0; a < NALGS; ++a) {
        unsigned long long v = readh(h[a]);
        bool is_allreduce = 0 == strncmp(alg_names[a], "allreduce_", 10);

        if (is_allreduce && N == v) {
            allreduce_algs++;
        } else if (v != (0 == a ? N : 0)) {
            printf("rank %d: coll_persist_starts_%s: %llu\n", rank, alg_names[a], v);
            ompix_test_failures++;
        }
    }
    CHECK(1 == allreduce_algs);
}

static void test_persist(void)
{
    MPI_T_pvar_handle h[NALGS];
    MPI_Comm world = MPI_COMM_WORLD;     /* the counters are bound to a communicator */
    MPI_Request ar, ga;
    int in = rank + 1, out = 0, *all = malloc(sizeof(int) * (size_t) size);
    char name[96];

    for (int a = 0; a < NALGS; ++a) {
        snprintf(name, sizeof(name), "coll_persist_starts_%s", alg_names[a]);
        h[a] = handle_on(name, &world);
    }
    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &ar);
    MPIX_Gather_init(&in, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &ga);
    for (int i = 0; i < N; ++i) {
        MPI_Start(&ar);
        MPI_Wait(&ar, MPI_STATUS_IGNORE);
        CHECK(size * (size + 1) / 2 == out);
        MPI_Start(&ga);
        MPI_Wait(&ga, MPI_STATUS_IGNORE);
    }
    persist_expect(h);
    MPI_Request_free(&ar);
    MPI_Request_free(&ga);
    persist_expect(h);                   /* freed: still counted */
    for (int a = 0; a < NALGS; ++a) {
        MPI_T_pvar_handle_free(session, &h[a]);
    }
    free(all);
}

#ifdef OMPI_HAVE_MPI_EXT_NOTIFY
/* mpi_notify_issued: N put_notify to the right neighbour and one to
 * MPI_PROC_NULL are +N, on a window of whatever osc component. */
static void test_notify(void)
{
    MPI_T_pvar_handle h = handle_on("mpi_notify_issued", NULL);
    unsigned long long v;
    int *base, one = 1;
    MPI_Win win;

    CHECK(MPI_SUCCESS == MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL,
                                          MPI_COMM_WORLD, &base, &win));
    CHECK(MPI_SUCCESS == MPI_Win_lock_all(0, win));
    for (int i = 0; i < N; ++i) {
        CHECK(MPI_SUCCESS == MPIX_Put_notify(&one, 1, MPI_INT, right, 0, 1, MPI_INT, 0, win));
    }
    CHECK(MPI_SUCCESS == MPIX_Put_notify(&one, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, 0, win));
    CHECK(MPI_SUCCESS == MPI_Win_unlock_all(win));
    v = readh(h);
    if (N != v) {
        printf("rank %d: mpi_notify_issued %llu after %d put_notify\n", rank, v, N);
        ompix_test_failures++;
    }
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &h));
    CHECK(MPI_SUCCESS == MPI_Win_free(&win));
}
#endif

#ifdef OMPI_HAVE_MPI_EXT_CONTINUE
static void count_cb(MPI_Status *st, void *data)
{
    (void) st;
    ++*(int *) data;
}

/* N continuations on receives from the left and sends to the right. */
static void test_continue(void)
{
    MPI_T_pvar_handle reg, run;
    MPI_Request cr;
    int sbuf = 1, rbuf[N / 2], ran = 0;

    CHECK(MPI_SUCCESS == MPIX_Continue_init(MPI_INFO_NULL, &cr));
    reg = handle_on("mpi_continue_registered", NULL);
    run = handle_on("mpi_continue_run", NULL);
    for (int i = 0; i < N / 2; ++i) {
        MPI_Request r[2];

        CHECK(MPI_SUCCESS == MPI_Irecv(&rbuf[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &r[0]));
        CHECK(MPI_SUCCESS == MPI_Isend(&sbuf, 1, MPI_INT, right, i, MPI_COMM_WORLD, &r[1]));
        CHECK(MPI_SUCCESS == MPIX_Continue(&r[0], count_cb, &ran, 0, MPI_STATUS_IGNORE, cr));
        CHECK(MPI_SUCCESS == MPIX_Continue(&r[1], count_cb, &ran, 0, MPI_STATUS_IGNORE, cr));
    }
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(N == ran);
    CHECK(ompix_mpit_pvar_expect(session, reg, "mpi_continue_registered", N));
    CHECK(ompix_mpit_pvar_expect(session, run, "mpi_continue_run", N));
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &run));
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &reg));
    CHECK(MPI_SUCCESS == MPI_Request_free(&cr));
}
#endif

#ifdef OMPI_HAVE_MPI_EXT_CHAN
static MPI_Request null_channel(void)
{
    MPI_Request chan = ompix_chan_null_channel();

    CHECK(MPI_REQUEST_NULL != chan);
    return chan;
}

static void test_fallback(void)
{
    MPI_Request c1 = null_channel(), c2;
    MPI_T_pvar_handle ch = handle_on("mpi_chan_fallback_channels", NULL);
    MPI_T_pvar_handle st = handle_on("mpi_chan_fallback_starts", NULL);

    for (int i = 0; i < N; ++i) {
        CHECK(MPI_SUCCESS == MPI_Start(&c1));
        CHECK(MPI_SUCCESS == MPI_Wait(&c1, MPI_STATUS_IGNORE));
    }
    c2 = null_channel();
    CHECK(ompix_mpit_pvar_expect(session, ch, "mpi_chan_fallback_channels", 1));
    CHECK(ompix_mpit_pvar_expect(session, st, "mpi_chan_fallback_starts", N));
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&c2));
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&c1));
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &st));
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &ch));
}
#endif

int main(int argc, char **argv)
{
    int provided, index[NEXPECTED];

#ifdef OMPI_HAVE_MPI_EXT_CHAN
    ompix_chan_add_to_pml_list();
#endif
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    ompix_test_init(&argc, &argv);
    enumerate(index);
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_create(&session));
    test_window();
    test_persist();
#ifdef OMPI_HAVE_MPI_EXT_NOTIFY
    test_notify();
#endif
#ifdef OMPI_HAVE_MPI_EXT_CHAN
    test_channels();
    test_fallback();
#endif
#ifdef OMPI_HAVE_MPI_EXT_CONTINUE
    test_continue();
#endif
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_free(&session));
    MPI_T_finalize();
    return ompix_test_finish("mpit_pvars");
}
