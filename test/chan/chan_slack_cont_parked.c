/*
 * ompix-test: np=2 tls=shm,tcp pml=ob1,ucx timeout=60
 *
 * MPIX_Continue on a slack channel with starts outstanding and room for
 * more (on Open MPI 5.0 such a channel is parked: shown inactive between
 * calls, common_ompix_compat_request.h): the channel is active, so a
 * continuation without MPIX_CONT_PERSISTENT is accepted and runs once,
 * for the oldest start outstanding, with its status and data
 * (address_base_increment 1: each start has its own slot); the channel
 * then presents the later start to MPI_Wait (on both series it saw the
 * request inactive, consumed by the continuation, and returned at once)
 * and takes more starts.  The sender runs the same pattern on its end.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#define K 4
#define ROUNDS 20

typedef struct {
    int ran, bad, expect;
    int *slots;
} parked_seen_t;

/* The receiver checks message `expect`'s data and status. */
static void parked_cb(MPI_Status *st, void *data)
{
    parked_seen_t *s = data;

    s->bad += 0 != rank && (s->slots[s->expect % K] != s->expect || 0 != st[0].MPI_SOURCE ||
                            8 != st[0].MPI_TAG);
    s->ran++;
}

/* Rank 0 sends to rank 1, a slot per start (info: address_base_increment). */
static MPI_Request parked_bind(int *slots, MPI_Info info)
{
    MPI_Request p2p, chan;

    if (0 == rank) {
        MPI_Send_init(slots, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &p2p);
    } else {
        MPI_Recv_init(slots, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &p2p);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_slack_channel(p2p, &chan, K, info));
    MPI_Request_free(&p2p);
    return chan;
}

/* Message n's start (the sender fills its slot first). */
static void parked_start(MPI_Request *chan, int *slots, int n)
{
    if (0 == rank) {
        slots[n % K] = n;
    }
    CHECK(MPI_SUCCESS == MPI_Start(chan));
}

/* Message n reported by MPI_Wait, its data checked on the receiver. */
static void parked_wait(MPI_Request *chan, int *slots, int n)
{
    MPI_Status st;

    CHECK(MPI_SUCCESS == MPI_Wait(chan, &st));
    if (0 != rank) {
        CHECK(slots[n % K] == n && 0 == st.MPI_SOURCE && 8 == st.MPI_TAG);
    }
}

/* One round: starts n, n+1 (parked with room on 5.0), the continuation
 * for n and its run, then MPI_Wait for n+1 and a last start n+2 and its
 * Wait (the channel takes starts again once the continuation ran). */
static void parked_round(MPI_Request *chan, int *slots, MPI_Request cr, int n)
{
    parked_seen_t s = {0, 0, n, slots};
    MPI_Status st;

    parked_start(chan, slots, n);
    parked_start(chan, slots, n + 1);
    CHECK(MPI_SUCCESS == MPIX_Continue(chan, parked_cb, &s, 0, &st, cr));
    CHECK(MPI_SUCCESS == MPI_Wait(&cr, MPI_STATUS_IGNORE));
    CHECK(1 == s.ran && 0 == s.bad);
    parked_wait(chan, slots, n + 1);
    parked_start(chan, slots, n + 2);
    parked_wait(chan, slots, n + 2);
}

int main(int argc, char **argv)
{
    int slots[K] = {0};
    MPI_Request chan, cr;
    MPI_Info info;
    int n = 0;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    MPI_Info_create(&info);
    MPI_Info_set(info, "address_base_increment", "1");
    chan = parked_bind(slots, info);
    MPI_Info_free(&info);
    MPIX_Continue_init(MPI_INFO_NULL, &cr);
    for (int r = 0; r < ROUNDS; ++r, n += 3) {
        parked_round(&chan, slots, cr, n);
    }
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    MPI_Request_free(&cr);
    return ompix_test_finish("chan_slack_cont_parked");
}
