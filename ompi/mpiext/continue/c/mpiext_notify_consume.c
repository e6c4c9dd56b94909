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

/* Where the last scan found a slot set.  A pipeline that takes a slot,
 * resets it and re-issues into it finds its next notification at or just
 * after that slot (FIFO completion) instead of behind every slot before
 * it; a slot refilled at once is found again first, as before.  Only a
 * hint, shared by windows and threads without ordering: any value is
 * correct (it is clamped to the range), it only moves where the scan of
 * the whole range starts.  Written only when it changes, on a cache line
 * of its own, so that threads consuming different ranges do not make the
 * extension's read-mostly data bounce between cores. */
static struct {
    volatile int start;
    char pad[60];
} ompix_notify_scan_hint __opal_attribute_aligned__(64);

static inline int ompix_notify_scan_found(int i)
{
    if (ompix_notify_scan_hint.start != i) {
        ompix_notify_scan_hint.start = i;
    }
    return i;
}

static inline int ompix_notify_scan(int64_t *slots, int first, int num)
{
    int end = first + num, start = ompix_notify_scan_hint.start;

    if (start < first || start >= end) {
        start = first;
    }
    for (int i = start; i < end; ++i) {
        if (0 != ompix_notify_slot_load(&slots[i])) {
            return ompix_notify_scan_found(i);
        }
    }
    for (int i = first; i < start; ++i) {
        if (0 != ompix_notify_slot_load(&slots[i])) {
            return ompix_notify_scan_found(i);
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

/* Nothing was set at the first scan: progress and scan again until the
 * timeout.  Out of line, so that the common case (a slot already set)
 * does not pay for this loop's frame. */
static __opal_attribute_noinline__ int ompix_notify_wait_progress(int64_t *slots, int first,
                                                                  int num, int timeout_ms)
{
    uint64_t deadline = 0;
    int id;

    if (timeout_ms > 0) {
        deadline = ompix_notify_now_ms() + (uint64_t) timeout_ms;
    }
    do {
        /* Notifications of the generic path and of remote reads arrive
         * through progress. */
        opal_progress();
        id = ompix_notify_scan(slots, first, num);
        if (MPIX_NOTIFY_NONE != id) {
            return id;
        }
    } while (MPIX_NOTIFY_BLOCK == timeout_ms
             || (timeout_ms > 0 && ompix_notify_now_ms() < deadline));
    return MPIX_NOTIFY_NONE;
}

/* The slot array is fetched once: it stays valid until set_num_notify or
 * the window's free, neither of which may run during the call. */
int ompix_notify_waitsome(const ompix_notify_ops_t *ops, MPI_Win win, int first, int num,
                          int timeout_ms, int *id)
{
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
    if (OPAL_UNLIKELY(MPIX_NOTIFY_NONE == *id)) {
        *id = ompix_notify_wait_progress(slots, first, num, timeout_ms);
    }
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
