/*
 * ompix-test: np=2 tls=shm,tcp,net pml=ob1,ucx timeout=60 paths="chan:tag"
 *
 * MPI's type rule at bind (with pml/chan's engine; chan_types_off.c runs it
 * on the generic fallback): the send's type signature must be a prefix of
 * the receive's.  Pairs that bind and move data, checked byte for byte
 * against the send's packed stream with the received count: a vector
 * against contiguous ints (both ways), a struct {int,double} against the
 * same struct with a larger count, against a contiguous of two structs,
 * against a vector of structs (the prefix ending inside its nested loops)
 * and against MPI_PACKED (both ways), MPI_2INT against two ints, zero-size
 * messages of different types, and a send of more runs than an offer
 * carries (its hash checked) against an equal and a longer receive.  Pairs
 * that fail on both ends through a counting error handler, blocking and
 * nonblocking: {int,double} against {double,int} of the same size, int
 * against float, MPI_BYTE against MPI_CHAR (MPI_ERR_TYPE), a mismatch that
 * is also shorter (MPI_ERR_TYPE before MPI_ERR_TRUNCATE), truncation of
 * compatible types and of MPI_PACKED (MPI_ERR_TRUNCATE), and both over the
 * run cap.
 */
#include "ompix_test.h"
#include "ompix_chan_pml.h"

#include <stdlib.h>
#include <string.h>

#define ROUNDS 5
#define BIG 1000                    /* structs: 2000 runs, over the offer's cap */

static MPI_Datatype int_double, double_int, two_structs, ivec, svec;

static void make_types(void)
{
    int lens[2] = {1, 1};
    MPI_Aint disps[2] = {0, 8};
    MPI_Datatype id[2] = {MPI_INT, MPI_DOUBLE}, di[2] = {MPI_DOUBLE, MPI_INT};

    MPI_Type_create_struct(2, lens, disps, id, &int_double);
    MPI_Type_commit(&int_double);
    MPI_Type_create_struct(2, lens, disps, di, &double_int);
    MPI_Type_commit(&double_int);
    MPI_Type_contiguous(2, int_double, &two_structs);
    MPI_Type_commit(&two_structs);
    MPI_Type_vector(4, 2, 3, MPI_INT, &ivec);   /* 8 ints out of 11 */
    MPI_Type_commit(&ivec);
    MPI_Type_vector(2, 2, 3, int_double, &svec);  /* 4 structs out of 5, nested loops */
    MPI_Type_commit(&svec);
}

static void free_types(void)
{
    MPI_Type_free(&int_double);
    MPI_Type_free(&double_int);
    MPI_Type_free(&two_structs);
    MPI_Type_free(&ivec);
    MPI_Type_free(&svec);
}

typedef struct {
    MPI_Datatype type;
    int count;
} end_t;

static size_t span(end_t e)
{
    MPI_Aint lb, extent, tlb, textent;

    MPI_Type_get_extent(e.type, &lb, &extent);
    MPI_Type_get_true_extent(e.type, &tlb, &textent);
    return e.count > 0 ? (size_t) (extent * (e.count - 1) + textent + tlb) + 1 : 1;
}

static void fill(unsigned char *buf, size_t n, int round)
{
    for (size_t i = 0; i < n; ++i) {
        buf[i] = (unsigned char) (i * 7 + round * 13 + 1);
    }
}

/* The packed stream of e's buffer (a buffer of MPI_PACKED is its own). */
static unsigned char *packed(end_t e, const void *buf, int *len)
{
    unsigned char *out;
    int pos = 0;

    if (MPI_PACKED == e.type) {
        *len = e.count;
        out = malloc(e.count > 0 ? e.count : 1);
        memcpy(out, buf, e.count);
        return out;
    }
    MPI_Pack_size(e.count, e.type, MPI_COMM_WORLD, len);
    out = malloc(*len > 0 ? *len : 1);
    MPI_Pack(buf, e.count, e.type, out, *len, &pos, MPI_COMM_WORLD);
    *len = pos;
    return out;
}

/* Rank 0 sends s, rank 1 receives r over one channel: every round the
 * receive holds the send's packed stream and reports its size. */
static void pair_moves(end_t s, end_t r)
{
    size_t sspan = span(s), rspan = span(r);
    unsigned char *sbuf = malloc(sspan), *rbuf = malloc(rspan);
    MPI_Request req, chan;
    MPI_Status st;

    if (0 == rank) {
        MPI_Ssend_init(sbuf, s.count, s.type, 1, 11, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(rbuf, r.count, r.type, 0, 11, MPI_COMM_WORLD, &req);
    }
    CHECK(MPI_SUCCESS == MPIX_Bind_channel(req, &chan, MPI_INFO_NULL));
    for (int round = 0; round < ROUNDS && MPI_REQUEST_NULL != chan; ++round) {
        fill(sbuf, sspan, round);
        memset(rbuf, 0xee, rspan);
        MPI_Start(&chan);
        MPI_Wait(&chan, &st);
        if (1 == rank) {
            int slen, rlen, bytes;
            unsigned char *want = packed(s, sbuf, &slen), *got = packed(r, rbuf, &rlen);

            MPI_Get_count(&st, MPI_BYTE, &bytes);
            CHECK(bytes == slen);
            CHECK(rlen >= slen && 0 == memcmp(want, got, slen));
            free(want);
            free(got);
        }
    }
    if (MPI_REQUEST_NULL != chan) {
        CHECK(MPI_SUCCESS == MPIX_Unbind_channel(&chan));
    }
    MPI_Request_free(&req);
    free(sbuf);
    free(rbuf);
}

static void moves(void)
{
    int pack_size;
    end_t ints8 = {MPI_INT, 8}, vec = {ivec, 1};
    end_t id2 = {int_double, 2}, id3 = {int_double, 3}, id4 = {int_double, 4};

    pair_moves(vec, ints8);
    pair_moves(ints8, vec);
    pair_moves(id2, id3);
    pair_moves((end_t) {two_structs, 1}, id2);
    pair_moves(id2, (end_t) {two_structs, 2});
    MPI_Pack_size(2, int_double, MPI_COMM_WORLD, &pack_size);
    pair_moves((end_t) {MPI_PACKED, 24}, id2);       /* 2 x (4 + 8) bytes */
    pair_moves(id2, (end_t) {MPI_PACKED, pack_size});
    pair_moves((end_t) {MPI_2INT, 3}, (end_t) {MPI_INT, 6});
    pair_moves((end_t) {MPI_INT, 0}, (end_t) {MPI_DOUBLE, 4});
    pair_moves((end_t) {int_double, BIG}, (end_t) {int_double, BIG});
    pair_moves((end_t) {int_double, BIG}, (end_t) {int_double, BIG + 1});
    pair_moves(id4, (end_t) {int_double, 1 << 14});
    pair_moves(id3, (end_t) {svec, 1});             /* the prefix ends inside a loop */
    pair_moves((end_t) {int_double, BIG}, (end_t) {svec, BIG / 4 + 1});
}

/* Rank 0 sends s, rank 1 receives r: the bind fails with cls on both. */
static void pair_fails(end_t s, end_t r, int cls, int nonblocking)
{
    unsigned char *buf = malloc(span(s) > span(r) ? span(s) : span(r));
    MPI_Request req, out = (MPI_Request) 1;

    if (0 == rank) {
        MPI_Send_init(buf, s.count, s.type, 1, 12, MPI_COMM_WORLD, &req);
    } else {
        MPI_Recv_init(buf, r.count, r.type, 0, 12, MPI_COMM_WORLD, &req);
    }
    if (!nonblocking) {
        CHECK_ERR(MPIX_Bind_channel(req, &out, MPI_INFO_NULL), cls);
    } else {
        CHECK(MPI_SUCCESS == MPIX_Ibind_channel(req, &out, MPI_INFO_NULL));
        CHECK_ERR(MPI_Wait(&req, MPI_STATUS_IGNORE), cls);
        CHECK(MPI_REQUEST_NULL != req);
    }
    CHECK(MPI_REQUEST_NULL == out);
    MPI_Request_free(&req);
    free(buf);
}

static void failures(int nb)
{
    pair_fails((end_t) {int_double, 2}, (end_t) {double_int, 2}, MPI_ERR_TYPE, nb);
    pair_fails((end_t) {MPI_INT, 4}, (end_t) {MPI_FLOAT, 4}, MPI_ERR_TYPE, nb);
    pair_fails((end_t) {MPI_BYTE, 8}, (end_t) {MPI_CHAR, 8}, MPI_ERR_TYPE, nb);
    pair_fails((end_t) {ivec, 1}, (end_t) {MPI_FLOAT, 8}, MPI_ERR_TYPE, nb);
    pair_fails((end_t) {int_double, 3}, (end_t) {double_int, 1}, MPI_ERR_TYPE, nb);
    pair_fails((end_t) {int_double, 3}, (end_t) {int_double, 2}, MPI_ERR_TRUNCATE, nb);
    pair_fails((end_t) {MPI_PACKED, 16}, (end_t) {MPI_INT, 1}, MPI_ERR_TRUNCATE, nb);
    pair_fails((end_t) {int_double, BIG}, (end_t) {double_int, BIG}, MPI_ERR_TYPE, nb);
    pair_fails((end_t) {int_double, BIG}, (end_t) {int_double, BIG - 1}, MPI_ERR_TRUNCATE, nb);
    pair_fails((end_t) {double_int, BIG}, (end_t) {svec, BIG / 4 + 1}, MPI_ERR_TYPE, nb);
    pair_fails((end_t) {double_int, 3}, (end_t) {svec, 1}, MPI_ERR_TYPE, nb);
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh;

    ompix_chan_add_to_pml_list();
    ompix_test_init(&argc, &argv);
    make_types();
    moves();
    eh = counting_comm_errhandler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    failures(0);
    failures(1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    free_types();
    return ompix_test_finish("chan_types");
}
