/*
 * ompix-test: np=2 tls=shm,tcp,net pml=ob1,ucx timeout=60 paths="chan:tag"
 *
 * Slack 4 with the Wait/Test wrappers of both extensions: the channel
 * extension's (which present the next outstanding start of a slack
 * channel) and the continue extension's.  The receiver hangs a persistent
 * continuation on a slack-4 channel and starts it once per message; the
 * callback must run once per message, in order, with the data of that
 * message (address_base_increment 1); a second start while one is
 * outstanding is refused with MPI_ERR_REQUEST.  The sender starts 4 times and then
 * waits 4 times back to back (each Wait must report a later start, never
 * the stale completion of the previous one), then tests 4 times in a loop.
 * CONT_FIRST (chan_slack_cont_first.c) initializes the continue extension
 * before the first slack channel exists, so the wrappers chain the other
 * way round.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#define K 4
#define ROUNDS 100

typedef struct {
    int ran, bad;
    int *slots;
} slack_seen_t;

static void slack_cb(MPI_Status *st, void *data)
{
    slack_seen_t *s = data;

    if (s->slots[s->ran % K] != s->ran || 0 != st[0].MPI_SOURCE || 8 != st[0].MPI_TAG) {
        s->bad++;
    }
    s->ran++;
}

static MPI_Request slack_bind(int *slots)
{
    MPI_Request req, chan;
    MPI_Info info;

    if (0 == rank) {
        MPI_Ssend_init(slots, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(slots, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &req);
    }
    MPI_Info_create(&info);
    MPI_Info_set(info, "address_base_increment", "1");
    CHECK(MPI_SUCCESS == MPIX_Bind_slack_channel(req, &chan, K, info));
    MPI_Info_free(&info);
    MPI_Request_free(&req);
    return chan;
}

static void slack_send(MPI_Request chan, int *slots)
{
    MPI_Status st;
    int flag;

    for (int r = 0; r < ROUNDS; ++r) {
        for (int k = 0; k < K; ++k) {
            slots[k] = r * K + k;
            CHECK(MPI_SUCCESS == MPI_Start(&chan));
        }
        if (r % 2) {
            for (int k = 0; k < K; ++k) {
                CHECK(MPI_SUCCESS == MPI_Wait(&chan, &st));
            }
        } else {
            for (int k = 0; k < K; ++k) {
                do {
                    CHECK(MPI_SUCCESS == MPI_Test(&chan, &flag, &st));
                } while (!flag);
            }
        }
    }
    /* Nothing outstanding: unbind succeeds. */
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
}

static void slack_recv(MPI_Request chan, int *slots, MPI_Request cr)
{
    slack_seen_t s = {0, 0, slots};
    MPI_Status st;
    int flag;

    CHECK(MPI_SUCCESS == MPIX_Continue(&chan, slack_cb, &s, MPIX_CONT_PERSISTENT, &st, cr));
    /* One start outstanding at a time: a persistent continuation is armed
     * once per start, and the continue extension refuses a second start of
     * a request that is still active (MPI_ERR_REQUEST). */
    for (int n = 0; n < K * ROUNDS; ++n) {
        CHECK(MPI_SUCCESS == MPI_Start(&chan));
        if (0 == n) {
            /* A second start while the first is outstanding is refused
             * (no progress ran in between, so the first is still
             * active), and the continuation stays intact. */
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            CHECK(MPI_ERR_REQUEST == err_class(MPI_Start(&chan)));
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        }
        while (s.ran < n + 1) {
            MPI_Iprobe(0, 12345, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
    }
    CHECK(K * ROUNDS == s.ran && 0 == s.bad);
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
}

int main(int argc, char **argv)
{
    int slots[K] = {0};
    MPI_Request chan, cr;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
#ifdef CONT_FIRST
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    chan = slack_bind(slots);
#else
    chan = slack_bind(slots);
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
#endif
    if (0 == rank) {
        slack_send(chan, slots);
    } else {
        slack_recv(chan, slots, cr);
    }
    MPI_Request_free(&cr);
    return ompix_test_finish("chan_slack_cont");
}
