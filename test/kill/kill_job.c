/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The MPI program of test/kill/kill.py (it has no test header line:
 * test/run does not run it by itself).  Two ranks; rank 1, the victim, SIGKILLs itself
 * in the middle of what argv[1] names while rank 0 keeps going:
 *
 *   lockall     put + flush and fetch_and_op + flush on an osc/rdma2 window
 *               in a lock_all epoch
 *   chan        a channel ping-pong (MPIX_Bind_channel)
 *   persist     a persistent allreduce loop (coll/persist)
 *   cont        a continuation request waited on, its receive from the victim
 *   readnotify  a pipeline of MPIX_Win_read_notify + waitsome/reset
 *   alloc_before, create_before  the victim dies before MPI_Win_allocate /
 *               MPI_Win_create, which the survivor then calls
 *   alloc_inside, create_inside  the victim dies inside the call (a thread
 *               kills it while the survivor is still on its way in)
 *   huge        MPI_Win_allocate of 2^50 bytes fails (class printed), then
 *               the victim dies in an ordinary lock_all epoch
 *
 * Before the victim dies, both ranks print what they map from /dev/shm
 * ("SEG <path>", names not yet unlinked) and System V segments ("SYSV
 * <shmid>") from /proc/self/maps: what this job made, which kill.py looks
 * for after the job ended.  The survivor prints first and then tells the
 * victim (a message, no barrier); the victim prints "KILL <seconds since
 * the epoch>" just before raise(SIGKILL).  The job must end on its own:
 * the survivor would loop for hours.
 */
#include "ompix_test.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define KILL_ROUNDS 200         /* victim's rounds before it dies */
#define KILL_FOREVER 100000000L /* survivor's rounds: never reached */
#define KILL_WIN_BYTES 65536
#define KILL_TAG 77

static int kill_victim;         /* this rank is rank 1 */
static FILE *kill_out;          /* <dir>/rank<r>: what kill.py reads */

/* What this process maps that a killed job could leave behind. */
static void kill_print_segments(void)
{
    char line[4096];
    FILE *f = fopen("/proc/self/maps", "r");

    if (NULL == f) {
        return;
    }
    while (NULL != fgets(line, sizeof(line), f)) {
        char *path = strchr(line, '/');
        unsigned long inode = 0;

        line[strcspn(line, "\n")] = '\0';
        if (NULL == path || NULL != strstr(path, "(deleted)")) {
            if (NULL != path && 0 == strncmp(path, "/SYSV", 5) &&
                1 == sscanf(line, "%*s %*s %*s %*s %lu", &inode)) {
                fprintf(kill_out, "SYSV %lu\n", inode);
            }
            continue;
        }
        if (0 == strncmp(path, "/dev/shm/", 9)) {
            fprintf(kill_out, "SEG %s\n", path);
        } else if (0 == strncmp(path, "/SYSV", 5) &&
                   1 == sscanf(line, "%*s %*s %*s %*s %lu", &inode)) {
            fprintf(kill_out, "SYSV %lu\n", inode);
        }
    }
    fclose(f);
}

static double kill_now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

static void kill_me(void)
{
    kill_print_segments();
    fprintf(kill_out, "KILL %.3f\n", kill_now());
    fclose(kill_out);
    raise(SIGKILL);
}

/* The survivor prints its segments and tells the victim it may go on. */
static void kill_handshake(void)
{
    int token = 1;

    if (!kill_victim) {
        kill_print_segments();
        fflush(kill_out);
        MPI_Send(&token, 1, MPI_INT, 1, KILL_TAG, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&token, 1, MPI_INT, 0, KILL_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* The victim dies after KILL_ROUNDS rounds; the survivor never stops. */
static int kill_round_done(long i)
{
    if (kill_victim && i == KILL_ROUNDS) {
        kill_me();
    }
    return i >= KILL_FOREVER;
}

static MPI_Win kill_window(void **base)
{
    MPI_Win win;

    MPI_Win_allocate(KILL_WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, &win);
    memset(*base, 0, KILL_WIN_BYTES);
    return win;
}

static void kill_lockall(void)
{
    void *base;
    MPI_Win win = kill_window(&base);
    int64_t one = 1, old, val = 42;
    int peer = 1 - rank;

    MPI_Win_lock_all(0, win);
    kill_handshake();
    for (long i = 0; !kill_round_done(i); ++i) {
        MPI_Put(&val, 1, MPI_INT64_T, peer, 64, 1, MPI_INT64_T, win);
        MPI_Win_flush(peer, win);
        MPI_Fetch_and_op(&one, &old, MPI_INT64_T, peer, 0, MPI_SUM, win);
        MPI_Win_flush(peer, win);
    }
}

#if defined(OMPI_HAVE_MPI_EXT_CHAN) && OMPI_HAVE_MPI_EXT_CHAN
static void kill_chan(void)
{
    int sbuf = 0, rbuf = 0, peer = 1 - rank;
    MPI_Request req[2], chan[2];
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};

    MPI_Send_init(&sbuf, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Recv_init(&rbuf, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &req[1]);
    CHECK(MPI_SUCCESS == MPIX_Bind_channels(2, req, chan, infos));
    kill_handshake();
    for (long i = 0; !kill_round_done(i); ++i) {
        sbuf = (int) i;
        MPI_Start(&chan[rank]);         /* rank 0 sends first */
        MPI_Wait(&chan[rank], MPI_STATUS_IGNORE);
        MPI_Start(&chan[1 - rank]);
        MPI_Wait(&chan[1 - rank], MPI_STATUS_IGNORE);
    }
}
#endif

static void kill_persist(void)
{
    int in = 1, out = 0;
    MPI_Request req;

    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    kill_handshake();
    for (long i = 0; !kill_round_done(i); ++i) {
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(2 == out);
    }
}

static void kill_cont_cb(MPI_Status *st, void *data)
{
    (void) st;
    ++*(long *) data;
}

static void kill_cont(void)
{
    int sbuf = 0, rbuf = 0, peer = 1 - rank;
    long ran = 0;
    MPI_Request cont, req;

    MPIX_Continue_init(MPI_INFO_NULL, &cont);
    kill_handshake();
    for (long i = 0; !kill_round_done(i); ++i) {
        MPI_Irecv(&rbuf, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &req);
        MPIX_Continue(&req, kill_cont_cb, &ran, 0, MPI_STATUS_IGNORE, cont);
        MPI_Send(&sbuf, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
        MPI_Wait(&cont, MPI_STATUS_IGNORE);
        CHECK(ran == i + 1);
    }
}

static void kill_readnotify(void)
{
    void *base;
    MPI_Win win = kill_window(&base);
    static char bufs[8][64];
    int peer = 1 - rank, id;
    MPI_Count count;

    MPI_Win_lock_all(0, win);
    kill_handshake();
    for (int s = 0; s < 8; ++s) {
        MPIX_Win_read_notify(bufs[s], 64, MPI_BYTE, peer, 64 * s, 64, MPI_BYTE, s, win);
    }
    for (long i = 0; !kill_round_done(i); ++i) {
        MPIX_Win_notify_waitsome(win, 0, 8, MPIX_NOTIFY_BLOCK, &id);
        MPIX_Win_notify_reset(win, id, &count);
        MPIX_Win_read_notify(bufs[id], 64, MPI_BYTE, peer, 64 * id, 64, MPI_BYTE, id, win);
    }
}

static void *kill_timer(void *arg)
{
    usleep(*(int *) arg);
    kill_me();
    return NULL;
}

/* Window creation with a dead peer: before or inside the call. */
static void kill_create(int allocate, int inside)
{
    static char mem[KILL_WIN_BYTES];
    static int delay_us = 300000;
    pthread_t timer;
    MPI_Win win;
    void *base;

    kill_handshake();
    if (kill_victim && !inside) {
        kill_me();
    }
    if (kill_victim) {          /* dies while waiting in the creation */
        pthread_create(&timer, NULL, kill_timer, &delay_us);
    } else {
        usleep(2 * delay_us);   /* the victim is in (or dead) by then */
    }
    if (allocate) {
        MPI_Win_allocate(KILL_WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    } else {
        MPI_Win_create(mem, KILL_WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }
    for (;;) {                  /* creation returned: the survivor waits */
        MPI_Win_fence(0, win);
    }
}

static void kill_huge(void)
{
    void *base;
    MPI_Win win;
    int rc;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Win_allocate((MPI_Aint) 1 << 50, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    fprintf(kill_out, "HUGE %d\n", err_class(rc));
    CHECK(MPI_SUCCESS != rc);
    kill_lockall();
}

static FILE *kill_open(const char *dir)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/rank%d", dir, rank);
    f = fopen(path, "w");
    if (NULL == f) {
        printf("kill_job: cannot write %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* Open MPI 4.1's job id: the names of the job's segments carry it */
    fprintf(f, "JOB %s\n", getenv("OMPI_MCA_ess_base_jobid") ? getenv("OMPI_MCA_ess_base_jobid") : "");
    return f;
}

static const struct {
    const char *name;
    void (*run)(void);
} kill_cases[] = {
    {"lockall", kill_lockall},
#if defined(OMPI_HAVE_MPI_EXT_CHAN) && OMPI_HAVE_MPI_EXT_CHAN
    {"chan", kill_chan},
#endif
    {"persist", kill_persist},   {"cont", kill_cont},
    {"readnotify", kill_readnotify}, {"huge", kill_huge},
};

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";

    if (0 == strcmp(what, "--list")) {  /* the cases this build has, without MPI */
        for (size_t k = 0; k < sizeof(kill_cases) / sizeof(kill_cases[0]); ++k) {
            printf("%s\n", kill_cases[k].name);
        }
        return 0;
    }
    int inside = NULL != strstr(what, "inside");
    int provided = ompix_test_init_thread(&argc, &argv,
                                          inside ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE);

    kill_victim = 1 == rank;
    kill_out = kill_open(argc > 2 ? argv[2] : ".");
    if (2 != size || (inside && MPI_THREAD_MULTIPLE != provided)) {
        printf("kill_job: needs 2 ranks and MPI_THREAD_MULTIPLE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (0 == strncmp(what, "alloc_", 6) || 0 == strncmp(what, "create_", 7)) {
        kill_create('a' == what[0], inside);
    }
    for (size_t k = 0; k < sizeof(kill_cases) / sizeof(kill_cases[0]); ++k) {
        if (0 == strcmp(what, kill_cases[k].name)) {
            kill_cases[k].run();
        }
    }
    printf("kill_job: unknown case '%s' or the survivor's loop ended\n", what);
    MPI_Abort(MPI_COMM_WORLD, 3);
    return 3;
}
