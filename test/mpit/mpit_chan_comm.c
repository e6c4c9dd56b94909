/*
 * ompix-test: np=2,3 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * pml/chan's comm-bound MPI_T counters pml_chan_comm_channels_<path>,
 * pml_chan_comm_starts_<path> and pml_chan_comm_bytes_<path>
 * (MPI_T_BIND_MPI_COMM), read with exact values per handle on
 * MPI_COMM_WORLD and on a duplicate of it, in pairs (2k, 2k+1; a third
 * rank has no channel and reads 0 everywhere).  World: a channel of 8 ints
 * bound and started 2 times before the handles exist (those starts and the
 * bind are not theirs), then 5 times; the duplicate: a channel of 4 ints
 * bound after the handles, started 3 times.  Each handle sees only its
 * communicator's channels, starts and bytes; summed over the paths the
 * two communicators' counts are exactly the process-wide counters'
 * (pml_chan_<metric>_<path>) growth on every path; unbinding both channels
 * changes nothing (the counts stay with the communicator); the duplicate's
 * handles freed and the duplicate freed, a new duplicate (often at the
 * same address) starts from 0 and counts only its own channel (1 channel,
 * 2 starts), while world still reads what it read.  A handle without a
 * communicator is refused (the binding needs one).
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <string.h>

#define NPATHS 4
#define NMETRICS 3

static const char *const path_names[NPATHS] = {"mapped", "am", "tag", "large"};
static const char *const metric_names[NMETRICS] = {"channels", "starts", "bytes"};

static MPI_T_pvar_session session;

/* A set of handles: every metric on every path. */
typedef struct {
    MPI_T_pvar_handle h[NMETRICS][NPATHS];
} set_t;

typedef struct {
    unsigned long long v[NMETRICS][NPATHS];
} counts_t;

/* Handles on pml_chan_<prefix><metric>_<path>, bound to comm (or none). */
static void set_alloc(set_t *s, const char *prefix, MPI_Comm *comm, int want_bind)
{
    for (int m = 0; m < NMETRICS; ++m) {
        for (int p = 0; p < NPATHS; ++p) {
            char name[96], n[96], desc[512];
            int index = -1, count = 0, nlen = sizeof(n), dlen = sizeof(desc);
            int verb, cls, bind = -1, ro = 0, cont = 0, at;
            MPI_Datatype type;
            MPI_T_enum et;

            s->h[m][p] = MPI_T_PVAR_HANDLE_NULL;
            snprintf(name, sizeof(name), "pml_chan_%s%s_%s", prefix, metric_names[m],
                     path_names[p]);
            CHECK(MPI_SUCCESS == MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index));
            CHECK(MPI_SUCCESS == MPI_T_pvar_get_info(index, n, &nlen, &verb, &cls, &type, &et,
                                                     desc, &dlen, &bind, &ro, &cont, &at));
            CHECK(want_bind == bind && MPI_UNSIGNED_LONG_LONG == type && ro && cont);
            CHECK(MPI_SUCCESS == MPI_T_pvar_handle_alloc(session, index, comm, &s->h[m][p],
                                                         &count));
            CHECK(1 == count);
        }
    }
}

static void set_free(set_t *s)
{
    for (int m = 0; m < NMETRICS; ++m) {
        for (int p = 0; p < NPATHS; ++p) {
            CHECK(MPI_SUCCESS == MPI_T_pvar_handle_free(session, &s->h[m][p]));
        }
    }
}

static counts_t set_read(set_t *s)
{
    counts_t c;

    for (int m = 0; m < NMETRICS; ++m) {
        for (int p = 0; p < NPATHS; ++p) {
            c.v[m][p] = ~0ULL;
            CHECK(MPI_SUCCESS == MPI_T_pvar_read(session, s->h[m][p], &c.v[m][p]));
        }
    }
    return c;
}

/* Summed over the paths, the counts are channels, starts and bytes; and
 * everything is on one path. */
static void expect_sums(const counts_t *c, unsigned long long channels,
                        unsigned long long starts, unsigned long long bytes, const char *where)
{
    unsigned long long want[NMETRICS] = {channels, starts, bytes};
    int used = 0;

    for (int m = 0; m < NMETRICS; ++m) {
        unsigned long long sum = 0;
        for (int p = 0; p < NPATHS; ++p) {
            sum += c->v[m][p];
        }
        if (sum != want[m]) {
            printf("rank %d: %s: %s summed over the paths %llu, expected %llu\n", rank, where,
                   metric_names[m], sum, want[m]);
            ompix_test_failures++;
        }
    }
    for (int p = 0; p < NPATHS; ++p) {
        used += 0 != c->v[1][p];
    }
    CHECK(used <= 1);
}

static void expect_same(const counts_t *a, const counts_t *b, const char *where)
{
    for (int m = 0; m < NMETRICS; ++m) {
        for (int p = 0; p < NPATHS; ++p) {
            if (a->v[m][p] != b->v[m][p]) {
                printf("rank %d: %s: %s_%s %llu, expected %llu\n", rank, where, metric_names[m],
                       path_names[p], a->v[m][p], b->v[m][p]);
                ompix_test_failures++;
            }
        }
    }
}

/* A synchronous channel of n ints to rank ^ 1 on comm; MPI_REQUEST_NULL
 * for a rank without a partner. */
static MPI_Request channel(MPI_Comm comm, int *buf, int n)
{
    MPI_Request req, chan = MPI_REQUEST_NULL;
    int peer = rank ^ 1;

    if (peer >= size) {
        return MPI_REQUEST_NULL;
    }
    if (0 == rank % 2) {
        MPI_Ssend_init(buf, n, MPI_INT, peer, 5, comm, &req);
    } else {
        MPI_Recv_init(buf, n, MPI_INT, peer, 5, comm, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
    MPI_Request_free(&req);
    return chan;
}

static void run(MPI_Request *chan, int *buf, int times)
{
    for (int i = 0; i < times && MPI_REQUEST_NULL != *chan; ++i) {
        buf[0] = 100 + i;
        MPI_Start(chan);
        MPI_Wait(chan, MPI_STATUS_IGNORE);
        CHECK(100 + i == buf[0]);
    }
}

static void unbind(MPI_Request *chan)
{
    if (MPI_REQUEST_NULL != *chan) {
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(chan));
    }
}

int main(int argc, char **argv)
{
    int provided, wbuf[8] = {0}, dbuf[4] = {0}, index, count, paired;
    MPI_Comm dup, dup2;
    MPI_Request wch, dch;
    MPI_T_pvar_handle nobj = MPI_T_PVAR_HANDLE_NULL;
    set_t all, hw, hd;
    counts_t all0, w, d, sum, now;

    ompix_chan_add_to_pml_list();
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    ompix_test_init(&argc, &argv);
    paired = (rank ^ 1) < size;
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_create(&session));
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);

    /* world's channel bound and started before the handles exist */
    wch = channel(MPI_COMM_WORLD, wbuf, 8);
    run(&wch, wbuf, 2);
    set_alloc(&all, "", NULL, MPI_T_BIND_NO_OBJECT);
    set_alloc(&hw, "comm_", &(MPI_Comm){MPI_COMM_WORLD}, MPI_T_BIND_MPI_COMM);
    set_alloc(&hd, "comm_", &dup, MPI_T_BIND_MPI_COMM);
    all0 = set_read(&all);
    w = set_read(&hw);
    expect_sums(&w, 0, 0, 0, "world, at creation");

    dch = channel(dup, dbuf, 4);
    run(&wch, wbuf, 5);
    run(&dch, dbuf, 3);
    w = set_read(&hw);
    d = set_read(&hd);
    expect_sums(&w, 0, paired ? 5 : 0, paired ? 5 * 8 * sizeof(int) : 0, "world");
    expect_sums(&d, paired, paired ? 3 : 0, paired ? 3 * 4 * sizeof(int) : 0, "dup");
    /* together, exactly the process-wide growth, path by path */
    sum = set_read(&all);
    for (int m = 0; m < NMETRICS; ++m) {
        for (int p = 0; p < NPATHS; ++p) {
            sum.v[m][p] -= all0.v[m][p];
            w.v[m][p] += d.v[m][p];
        }
    }
    expect_same(&w, &sum, "world + dup against the process-wide counters");

    /* unbound: the counts stay with each communicator */
    w = set_read(&hw);
    d = set_read(&hd);
    unbind(&wch);
    unbind(&dch);
    now = set_read(&hw);
    expect_same(&now, &w, "world, channel unbound");
    now = set_read(&hd);
    expect_same(&now, &d, "dup, channel unbound");

    /* the duplicate freed with its handles: a new one starts from 0 */
    set_free(&hd);
    MPI_Comm_free(&dup);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup2);
    set_alloc(&hd, "comm_", &dup2, MPI_T_BIND_MPI_COMM);
    d = set_read(&hd);
    expect_sums(&d, 0, 0, 0, "new dup, at creation");
    dch = channel(dup2, dbuf, 4);
    run(&dch, dbuf, 2);
    unbind(&dch);
    d = set_read(&hd);
    expect_sums(&d, paired, paired ? 2 : 0, paired ? 2 * 4 * sizeof(int) : 0, "new dup");
    now = set_read(&hw);
    expect_same(&now, &w, "world, after the new dup's channel");

    /* bound to a communicator: no object is refused */
    CHECK(MPI_SUCCESS == MPI_T_pvar_get_index("pml_chan_comm_starts_tag",
                                              MPI_T_PVAR_CLASS_COUNTER, &index));
    CHECK(MPI_SUCCESS != MPI_T_pvar_handle_alloc(session, index, NULL, &nobj, &count));

    set_free(&hd);
    set_free(&hw);
    set_free(&all);
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_free(&session));
    MPI_Comm_free(&dup2);
    MPI_T_finalize();
    return ompix_test_finish("mpit_chan_comm");
}
