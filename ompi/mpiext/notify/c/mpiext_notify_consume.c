/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Consuming notifications, written once over the slot array a table
 * exposes (notify_slots): whichever path filled a slot, it is read with
 * acquire loads and taken with an exchange.  Every increment is an atomic
 * add and every consumer (reset, notification request) takes counts with
 * one exchange to 0, so each increment is returned by exactly one
 * exchange, however many threads consume the same slots.  The exception,
 * osc/rdma2 without MPI_THREAD_MULTIPLE: our own reads completed in their
 * call count in a private array (`local`) with plain stores, which only
 * this process's MPI calls, one at a time, read and reset
 * (mpiext_notify_entry.h:ompix_notify_take).
 */

#include "ompi_config.h"

#include <sched.h>
#include <time.h>

#include "opal/runtime/opal_progress.h"

#include "mpiext_notify_entry.h"

/* The scan's hint (mpiext_notify_entry.h:ompix_notify_scan). */
ompix_notify_scan_hint_t ompix_notify_scan_hint = {.start = 0};

static uint64_t ompix_notify_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000;
}

/* Whether a waiting thread is in opal_progress (0 or 1). */
static volatile int32_t ompix_notify_progressing = 0;

/* How long a waiting thread that leaves progress to another one naps. */
#define OMPIX_NOTIFY_NAP_NS 20000

/* One sweep of a wait: progress, unless another waiting thread of this
 * process does.  When several threads wait and every one progresses,
 * they contend for the progress engines' locks (UCP's worker spin lock,
 * ob1's pending-list mutex) and keep the processor from the threads, here
 * and at the peer, whose work can move: 4 consumer threads of one window
 * per rank took 30-55 s (osc/rdma2 over TCP, the generic path over shared
 * memory) for what 2 did in 1-4 s, and a yield alone halved that only
 * (README-design.md, "Consumption").  One of them progressing serves them
 * all; the others nap briefly instead of spinning (they see a slot set
 * by remote writes or by the progressing thread at their next scan). */
static void ompix_notify_wait_sweep(void)
{
    static const struct timespec nap = {0, OMPIX_NOTIFY_NAP_NS};
    int32_t idle = 0;

    if (!opal_using_threads()) {
        opal_progress();
        return;
    }
    if (opal_atomic_compare_exchange_strong_32(&ompix_notify_progressing, &idle, 1)) {
        opal_progress();
        opal_atomic_wmb();
        ompix_notify_progressing = 0;
        sched_yield();
    } else {
        nanosleep(&nap, NULL);
    }
}

/* Nothing was set at the first scan: progress and scan again until the
 * timeout.  Out of line, so that the common case (a slot already set)
 * does not pay for this loop's frame. */
int ompix_notify_wait_progress(int64_t *slots, int64_t *local, int first, int num,
                               int timeout_ms)
{
    uint64_t deadline = 0;
    int id;

    if (timeout_ms > 0) {
        deadline = ompix_notify_now_ms() + (uint64_t) timeout_ms;
    }
    do {
        /* Notifications of the generic path and of remote reads arrive
         * through progress. */
        ompix_notify_wait_sweep();
        id = ompix_notify_scan(slots, local, first, num);
        if (MPIX_NOTIFY_NONE != id) {
            return id;
        }
    } while (MPIX_NOTIFY_BLOCK == timeout_ms
             || (timeout_ms > 0 && ompix_notify_now_ms() < deadline));
    return MPIX_NOTIFY_NONE;
}

/* MPIX_Win_notify_threshold: like the loop above, over one slot's count
 * (read, never taken). */
int64_t ompix_notify_wait_threshold(int64_t *slot, int64_t *local, int64_t threshold,
                                    int timeout_ms)
{
    uint64_t deadline = 0;
    int64_t v = ompix_notify_count(slot, local);

    if (timeout_ms > 0) {
        deadline = ompix_notify_now_ms() + (uint64_t) timeout_ms;
    }
    while (v < threshold
           && (MPIX_NOTIFY_BLOCK == timeout_ms
               || (timeout_ms > 0 && ompix_notify_now_ms() < deadline))) {
        ompix_notify_wait_sweep();
        v = ompix_notify_count(slot, local);
    }
    return v;
}

/* Requests armed on win must not read the old array while the table
 * replaces it. */
int ompix_notify_set_num(const ompix_notify_ops_t *ops, MPI_Win win, int n)
{
    int rc;

    ompix_notify_request_resize_begin(win);
    rc = ops->set_num_notify(win, n);
    ompix_notify_request_resize_end(win, ops);
    if (MPI_SUCCESS == rc) {
        ompix_notify_attr_set(win, n);
    }
    return rc;
}
