/*
 * Copyright (c) 2026 The ompix developers.
 *
 * One progress thread per process for the components that need a target
 * to make progress while it computes outside MPI (UCX emulates RMA and
 * atomics over TCP with active messages that only a progress call at the
 * target serves).  Components add a poll function when they first need it;
 * the thread starts with the first and stops when the last is removed.
 *
 * While the application is inside MPI its own progress calls do the work,
 * and the thread keeps out of the way: two threads taking turns on a UCX
 * worker's lock, or merely a thread waking on cores the ranks keep busy,
 * cost more than they serve (measured: +15 us per TCP round trip with
 * 200 us naps).  Components report the application's progress calls with
 * mca_common_ompix_thread_note_progress(); the thread checks every 10 ms
 * whether they stopped, then polls, napping 1, 2, 4, ... us after each
 * empty poll up to the smallest max_sleep_us of its poll functions.
 */
#ifndef MCA_COMMON_OMPIX_THREAD_H
#define MCA_COMMON_OMPIX_THREAD_H

#include "ompi_config.h"

#include <stdint.h>

BEGIN_C_DECLS

/* Serves one component; returns the amount of work done (0: none).  Runs
 * on the progress thread: whatever it touches must be thread-safe (a UCX
 * worker created with UCS_THREAD_MODE_MULTI). */
typedef int (*mca_common_ompix_thread_poll_fn_t)(void *ctx);

/* Bumped by every progress call of the application's threads. */
OMPI_DECLSPEC extern volatile uint64_t mca_common_ompix_thread_app_progress;

static inline void mca_common_ompix_thread_note_progress(void)
{
    ++mca_common_ompix_thread_app_progress;
}

/* Adds (fn, ctx) to what the thread polls, starting the thread if needed.
 * Adding a pair already there changes nothing.  If the thread can not be
 * started, a message says so and OMPI_SUCCESS is returned: the component
 * stays correct, only not passive. */
OMPI_DECLSPEC int mca_common_ompix_thread_add(mca_common_ompix_thread_poll_fn_t fn, void *ctx,
                                              unsigned max_sleep_us);

/* Removes (fn, ctx); once it returns the thread no longer calls fn with
 * ctx, and the thread has stopped if nothing is left to poll. */
OMPI_DECLSPEC void mca_common_ompix_thread_remove(mca_common_ompix_thread_poll_fn_t fn, void *ctx);

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_THREAD_H */
