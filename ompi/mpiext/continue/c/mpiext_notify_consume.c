/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Consuming notifications, written once over the slot array a table
 * exposes (notify_slots): whichever path filled a slot, it is read with
 * acquire loads and taken with an exchange.  Every increment is an atomic
 * add and every consumer (reset, notification request) takes counts with
 * one exchange to 0, so each increment is returned by exactly one
 * exchange, however many threads consume the same slots.
 */

#include "ompi_config.h"

#include <time.h>

#include "opal/runtime/opal_progress.h"

#include "mpiext_notify_entry.h"

int ompix_notify_slot(const ompix_notify_ops_t *ops, MPI_Win win, int id, int64_t **slot)
{
    int64_t *slots;
    int num, rc;

    rc = ops->notify_slots(win, &slots, &num);
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        return rc;
    }
    if (OPAL_UNLIKELY(id < 0 || id >= num)) {
        return MPI_ERR_ARG;
    }
    *slot = &slots[id];
    return MPI_SUCCESS;
}

static inline int ompix_notify_scan(int64_t *slots, int first, int num)
{
    for (int i = first; i < first + num; ++i) {
        if (0 != ompix_notify_slot_load(&slots[i])) {
            return i;
        }
    }
    return MPIX_NOTIFY_NONE;
}

static uint64_t ompix_notify_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000;
}

/* The slot array is fetched once: it stays valid until set_num_notify or
 * the window's free, neither of which may run during the call. */
int ompix_notify_waitsome(const ompix_notify_ops_t *ops, MPI_Win win, int first, int num,
                          int timeout_ms, int *id)
{
    uint64_t deadline = 0;
    int64_t *slots;
    int nslots, rc;

    rc = ops->notify_slots(win, &slots, &nslots);
    if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
        return rc;
    }
    if (OPAL_UNLIKELY(first >= nslots || num > nslots - first)) {
        return MPI_ERR_ARG;
    }
    *id = ompix_notify_scan(slots, first, num);
    if (MPIX_NOTIFY_NONE != *id) {
        return MPI_SUCCESS;
    }
    if (timeout_ms > 0) {
        deadline = ompix_notify_now_ms() + (uint64_t) timeout_ms;
    }
    do {
        /* Notifications of the generic path and of remote reads arrive
         * through progress. */
        opal_progress();
        *id = ompix_notify_scan(slots, first, num);
        if (MPIX_NOTIFY_NONE != *id) {
            return MPI_SUCCESS;
        }
    } while (MPIX_NOTIFY_BLOCK == timeout_ms
             || (timeout_ms > 0 && ompix_notify_now_ms() < deadline));
    return MPI_SUCCESS;
}

/* Requests armed on win must not read the old array while the table
 * replaces it. */
int ompix_notify_set_num(const ompix_notify_ops_t *ops, MPI_Win win, int n)
{
    int rc;

    ompix_notify_request_resize_begin(win);
    rc = ops->set_num_notify(win, n);
    ompix_notify_request_resize_end(win, ops);
    return rc;
}
