/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The progress thread.  Wherever a peer reaches our memory or lock words
 * through UCX rather than by direct loads and stores (TCP, off-node peers,
 * dynamic windows), UCX 1.13 emulates RMA and atomics with active
 * messages that only a call to ucp_worker_progress on *this* process
 * serves.  Without a thread, a target computing outside MPI would stall
 * every such origin until its next MPI call; with it, the target stays
 * passive.  Windows whose peers all map each other's memory never start
 * it: their accesses need nothing from the target.
 *
 * The thread naps between polls of the worker, with exponential back-off
 * while idle (a UCX wake-up fd would exclude transports without event
 * support from our lanes), so an idle process costs a few thousand short
 * wake-ups a second at most.  The worker is created thread-safe whenever the
 * thread may start.
 */
#include "ompi_config.h"

#include <pthread.h>
#include <time.h>

#include "osc_rdma2.h"

static pthread_t rdma2_thread;
static volatile int32_t rdma2_thread_stop;
static bool rdma2_thread_running;

static void rdma2_nap(unsigned usec)
{
    struct timespec ts = {0, (long) usec * 1000};
    (void) nanosleep(&ts, NULL);
}

/* Bumped by every progress call of the application's threads. */
static volatile uint64_t rdma2_app_progress;

void mca_osc_rdma2_thread_note_progress(void)
{
    ++rdma2_app_progress;
}

/* While the application is inside MPI it progresses the worker itself,
 * and the thread keeps out of the way: two threads taking turns on the
 * worker's lock, or merely waking up on cores the ranks keep busy, cost
 * more than they serve (measured: +15 us per TCP round trip with 200 us
 * naps).  It then only checks every RDMA2_BUSY_NAP_US whether the
 * application left, and progresses after a nap during which nobody did. */
#define RDMA2_BUSY_NAP_US 10000

static void *rdma2_progress_loop(void *arg)
{
    const unsigned max_us = (unsigned) mca_osc_rdma2_component.thread_max_sleep;
    unsigned nap = 1;
    uint64_t seen;

    (void) arg;
    while (!rdma2_thread_stop) {
        seen = rdma2_app_progress;
        rdma2_nap(nap);
        if (seen != rdma2_app_progress) {
            nap = RDMA2_BUSY_NAP_US;
            continue;
        }
        if (ucp_worker_progress(mca_osc_rdma2_component.ucp_worker)) {
            nap = 1;
            continue;
        }
        nap = 2 * nap > max_us ? max_us : 2 * nap;
    }
    return NULL;
}

bool mca_osc_rdma2_thread_wanted(bool emulated)
{
    switch (mca_osc_rdma2_component.progress_thread) {
    case RDMA2_THREAD_NEVER:  return false;
    case RDMA2_THREAD_ALWAYS: return true;
    default:                  return emulated;
    }
}

/* Called under the component lock by window creation, collectively. */
int mca_osc_rdma2_thread_start(void)
{
    if (rdma2_thread_running) {
        return OMPI_SUCCESS;
    }
    rdma2_thread_stop = 0;
    if (0 != pthread_create(&rdma2_thread, NULL, rdma2_progress_loop, NULL)) {
        opal_output(0, "osc/rdma2: cannot start the progress thread; targets of windows "
                       "reached through UCX must call MPI to progress");
        return OMPI_SUCCESS;    /* correct without it, only not passive */
    }
    rdma2_thread_running = true;
    RDMA2_VERBOSE(10, "progress thread started");
    return OMPI_SUCCESS;
}

void mca_osc_rdma2_thread_stop(void)
{
    if (!rdma2_thread_running) {
        return;
    }
    rdma2_thread_stop = 1;
    opal_atomic_wmb();
    (void) pthread_join(rdma2_thread, NULL);
    rdma2_thread_running = false;
}
