/*
 * Copyright (c) 2026 The ompix developers.
 *
 * UCX's own floor for an 8-byte ping-pong on whatever transport UCX_TLS
 * leaves (bench/run chan runs it over TCP, UCX_TLS=tcp,self, beside the
 * channel ping-pong): ucp directly, with this program's own context and
 * worker (as pml/chan has), worker addresses and rkeys exchanged over MPI;
 * no MPI call in the timed loops.  Three ways, each a half round trip in
 * µs; bench/run takes the fastest as the floor:
 *
 *   ucx_put_8B   ucp_put_nbx of an 8-byte word that is the message and its
 *                flag (a sequence number) into the peer's mapped line; the
 *                peer polls the word, progressing its worker (over TCP the
 *                put lands when the target's worker runs)
 *   ucx_tag_8B   ucp_tag_send_nbx / ucp_tag_recv_nbx, 8 bytes, the receive
 *                posted before the send
 *   ucx_am_8B    ucp_am_send_nbx of 8 bytes, taken by a receive callback
 *                that copies it (data delivered in the callback)
 *
 * Sends are not waited for: the next send reuses its buffer only after the
 * peer's answer, so the peer has the data by then; a send request that UCX
 * returns is released with ucp_request_free.  Every value is checked.
 * Output "RESULT <metric> us <value>" on rank 0 (the harness of
 * bench/include/ompix_bench_mpi.h).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "ompix_bench_mpi.h"

#define CHAN_UCX_AM_ID 7
#define CHAN_UCX_TAG 0x5eedULL

static int rank, peer;
static long bad;
static uint64_t seq;                      /* the same on both ranks */
static ucp_context_h ctx;
static ucp_worker_h worker;
static ucp_ep_h ep;
static ucp_mem_h memh;
static ucp_rkey_h rkey;
static uint64_t remote_line;              /* the peer's line */
static volatile uint64_t *line;           /* this rank's line, written by the peer's puts */
static uint64_t out_val, in_val;
static volatile uint64_t am_got;           /* the last active message's value */

static ompix_bench_harness_t harness = {
    .reps = 11,
    .min_reps = 3,
    .rep_seconds = 0.05,
    .metric_seconds = 1.5,
    .bad = &bad,
};

static void chan_ucx_check(ucs_status_t st, const char *what)
{
    if (UCS_OK != st) {
        fprintf(stderr, "chan_ucx_floor: %s: %s\n", what, ucs_status_string(st));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* A send UCX may still hold: released, completing on its own. */
static void chan_ucx_release(ucs_status_ptr_t req, const char *what)
{
    if (UCS_PTR_IS_ERR(req)) {
        chan_ucx_check(UCS_PTR_STATUS(req), what);
    } else if (NULL != req) {
        ucp_request_free(req);
    }
}

static void chan_ucx_wait(ucs_status_ptr_t req, const char *what)
{
    if (UCS_PTR_IS_ERR(req)) {
        chan_ucx_check(UCS_PTR_STATUS(req), what);
    } else if (NULL != req) {
        ucs_status_t st;
        while (UCS_INPROGRESS == (st = ucp_request_check_status(req))) {
            ucp_worker_progress(worker);
        }
        ucp_request_free(req);
        chan_ucx_check(st, what);
    }
}

/* ---- put: the word is the message and its flag ---- */

static void chan_ucx_put_send(uint64_t s)
{
    ucp_request_param_t p = {.op_attr_mask = 0};
    out_val = s;
    chan_ucx_release(ucp_put_nbx(ep, &out_val, sizeof(out_val), remote_line, rkey, &p),
                     "ucp_put_nbx");
}

static void chan_ucx_put_take(uint64_t s)
{
    while (*line != s) {
        ucp_worker_progress(worker);
    }
}

static void chan_ucx_put_loop(long n)
{
    for (long i = 0; i < n; ++i) {
        seq += 2;
        if (0 == rank) {
            chan_ucx_put_send(seq - 1);
            chan_ucx_put_take(seq);
        } else {
            chan_ucx_put_take(seq - 1);
            chan_ucx_put_send(seq);
        }
    }
}

/* ---- tag ---- */

static ucs_status_ptr_t chan_ucx_tag_post(void)
{
    ucp_request_param_t p = {.op_attr_mask = 0};
    return ucp_tag_recv_nbx(worker, &in_val, sizeof(in_val), CHAN_UCX_TAG, ~0ULL, &p);
}

static void chan_ucx_tag_send(uint64_t s)
{
    ucp_request_param_t p = {.op_attr_mask = 0};
    out_val = s;
    chan_ucx_release(ucp_tag_send_nbx(ep, &out_val, sizeof(out_val), CHAN_UCX_TAG, &p),
                     "ucp_tag_send_nbx");
}

static void chan_ucx_tag_loop(long n)
{
    for (long i = 0; i < n; ++i) {
        ucs_status_ptr_t r = chan_ucx_tag_post();
        seq += 2;
        if (0 == rank) {
            chan_ucx_tag_send(seq - 1);
            chan_ucx_wait(r, "ucp_tag_recv_nbx");
            bad += in_val != seq;
        } else {
            chan_ucx_wait(r, "ucp_tag_recv_nbx");
            bad += in_val != seq - 1;
            chan_ucx_tag_send(seq);
        }
    }
}

/* ---- active messages ---- */

static ucs_status_t chan_ucx_am_cb(void *arg, const void *header, size_t header_length,
                                   void *data, size_t length, const ucp_am_recv_param_t *param)
{
    (void) arg;
    (void) header;
    (void) header_length;
    (void) param;
    uint64_t v;

    if (sizeof(v) != length) {
        bad++;
        return UCS_OK;
    }
    memcpy(&v, data, sizeof(v));
    am_got = v;
    return UCS_OK;
}

static void chan_ucx_am_send(uint64_t s)
{
    ucp_request_param_t p = {.op_attr_mask = 0};
    out_val = s;
    chan_ucx_release(ucp_am_send_nbx(ep, CHAN_UCX_AM_ID, NULL, 0, &out_val, sizeof(out_val), &p),
                     "ucp_am_send_nbx");
}

/* Waits for the value itself (unique): a message that arrived while this
 * rank was sending is not missed. */
static void chan_ucx_am_take(uint64_t s)
{
    while (am_got != s) {
        ucp_worker_progress(worker);
    }
}

static void chan_ucx_am_loop(long n)
{
    for (long i = 0; i < n; ++i) {
        seq += 2;
        if (0 == rank) {
            chan_ucx_am_send(seq - 1);
            chan_ucx_am_take(seq);
        } else {
            chan_ucx_am_take(seq - 1);
            chan_ucx_am_send(seq);
        }
    }
}

/* ---- set-up ---- */

/* This rank's blob of `len` bytes for the peer's, allocated. */
static void *chan_ucx_swap(const void *mine, size_t len)
{
    unsigned long n = len, theirs = 0;
    MPI_Sendrecv(&n, 1, MPI_UNSIGNED_LONG, peer, 1, &theirs, 1, MPI_UNSIGNED_LONG, peer, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    void *out = malloc(theirs);
    MPI_Sendrecv(mine, (int) n, MPI_BYTE, peer, 2, out, (int) theirs, MPI_BYTE, peer, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return out;
}

static void chan_ucx_setup(void)
{
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES,
                           .features = UCP_FEATURE_TAG | UCP_FEATURE_RMA | UCP_FEATURE_AM};
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SINGLE};
    ucp_config_t *config;
    ucp_address_t *addr;
    size_t addr_len, rkey_len;
    void *peer_addr, *rkey_buf, *peer_rkey;
    uint64_t mine;

    chan_ucx_check(ucp_config_read(NULL, NULL, &config), "ucp_config_read");
    chan_ucx_check(ucp_init(&params, config, &ctx), "ucp_init");
    ucp_config_release(config);
    chan_ucx_check(ucp_worker_create(ctx, &wp, &worker), "ucp_worker_create");
    chan_ucx_check(ucp_worker_get_address(worker, &addr, &addr_len), "ucp_worker_get_address");
    peer_addr = chan_ucx_swap(addr, addr_len);
    ucp_worker_release_address(worker, addr);
    ucp_ep_params_t ep_params = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
                                 .address = peer_addr};
    chan_ucx_check(ucp_ep_create(worker, &ep_params, &ep), "ucp_ep_create");
    free(peer_addr);

    ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS
                                             | UCP_MEM_MAP_PARAM_FIELD_LENGTH
                                             | UCP_MEM_MAP_PARAM_FIELD_FLAGS,
                               .address = NULL, .length = 64, .flags = UCP_MEM_MAP_ALLOCATE};
    chan_ucx_check(ucp_mem_map(ctx, &mp, &memh), "ucp_mem_map");
    ucp_mem_attr_t ma = {.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS};
    chan_ucx_check(ucp_mem_query(memh, &ma), "ucp_mem_query");
    line = ma.address;
    *line = 0;
    chan_ucx_check(ucp_rkey_pack(ctx, memh, &rkey_buf, &rkey_len), "ucp_rkey_pack");
    peer_rkey = chan_ucx_swap(rkey_buf, rkey_len);
    ucp_rkey_buffer_release(rkey_buf);
    chan_ucx_check(ucp_ep_rkey_unpack(ep, peer_rkey, &rkey), "ucp_ep_rkey_unpack");
    free(peer_rkey);
    mine = (uint64_t) (uintptr_t) line;
    MPI_Sendrecv(&mine, 1, MPI_UINT64_T, peer, 3, &remote_line, 1, MPI_UINT64_T, peer, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    ucp_am_handler_param_t hp = {.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID
                                               | UCP_AM_HANDLER_PARAM_FIELD_CB,
                                 .id = CHAN_UCX_AM_ID, .cb = chan_ucx_am_cb};
    chan_ucx_check(ucp_worker_set_am_recv_handler(worker, &hp), "ucp_worker_set_am_recv_handler");
}

static void chan_ucx_teardown(void)
{
    ucp_request_param_t p = {.op_attr_mask = 0};

    /* Both ranks close at once, each progressing its worker, so that each
     * flush gets its answer before either leaves. */
    MPI_Barrier(MPI_COMM_WORLD);
    ucp_rkey_destroy(rkey);
    chan_ucx_wait(ucp_ep_close_nbx(ep, &p), "ucp_ep_close_nbx");
    MPI_Barrier(MPI_COMM_WORLD);
    ucp_mem_unmap(ctx, memh);
    ucp_worker_destroy(worker);
    ucp_cleanup(ctx);
}

int main(int argc, char **argv)
{
    const ompix_bench_metric_t metrics[] = {
        {.name = "ucx_put_8B", .unit = "us", .loop = chan_ucx_put_loop, .ops = 2},
        {.name = "ucx_tag_8B", .unit = "us", .loop = chan_ucx_tag_loop, .ops = 2},
        {.name = "ucx_am_8B", .unit = "us", .loop = chan_ucx_am_loop, .ops = 2},
    };
    int size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (2 != size) {
        fprintf(stderr, "chan_ucx_floor: needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    peer = 1 - rank;
    chan_ucx_setup();
    for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); ++i) {
        ompix_bench_run(&harness, &metrics[i]);
        bad = 0;
    }
    chan_ucx_teardown();
    MPI_Finalize();
    return 0;
}
