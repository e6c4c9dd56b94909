/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The progress thread (see common_ompix_thread.h): an opal_thread_t that
 * naps between polls of the registered poll functions.  A nap, not a
 * wake-up file descriptor: UCX would then exclude transports without
 * event support from our lanes.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <time.h>

#include "opal/class/opal_list.h"
#include "opal/sys/atomic.h"
#include "ompi/mca/common/ompix/common_ompix_compat_threads.h"
#include "opal/util/proc.h"
#include "opal/util/show_help.h"

#include "common_ompix_help.h"

#include "common_ompix_thread.h"

/* How often a thread that saw the application inside MPI looks again. */
#define MCA_COMMON_OMPIX_THREAD_BUSY_NAP_US 10000

typedef struct {
    opal_list_item_t super;
    mca_common_ompix_thread_poll_fn_t fn;
    void *ctx;
    unsigned max_sleep_us;
} mca_common_ompix_thread_poller_t;
static OBJ_CLASS_INSTANCE(mca_common_ompix_thread_poller_t, opal_list_item_t, NULL, NULL);

volatile uint64_t mca_common_ompix_thread_app_progress = 0;

/* The pollers and the thread, guarded by the mutex; the thread holds it
 * while polling, so a removed poller is never called again. */
static opal_mutex_t mca_common_ompix_thread_lock;
static opal_list_t mca_common_ompix_thread_pollers;
static bool mca_common_ompix_thread_ready = false;
static opal_thread_t *mca_common_ompix_thread = NULL;
static unsigned mca_common_ompix_thread_max_sleep = 0;

/* Each thread has its own stop flag (its t_arg): a thread being stopped
 * may still run while a new one starts. */
typedef struct {
    volatile int32_t stop;
} mca_common_ompix_thread_state_t;

static void mca_common_ompix_thread_nap(unsigned usec)
{
    struct timespec ts = {usec / 1000000, (long) (usec % 1000000) * 1000};
    (void) nanosleep(&ts, NULL);
}

static int mca_common_ompix_thread_poll_all(void)
{
    mca_common_ompix_thread_poller_t *p;
    int work = 0;

    opal_mutex_lock(&mca_common_ompix_thread_lock);
    OPAL_LIST_FOREACH (p, &mca_common_ompix_thread_pollers, mca_common_ompix_thread_poller_t) {
        work += p->fn(p->ctx);
    }
    opal_mutex_unlock(&mca_common_ompix_thread_lock);
    return work;
}

static void *mca_common_ompix_thread_loop(opal_object_t *arg)
{
    mca_common_ompix_thread_state_t *state = ((opal_thread_t *) arg)->t_arg;
    unsigned nap = 1;
    uint64_t seen;

    while (!state->stop) {
        seen = mca_common_ompix_thread_app_progress;
        mca_common_ompix_thread_nap(nap);
        if (seen != mca_common_ompix_thread_app_progress) {
            nap = MCA_COMMON_OMPIX_THREAD_BUSY_NAP_US;
            continue;
        }
        if (mca_common_ompix_thread_poll_all() > 0) {
            nap = 1;
            continue;
        }
        nap = 2 * nap > mca_common_ompix_thread_max_sleep ? mca_common_ompix_thread_max_sleep
                                                          : 2 * nap;
    }
    return NULL;
}

/* The lock protects the list for the thread's whole life; made on first
 * use (components add pollers from window creation, single-threaded per
 * process or under their own component lock). */
static void mca_common_ompix_thread_setup(void)
{
    if (!mca_common_ompix_thread_ready) {
        OBJ_CONSTRUCT(&mca_common_ompix_thread_lock, opal_mutex_t);
        OBJ_CONSTRUCT(&mca_common_ompix_thread_pollers, opal_list_t);
        mca_common_ompix_thread_ready = true;
    }
}

static int mca_common_ompix_thread_start(void)
{
    mca_common_ompix_thread_state_t *state = calloc(1, sizeof(*state));
    opal_thread_t *t = OBJ_NEW(opal_thread_t);

    if (NULL == t || NULL == state) {
        free(state);
        if (NULL != t) OBJ_RELEASE(t);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    t->t_run = mca_common_ompix_thread_loop;
    t->t_arg = state;
    if (OPAL_SUCCESS != opal_thread_start(t)) {
        OBJ_RELEASE(t);
        free(state);
        return OPAL_ERROR;
    }
    mca_common_ompix_thread = t;
    return OPAL_SUCCESS;
}

static void mca_common_ompix_thread_join(opal_thread_t *t)
{
    mca_common_ompix_thread_state_t *state = t->t_arg;

    state->stop = 1;
    opal_atomic_wmb();
    (void) opal_thread_join(t, NULL);
    OBJ_RELEASE(t);
    free(state);
}

static mca_common_ompix_thread_poller_t *
mca_common_ompix_thread_find(mca_common_ompix_thread_poll_fn_t fn, void *ctx)
{
    mca_common_ompix_thread_poller_t *p;

    OPAL_LIST_FOREACH (p, &mca_common_ompix_thread_pollers, mca_common_ompix_thread_poller_t) {
        if (p->fn == fn && p->ctx == ctx) {
            return p;
        }
    }
    return NULL;
}

static void mca_common_ompix_thread_update_sleep(void)
{
    mca_common_ompix_thread_poller_t *p;
    unsigned m = 0;

    OPAL_LIST_FOREACH (p, &mca_common_ompix_thread_pollers, mca_common_ompix_thread_poller_t) {
        m = 0 == m || p->max_sleep_us < m ? p->max_sleep_us : m;
    }
    mca_common_ompix_thread_max_sleep = m > 0 ? m : 1;
}

int mca_common_ompix_thread_add(mca_common_ompix_thread_poll_fn_t fn, void *ctx,
                                unsigned max_sleep_us)
{
    mca_common_ompix_thread_poller_t *p;
    int ret = OPAL_SUCCESS;

    mca_common_ompix_thread_setup();
    opal_mutex_lock(&mca_common_ompix_thread_lock);
    if (NULL == mca_common_ompix_thread_find(fn, ctx)) {
        p = OBJ_NEW(mca_common_ompix_thread_poller_t);
        if (NULL == p) {
            ret = OPAL_ERR_OUT_OF_RESOURCE;
        } else {
            p->fn = fn;
            p->ctx = ctx;
            p->max_sleep_us = max_sleep_us;
            opal_list_append(&mca_common_ompix_thread_pollers, &p->super);
            mca_common_ompix_thread_update_sleep();
        }
    }
    if (OPAL_SUCCESS == ret && NULL == mca_common_ompix_thread &&
        OPAL_SUCCESS != mca_common_ompix_thread_start()) {
        mca_common_ompix_help_init();
        opal_show_help("help-common-ompix.txt", "progress thread", true,
                       opal_process_info.nodename);
    }
    opal_mutex_unlock(&mca_common_ompix_thread_lock);
    return ret;
}

void mca_common_ompix_thread_remove(mca_common_ompix_thread_poll_fn_t fn, void *ctx)
{
    mca_common_ompix_thread_poller_t *p;
    opal_thread_t *stopping = NULL;

    if (!mca_common_ompix_thread_ready) {
        return;
    }
    opal_mutex_lock(&mca_common_ompix_thread_lock);
    p = mca_common_ompix_thread_find(fn, ctx);
    if (NULL != p) {
        opal_list_remove_item(&mca_common_ompix_thread_pollers, &p->super);
        OBJ_RELEASE(p);
        mca_common_ompix_thread_update_sleep();
    }
    if (opal_list_is_empty(&mca_common_ompix_thread_pollers)) {
        stopping = mca_common_ompix_thread;
        mca_common_ompix_thread = NULL;
    }
    opal_mutex_unlock(&mca_common_ompix_thread_lock);
    /* Joined outside the lock: the thread takes it to poll. */
    if (NULL != stopping) {
        mca_common_ompix_thread_join(stopping);
    }
}
