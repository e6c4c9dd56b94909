/*
 * ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=90
 *
 * Channels under the PML configuration a user has (issue 27): test/run's
 * plain --mca pml ob1|ucx, without chan in the list (the other tests add
 * it).  chan_anypml_none.c runs without any pml list, chan_anypml_conf.c
 * with "pml = X" in a private params file, chan_anypml_nochan.c with a
 * list that excludes pml/chan (^chan: the fallback reads the PML's own
 * requests), chan_anypml_off.c with the engine off.  Requests are created
 * before the first bind (before the extension loads pml/chan, so nothing
 * recorded them) and after it: standard, synchronous and ready sends,
 * receives from a rank and from MPI_ANY_SOURCE with MPI_ANY_TAG, a derived
 * datatype; data and statuses checked over many starts.  After the binds,
 * pml/chan's variables exist (MPI_T) unless the list excluded it.
 */
#include "ompix_test.h"

#include <string.h>

/* Before and after MPI_Init; whether pml/chan's variables must exist
 * after the binds (1), must not (0), or can not be known (-1: Open MPI
 * opened it and deregistered its variables when it closed the PMLs it did
 * not select, issue 27.7). */
#ifndef CHAN_ANYPML_SETUP
#define CHAN_ANYPML_SETUP()
#endif
#ifndef CHAN_ANYPML_AFTER_INIT
#define CHAN_ANYPML_AFTER_INIT()
#endif
#ifndef CHAN_ANYPML_ENGINE_LOADED
#define CHAN_ANYPML_ENGINE_LOADED 1
#endif

#define ANY_ROUNDS 200

/* Whether MPI_T knows the control variable name. */
static int cvar_exists(const char *name)
{
    int n = 0;

    MPI_T_cvar_get_num(&n);
    for (int i = 0; i < n; ++i) {
        char cname[256], desc[8];
        int nlen = sizeof(cname), dlen = sizeof(desc), verb, bind, scope;
        MPI_Datatype dt;
        MPI_T_enum en;

        if (MPI_SUCCESS == MPI_T_cvar_get_info(i, cname, &nlen, &verb, &dt, &en, desc, &dlen,
                                               &bind, &scope)
            && 0 == strcmp(cname, name)) {
            return 1;
        }
    }
    return 0;
}

/* Sends right, receives from left; kind 0: standard + explicit source,
 * 1: synchronous + MPI_ANY_SOURCE/MPI_ANY_TAG, 2: ready + a vector type. */
static void make_pair(int kind, int *sbuf, int *rbuf, MPI_Datatype vec, MPI_Request req[2])
{
    int tag = 20 + kind;

    if (0 == kind) {
        MPI_Send_init(sbuf, 4, MPI_INT, right, tag, MPI_COMM_WORLD, &req[0]);
        MPI_Recv_init(rbuf, 4, MPI_INT, left, tag, MPI_COMM_WORLD, &req[1]);
    } else if (1 == kind) {
        MPI_Ssend_init(sbuf, 4, MPI_INT, right, tag, MPI_COMM_WORLD, &req[0]);
        MPI_Recv_init(rbuf, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req[1]);
    } else {
        MPI_Rsend_init(sbuf, 1, vec, right, tag, MPI_COMM_WORLD, &req[0]);
        MPI_Recv_init(rbuf, 4, MPI_INT, left, tag, MPI_COMM_WORLD, &req[1]);
    }
}

/* Ready sends need their receive started first: receive, barrier, send. */
static void rounds(int kind, int *sbuf, int *rbuf, MPI_Request chan[2])
{
    MPI_Status st;

    for (int r = 0; r < ANY_ROUNDS; ++r) {
        for (int k = 0; k < 4; ++k) {
            sbuf[2 * k] = rank * 100000 + r * 10 + k;   /* the vector takes every other int */
            rbuf[k] = -1;
        }
        MPI_Start(&chan[1]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Start(&chan[0]);
        MPI_Wait(&chan[0], MPI_STATUS_IGNORE);
        MPI_Wait(&chan[1], &st);
        for (int k = 0; k < 4; ++k) {
            int want = 2 == kind ? left * 100000 + r * 10 + k
                                 : (0 == k % 2 ? left * 100000 + r * 10 + k / 2 : -7);
            CHECK(want == rbuf[k]);
        }
        CHECK(left == st.MPI_SOURCE && 20 + kind == st.MPI_TAG);
    }
}

static void pairs(MPI_Datatype vec, int first, int last)
{
    for (int kind = first; kind <= last; ++kind) {
        int sbuf[8], rbuf[4];
        MPI_Request req[2], chan[2];

        for (int k = 0; k < 8; ++k) {
            sbuf[k] = -7;
        }
        make_pair(kind, sbuf, rbuf, vec, req);
        CHECK(MPI_SUCCESS == MPIX_Bind_channels(2, req, chan, NULL));
        rounds(kind, sbuf, rbuf, chan);
        CHECK(MPI_SUCCESS == MPIX_Unbind_channels(2, chan));
        MPI_Request_free(&req[0]);
        MPI_Request_free(&req[1]);
    }
}

int main(int argc, char **argv)
{
    int sbuf[3][8], rbuf[3][4];
    MPI_Request req[3][2], chan[3][2];
    MPI_Datatype vec;
    int provided;

    CHAN_ANYPML_SETUP();
    ompix_test_init(&argc, &argv);
    CHAN_ANYPML_AFTER_INIT();
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    /* Created before any bind: nothing recorded them. */
    for (int kind = 0; kind < 3; ++kind) {
        for (int k = 0; k < 8; ++k) {
            sbuf[kind][k] = -7;
        }
        make_pair(kind, sbuf[kind], rbuf[kind], vec, req[kind]);
    }
    for (int kind = 0; kind < 3; ++kind) {
        CHECK(MPI_SUCCESS == MPIX_Bind_channels(2, req[kind], chan[kind], NULL));
    }
    CHECK(CHAN_ANYPML_ENGINE_LOADED < 0
          || CHAN_ANYPML_ENGINE_LOADED == cvar_exists("pml_chan_enable"));
    for (int kind = 0; kind < 3; ++kind) {
        rounds(kind, sbuf[kind], rbuf[kind], chan[kind]);
        CHECK(MPI_SUCCESS == MPIX_Unbind_channels(2, chan[kind]));
        MPI_Request_free(&req[kind][0]);
        MPI_Request_free(&req[kind][1]);
    }
    /* Created after: pml/chan (when loaded) recorded them. */
    pairs(vec, 0, 2);
    MPI_Type_free(&vec);
    MPI_T_finalize();
    return ompix_test_finish("chan_anypml");
}
