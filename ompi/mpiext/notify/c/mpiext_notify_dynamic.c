/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Attached regions of a dynamic window, for the generic path's range
 * check (mpiext_notify_dynamic.h).  A region list travels as int64s:
 * the number of regions, then (base, length) pairs.  Queries and replies
 * use their own tags on the window's hidden communicator (the
 * notifications' persistent receive matches only its tag); every query is
 * answered before its origin returns, so none is in flight at the
 * collective window free.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/class/opal_list.h"
#include "opal/runtime/opal_progress.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "opal/util/output.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/message/message.h"
#include "ompi/request/request.h"

#include "mpiext_notify_dynamic.h"

/* Tags of the queries and the replies (the notifications use 0x6e67). */
#define OMPIX_NOTIFY_DYN_QUERY_TAG 0x6e68
#define OMPIX_NOTIFY_DYN_REPLY_TAG 0x6e69
/* Queries answered per progress call. */
#define OMPIX_NOTIFY_DYN_ANSWER_MAX 16

/* A reply being sent: its buffer lives as long as the send. */
typedef struct ompix_notify_dyn_reply_t {
    opal_list_item_t super;
    ompi_request_t *req;
    int64_t *buf;
} ompix_notify_dyn_reply_t;

static OBJ_CLASS_INSTANCE(ompix_notify_dyn_reply_t, opal_list_item_t, NULL, NULL);

struct ompix_notify_dyn_t {
    /* Guards everything below; the progress callback only trylocks it. */
    opal_mutex_t lock;
    ompi_communicator_t *comm;
    int64_t *regions;               /* this process's list (see above) */
    int64_t cap;                    /* int64s regions has room for */
    int64_t **cache;                /* per target: its list when last asked */
    ompi_request_t *query_req;      /* persistent ANY_SOURCE query receive */
    int64_t query_msg;
    opal_list_t replies;
};

int ompix_notify_dyn_create(ompi_communicator_t *comm, ompix_notify_dyn_t **out)
{
    ompix_notify_dyn_t *d = calloc(1, sizeof(*d));
    int rc = OMPI_ERR_OUT_OF_RESOURCE;

    if (NULL != d) {
        d->comm = comm;
        d->cap = 1 + 2 * 4;
        d->regions = calloc(d->cap, sizeof(int64_t));
        d->cache = calloc(ompi_comm_size(comm), sizeof(*d->cache));
        OBJ_CONSTRUCT(&d->lock, opal_mutex_t);
        OBJ_CONSTRUCT(&d->replies, opal_list_t);
    }
    if (NULL != d && NULL != d->regions && NULL != d->cache) {
        rc = MCA_PML_CALL(irecv_init(&d->query_msg, 1, &ompi_mpi_int64_t.dt, MPI_ANY_SOURCE,
                                     OMPIX_NOTIFY_DYN_QUERY_TAG, comm, &d->query_req));
        if (OMPI_SUCCESS == rc) {
            rc = MCA_PML_CALL(start(1, &d->query_req));
        }
    }
    if (OMPI_SUCCESS != rc) {
        ompix_notify_dyn_destroy(d);
        return rc;
    }
    *out = d;
    return OMPI_SUCCESS;
}

void ompix_notify_dyn_destroy(ompix_notify_dyn_t *d)
{
    ompix_notify_dyn_reply_t *r;

    if (NULL == d) {
        return;
    }
    if (NULL != d->query_req) {
        (void) ompi_request_cancel(d->query_req);
        (void) ompi_request_wait(&d->query_req, MPI_STATUS_IGNORE);
        (void) ompi_request_free(&d->query_req);
    }
    while (NULL != (r = (ompix_notify_dyn_reply_t *) opal_list_remove_first(&d->replies))) {
        (void) ompi_request_wait(&r->req, MPI_STATUS_IGNORE);
        free(r->buf);
        OBJ_RELEASE(r);
    }
    for (int i = 0; NULL != d->cache && i < ompi_comm_size(d->comm); ++i) {
        free(d->cache[i]);
    }
    OBJ_DESTRUCT(&d->replies);
    OBJ_DESTRUCT(&d->lock);
    free(d->cache);
    free(d->regions);
    free(d);
}

int ompix_notify_dyn_attach(ompix_notify_dyn_t *d, const void *base, size_t len)
{
    int rc = OMPI_SUCCESS;

    opal_mutex_lock(&d->lock);
    if (1 + 2 * (d->regions[0] + 1) > d->cap) {
        int64_t *grown = realloc(d->regions, 2 * d->cap * sizeof(int64_t));
        if (NULL == grown) {
            rc = OMPI_ERR_OUT_OF_RESOURCE;
        } else {
            d->regions = grown;
            d->cap *= 2;
        }
    }
    if (OMPI_SUCCESS == rc) {
        int64_t n = d->regions[0]++;
        d->regions[1 + 2 * n] = (int64_t) (uintptr_t) base;
        d->regions[2 + 2 * n] = (int64_t) len;
    }
    opal_mutex_unlock(&d->lock);
    return rc;
}

void ompix_notify_dyn_detach(ompix_notify_dyn_t *d, const void *base)
{
    int64_t b = (int64_t) (uintptr_t) base, n;

    opal_mutex_lock(&d->lock);
    n = d->regions[0];
    for (int64_t i = 0; i < n; ++i) {
        if (d->regions[1 + 2 * i] == b) {
            /* the last pair takes its place */
            d->regions[1 + 2 * i] = d->regions[1 + 2 * (n - 1)];
            d->regions[2 + 2 * i] = d->regions[2 + 2 * (n - 1)];
            d->regions[0] = n - 1;
            break;
        }
    }
    opal_mutex_unlock(&d->lock);
}

/* Whether one region of list covers [lo, hi). */
static bool ompix_notify_dyn_covers(const int64_t *list, int64_t lo, int64_t hi)
{
    for (int64_t i = 0; NULL != list && i < list[0]; ++i) {
        int64_t base = list[1 + 2 * i], len = list[2 + 2 * i];
        if (lo >= base && hi <= base + len && lo <= hi) {
            return true;
        }
    }
    return false;
}

/* Asks target for its list and waits for it (without the lock: target
 * may be asking us at the same time, and our progress answers it). */
static int ompix_notify_dyn_fetch(ompix_notify_dyn_t *d, int target, int64_t **out)
{
    int64_t query = 0, *list;
    ompi_message_t *msg = NULL;
    ompi_status_public_t st;
    int matched = 0, rc;

    rc = MCA_PML_CALL(send(&query, 1, &ompi_mpi_int64_t.dt, target, OMPIX_NOTIFY_DYN_QUERY_TAG,
                           MCA_PML_BASE_SEND_STANDARD, d->comm));
    while (OMPI_SUCCESS == rc && !matched) {
        rc = MCA_PML_CALL(improbe(target, OMPIX_NOTIFY_DYN_REPLY_TAG, d->comm, &matched, &msg,
                                  &st));
        if (OMPI_SUCCESS == rc && !matched) {
            opal_progress();
        }
    }
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    list = malloc(st._ucount > 0 ? st._ucount : sizeof(int64_t));
    if (NULL == list) {
        /* The message is ours to take anyway. */
        int64_t sink[1];
        (void) MCA_PML_CALL(mrecv(sink, 0, &ompi_mpi_int64_t.dt, &msg, MPI_STATUS_IGNORE));
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    rc = MCA_PML_CALL(mrecv(list, st._ucount / sizeof(int64_t), &ompi_mpi_int64_t.dt, &msg,
                            MPI_STATUS_IGNORE));
    if (OMPI_SUCCESS != rc) {
        free(list);
        return rc;
    }
    *out = list;
    return OMPI_SUCCESS;
}

int ompix_notify_dyn_check(ompix_notify_dyn_t *d, int target, int64_t lo, int64_t hi)
{
    int64_t *list = NULL;
    bool covered;
    int rc;

    opal_mutex_lock(&d->lock);
    covered = ompix_notify_dyn_covers(target == ompi_comm_rank(d->comm) ? d->regions
                                                                        : d->cache[target],
                                      lo, hi);
    opal_mutex_unlock(&d->lock);
    if (covered || target == ompi_comm_rank(d->comm)) {
        return covered ? MPI_SUCCESS : MPI_ERR_RMA_RANGE;
    }
    rc = ompix_notify_dyn_fetch(d, target, &list);
    if (OMPI_SUCCESS != rc) {
        return ompi_errcode_get_mpi_code(rc);
    }
    opal_mutex_lock(&d->lock);
    free(d->cache[target]);
    d->cache[target] = list;
    covered = ompix_notify_dyn_covers(list, lo, hi);
    opal_mutex_unlock(&d->lock);
    return covered ? MPI_SUCCESS : MPI_ERR_RMA_RANGE;
}

/* Caller holds d->lock.  Sends a copy of this process's list to peer. */
static void ompix_notify_dyn_answer(ompix_notify_dyn_t *d, int peer)
{
    int64_t n = 1 + 2 * d->regions[0];
    ompix_notify_dyn_reply_t *r = OBJ_NEW(ompix_notify_dyn_reply_t);
    int rc = OMPI_ERR_OUT_OF_RESOURCE;

    if (NULL != r && NULL != (r->buf = malloc(n * sizeof(int64_t)))) {
        memcpy(r->buf, d->regions, n * sizeof(int64_t));
        rc = MCA_PML_CALL(isend(r->buf, n, &ompi_mpi_int64_t.dt, peer,
                                OMPIX_NOTIFY_DYN_REPLY_TAG, MCA_PML_BASE_SEND_STANDARD, d->comm,
                                &r->req));
    }
    if (OMPI_SUCCESS == rc) {
        opal_list_append(&d->replies, &r->super);
        return;
    }
    /* The origin would wait for ever: say why. */
    opal_output(0, "ompix notify: cannot answer rank %d's query for a dynamic window's "
                "regions (error %d)", peer, rc);
    if (NULL != r) {
        free(r->buf);
        OBJ_RELEASE(r);
    }
}

int ompix_notify_dyn_progress(ompix_notify_dyn_t *d)
{
    ompix_notify_dyn_reply_t *r, *next;
    int n = 0;

    if (0 != opal_mutex_trylock(&d->lock)) {
        return 0;
    }
    OPAL_LIST_FOREACH_SAFE(r, next, &d->replies, ompix_notify_dyn_reply_t) {
        if (REQUEST_COMPLETE(r->req)) {
            opal_list_remove_item(&d->replies, &r->super);
            (void) ompi_request_free(&r->req);
            free(r->buf);
            OBJ_RELEASE(r);
        }
    }
    while (NULL != d->query_req && REQUEST_COMPLETE(d->query_req)
           && n++ < OMPIX_NOTIFY_DYN_ANSWER_MAX) {
        ompix_notify_dyn_answer(d, d->query_req->req_status.MPI_SOURCE);
        if (OMPI_SUCCESS != MCA_PML_CALL(start(1, &d->query_req))) {
            opal_output(0, "ompix notify: cannot re-arm a dynamic window's region queries");
            (void) ompi_request_free(&d->query_req);
            d->query_req = NULL;
        }
    }
    opal_mutex_unlock(&d->lock);
    return n;
}
