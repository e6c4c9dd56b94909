/*
 * ompix-test: np=2 tls=shm,tcp,net pml=ob1,ucx timeout=60 paths="chan:tag"
 *
 * Wait/Test on arrays of channels only, which the extension sends to
 * pml/chan's engine (wait()/poll()) rather than to Open MPI's wait loops
 * (chan_wait_off.c runs it on the generic fallback, where the originals
 * serve them): MPI_Waitany, MPI_Waitsome, MPI_Testsome and MPI_Testany
 * over three channels and MPI_REQUEST_NULL, index, status and data checked
 * on every round, MPI_UNDEFINED once all are reported, MPI_Waitall on the
 * sending side.  And MPI's progress rule: a rank blocked in MPI_Wait on a
 * channel still progresses other work (a nonblocking bind its peer must
 * finish before it sends on that channel); a wait that never progressed
 * would hang here.
 *
 * Sends are bound from MPI_Ssend_init (synchronous channels): the sender
 * does not know that the receives were started.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <string.h>

#define NCHAN 3
#define ROUNDS 30

/* The receiving side of one round: every channel reported once, by the
 * form chosen for the round. */
static void collect(MPI_Request *chans, int *rbuf, int r)
{
    int seen[NCHAN] = {0}, got = 0;

    while (got < NCHAN) {
        int idx[NCHAN + 1], n = 0, flag = 0;
        MPI_Status st[NCHAN + 1];
        switch (r % 4) {
        case 0:
            MPI_Waitany(NCHAN + 1, chans, &idx[0], &st[0]);
            n = 1;
            break;
        case 1:
            MPI_Waitsome(NCHAN + 1, chans, &n, idx, st);
            break;
        case 2:
            MPI_Testsome(NCHAN + 1, chans, &n, idx, st);
            break;
        default:
            MPI_Testany(NCHAN + 1, chans, &idx[0], &flag, &st[0]);
            n = flag && MPI_UNDEFINED != idx[0];
            break;
        }
        CHECK(n >= 0 && n <= NCHAN - got);
        for (int k = 0; k < n; ++k) {
            int i = idx[k], count = -1;
            CHECK(i >= 0 && i < NCHAN && !seen[i]);
            if (i < 0 || i >= NCHAN) {
                continue;
            }
            seen[i] = 1;
            MPI_Get_count(&st[k], MPI_INT, &count);
            CHECK(0 == st[k].MPI_SOURCE && 10 + i == st[k].MPI_TAG && 1 == count);
            CHECK(r * 100 + i == rbuf[i]);
        }
        got += n;
    }
    {
        int idx = 0;
        MPI_Waitany(NCHAN + 1, chans, &idx, MPI_STATUS_IGNORE);
        CHECK(MPI_UNDEFINED == idx);
    }
}

static void arrays(void)
{
    int sbuf[NCHAN], rbuf[NCHAN];
    MPI_Request in[NCHAN], chans[NCHAN + 1];

    for (int i = 0; i < NCHAN; ++i) {
        if (0 == rank) {
            MPI_Ssend_init(&sbuf[i], 1, MPI_INT, 1, 10 + i, MPI_COMM_WORLD, &in[i]);
        } else {
            MPI_Recv_init(&rbuf[i], 1, MPI_INT, 0, 10 + i, MPI_COMM_WORLD, &in[i]);
        }
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channels(NCHAN, in, chans, NULL));
    chans[NCHAN] = MPI_REQUEST_NULL;
    for (int r = 0; r < ROUNDS; ++r) {
        if (0 == rank) {
            for (int i = 0; i < NCHAN; ++i) {
                sbuf[i] = r * 100 + i;
            }
            MPI_Startall(NCHAN, chans);
            MPI_Waitall(NCHAN + 1, chans, MPI_STATUSES_IGNORE);
        } else {
            memset(rbuf, 0xff, sizeof(rbuf));
            MPI_Startall(NCHAN, chans);
            collect(chans, rbuf, r);
        }
    }
    CHECK(MPI_SUCCESS == MPIX_Unbind_channels(NCHAN, chans));
    for (int i = 0; i < NCHAN; ++i) {
        MPI_Request_free(&in[i]);
    }
}

/* Rank 0 waits on channel c while its nonblocking bind of another pair
 * is still to be answered: rank 1 binds that pair (blocking: it needs
 * rank 0's reply, sent from rank 0's progress) and only then sends on c. */
static void progress_rule(void)
{
    int x = -1, y = -1;
    MPI_Request req, c, other, oc = MPI_REQUEST_NULL;

    if (0 == rank) {
        MPI_Recv_init(&x, 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &req);
        MPI_Recv_init(&y, 1, MPI_INT, 1, 21, MPI_COMM_WORLD, &other);
    } else {
        MPI_Ssend_init(&x, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, &req);
        MPI_Ssend_init(&y, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, &other);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &c, MPI_INFO_NULL));
    if (0 == rank) {
        MPI_Start(&c);
        CHECK(MPI_SUCCESS == MPIX_Ibind_channel(other, &oc, MPI_INFO_NULL));
        MPI_Send(NULL, 0, MPI_BYTE, 1, 22, MPI_COMM_WORLD);
        CHECK(MPI_SUCCESS == MPI_Wait(&c, MPI_STATUS_IGNORE));
        CHECK(7 == x);
        CHECK(MPI_SUCCESS == MPI_Wait(&other, MPI_STATUS_IGNORE));
        CHECK(MPI_REQUEST_NULL != oc);
        MPI_Start(&oc);
        MPI_Wait(&oc, MPI_STATUS_IGNORE);
        CHECK(8 == y);
    } else {
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(MPI_SUCCESS == MPIX_Bind_channel(other, &oc, MPI_INFO_NULL));
        x = 7;
        MPI_Start(&c);
        MPI_Wait(&c, MPI_STATUS_IGNORE);
        y = 8;
        MPI_Start(&oc);
        MPI_Wait(&oc, MPI_STATUS_IGNORE);
    }
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&c));
    CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&oc));
    MPI_Request_free(&req);
    MPI_Request_free(&other);
}

int main(int argc, char **argv)
{
    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    arrays();
    progress_rule();
    return ompix_test_finish("chan_wait");
}
