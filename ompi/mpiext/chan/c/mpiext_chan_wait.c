/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Wait/Test on channels.  We wrap Open MPI's request functions (as the
 * continue extension does; each layer calls the one below) once an engine
 * channel or a fallback channel of slack > 1 exists, for two things:
 *
 *   the engine's fast path: Open MPI's Wait/Test see a channel's
 *   completion only through opal_progress, whose every sweep also runs the
 *   selected PML's progress (pml ucx: its worker).  For an engine channel
 *   the wrappers first call the engine's poll() (Test) or wait() (Wait),
 *   which look at the end itself and complete the request; MPI_Wait and
 *   MPI_Test then report it as Open MPI's would, the array forms through
 *   the originals, which find it complete.
 *
 *   slack > 1: Open MPI's Wait/Test make a completed persistent request
 *   INACTIVE and never look at it again; a channel with more starts
 *   outstanding must then present the next one before the caller's next
 *   Wait/Test.  After the originals return, the wrappers settle the
 *   channels among the requests: ompix_chan_fb_settle for the fallback's,
 *   the engine's settle() for its own.  Slack-1 channels settle in
 *   MPI_Start.
 *
 * Channels are told apart by their req_start (a pointer compare, no lock,
 * no lookup), so an ordinary request pays one load and a compare per
 * wrapper (and per element of an array), and settling nothing while no
 * channel of slack > 1 exists.
 */

#include "ompi_config.h"

#include <sched.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/mca/common/ompix/common_ompix_compat_request.h"

#include "mpiext_chan_bundle.h"
#include "mpiext_chan_internal.h"

/* What our wrappers call: the request functions below our layer. */
#define OMPIX_CHAN_ORIG (ompix_chan_global.reqfn.below)

/* Never a request's req_start: what the wrappers compare with while no
 * engine runs channels (engine off: the table's start is NULL, as is the
 * req_start of every non-persistent request). */
static int ompix_chan_no_engine_start(size_t count, ompi_request_t **reqs)
{
    (void) count; (void) reqs;
    return OMPI_ERR_NOT_SUPPORTED;
}

/* The engine's start and table, fixed when the wrappers are installed. */
static int (*ompix_chan_engine_start)(size_t, ompi_request_t **) = ompix_chan_no_engine_start;
static const mca_pml_chan_api_t *ompix_chan_engine;
/* Its wait(), for MPI_Wait: one load fewer than through the table. */
static void (*ompix_chan_engine_wait)(ompi_request_t *request);

static inline bool ompix_chan_is_engine(const ompi_request_t *r)
{
    return ompix_chan_engine_start == r->req_start;
}

/* Test-family: one look at each engine channel before Open MPI's test. */
static void ompix_chan_poll_array(size_t count, ompi_request_t **reqs)
{
    for (size_t i = 0; i < count; ++i) {
        if (ompix_chan_is_engine(reqs[i])) {
            (void) ompix_chan_engine->poll(reqs[i]);
        }
    }
}

/* A fallback channel that Wait should drive itself: under
 * MPI_THREAD_MULTIPLE, Open MPI's Wait lets one waiting thread progress
 * and puts the others to sleep until their request completes; with a
 * thread per channel every completion is then a hand-over between
 * threads through a condition variable, and the fallback, whose messages
 * need progress at both ends, crawled (4 threads, 2 ranks: 235 s for
 * 10 000 starts; README-design.md, "Threads").  Driving it here, each
 * waiting thread progresses until its own channel is complete, as the
 * engine's wait() does. */
static inline bool ompix_chan_is_fb_mt(const ompi_request_t *r)
{
    return ompix_chan_fb_start == r->req_start && opal_using_threads();
}

/* Whether the request is complete now, after one look at an engine
 * channel's end. */
static inline bool ompix_chan_look(ompi_request_t *r)
{
    if (ompix_chan_is_engine(r)) {
        return ompix_chan_engine->poll(r);
    }
    return REQUEST_COMPLETE(r) || OMPI_REQUEST_INACTIVE == r->req_state;
}

/* A fallback channel's Wait: until it is complete, progressing, and
 * yielding the processor after a sweep that did not complete it: with a
 * thread per channel every waiting thread spins here, and spinning ones
 * contend for opal_progress's event lock (one exchanged word: a third of
 * the process's cycles in perf) and keep the processor from the threads,
 * here and at the peer, whose messages can move (README-design.md,
 * "Threads"). */
static void ompix_chan_fb_wait(ompi_request_t *r)
{
    while (!ompix_chan_look(r)) {
        opal_progress();
        if (!ompix_chan_look(r)) {
            sched_yield();
        }
    }
}

/* Whether every request of the array that can still complete is a
 * channel we wait on ourselves (an engine channel, or a fallback one under
 * threads; for Wait_all an engine bundle too; one at least):
 * Wait_all/any/some then wait on them here.
 * Stops at the first other request. */
static bool ompix_chan_all_ours(size_t count, ompi_request_t **reqs, bool wait_all)
{
    bool any = false;

    for (size_t i = 0; i < count; ++i) {
        ompi_request_t *r = reqs[i];
        if (ompix_chan_is_engine(r) || ompix_chan_is_fb_mt(r)) {
            any = true;
        } else if (wait_all && ompix_bundle_engine_is(r)) {
            any = true;                 /* Wait_all waits on it (Wait_any/some do not) */
        } else if (OMPI_REQUEST_INACTIVE != r->req_state) {
            return false;               /* MPI_REQUEST_NULL is inactive */
        }
    }
    return any;
}

/* Wait_any/Wait_some over such channels only: until one can be
 * reported, with opal_progress as the engine's wait() calls it (every
 * sweep when a fallback channel is among them: only progress completes
 * it).  None active: the original reports MPI_UNDEFINED. */
static void ompix_chan_wait_one_of(size_t count, ompi_request_t **reqs)
{
    unsigned int looks = 0;

    for (;;) {
        bool active = false, fb = false;
        for (size_t i = 0; i < count; ++i) {
            ompi_request_t *r = reqs[i];
            if (OMPI_REQUEST_INACTIVE == r->req_state
                || !(ompix_chan_is_engine(r) || ompix_chan_is_fb_mt(r))) {
                continue;
            }
            active = true;
            fb = fb || !ompix_chan_is_engine(r);
            if (ompix_chan_look(r)) {
                return;
            }
            if (MCA_PML_CHAN_POLLS_PER_PROGRESS == ++looks) {
                looks = 0;
                opal_progress();
            }
        }
        if (!active) {
            return;
        }
        if (fb) {
            opal_progress();
            sched_yield();          /* as ompix_chan_fb_wait */
        }
    }
}

/* Which channel a request of the caller's array is, if any, for the
 * settling and the holding.  Only requests still in the array: Wait/Test
 * replace the handle of a request they freed with MPI_REQUEST_NULL.  A
 * channel being unbound by MPIX_Iunbind_channel is no longer persistent. */
typedef enum { OMPIX_CHAN_NOT_OURS, OMPIX_CHAN_IS_FB, OMPIX_CHAN_IS_ENGINE } ompix_chan_which_t;

static inline ompix_chan_which_t ompix_chan_which(const ompi_request_t *r,
                                                  const mca_pml_chan_api_t *engine)
{
    if (NULL == r || MPI_REQUEST_NULL == r || !r->req_persistent) {
        return OMPIX_CHAN_NOT_OURS;
    }
    if (ompix_chan_fb_start == r->req_start) {
        return OMPIX_CHAN_IS_FB;
    }
    /* (engine off: its start is NULL, as is the req_start of Open MPI's
     * requests to MPI_PROC_NULL) */
    if (NULL != engine && NULL != engine->start && engine->start == r->req_start) {
        return OMPIX_CHAN_IS_ENGINE;
    }
    return OMPIX_CHAN_NOT_OURS;
}

void ompix_chan_settle_array(size_t count, ompi_request_t **reqs)
{
    const mca_pml_chan_api_t *engine = ompix_chan_global.engine;

    if (0 == ompix_chan_global.num_watched) {
        return;
    }
    for (size_t i = 0; i < count; ++i) {
        switch (ompix_chan_which(reqs[i], engine)) {
        case OMPIX_CHAN_IS_FB:
            ompix_chan_fb_settle((ompix_chan_fb_t *) reqs[i]);
            break;
        case OMPIX_CHAN_IS_ENGINE:
            engine->settle(reqs[i]);
            break;
        default:
            break;
        }
    }
}

/* Before Open MPI's Wait/Test look at the requests.  A channel of slack
 * > 1 whose oldest start another layer consumed (a continuation: it makes
 * the request inactive as Wait would, and no Wait of ours settled it) is
 * settled first, so that they see its next start, not an inactive
 * request.  And 5.0 parks such a channel armed with room for another
 * start (shown inactive, so that 5.0's MPI_Start/MPI_Startall let the
 * start through: common_ompix_compat_request.h): the engine's hold()
 * shows it armed until settle() (the fallback's: ompix_chan_fb_hold, which
 * settles too, until ompix_chan_fb_settle). */
static void ompix_chan_hold_array(size_t count, ompi_request_t **reqs)
{
    const mca_pml_chan_api_t *engine = ompix_chan_global.engine;

    for (size_t i = 0; i < count; ++i) {
        switch (ompix_chan_which(reqs[i], engine)) {
        case OMPIX_CHAN_IS_FB:
            ompix_chan_fb_hold((ompix_chan_fb_t *) reqs[i]);
            break;
        case OMPIX_CHAN_IS_ENGINE:
            /* Held, it shows its own state (4.1: always): inactive is
             * then a consumed start (settle() releases it: held again). */
            engine->hold(reqs[i]);
            if (OMPI_REQUEST_INACTIVE == reqs[i]->req_state) {
                engine->settle(reqs[i]);
                engine->hold(reqs[i]);
            }
            break;
        default:
            break;
        }
    }
}

/* While a channel of slack > 1 exists: one load otherwise. */
static inline void ompix_chan_hold(size_t count, ompi_request_t **reqs)
{
    if (OPAL_UNLIKELY(0 != ompix_chan_global.num_watched)) {
        ompix_chan_hold_array(count, reqs);
    }
}

/* settle_array's first test inline: every Wait/Test pays it, and while no
 * channel of slack > 1 exists (the usual case) it is all there is. */
static inline void ompix_chan_settle(size_t count, ompi_request_t **reqs)
{
    if (OPAL_UNLIKELY(0 != ompix_chan_global.num_watched)) {
        ompix_chan_settle_array(count, reqs);
    }
}

/* What Open MPI's Wait/Test do with a persistent request that poll() or
 * wait() found complete or inactive (ompi_request_default_wait), then the
 * settling: an engine channel is none of the business of the layers
 * below us (a channel carrying a persistent continuation has the
 * continue extension's req_start, not the engine's). */
static int ompix_chan_engine_done(ompi_request_t **rptr, ompi_status_public_t *status)
{
    ompi_request_t *r = *rptr;
    int rc;

    opal_atomic_rmb();
    if (OMPI_REQUEST_INACTIVE == r->req_state) {
        if (MPI_STATUS_IGNORE != status) {
            OMPI_COPY_STATUS(status, ompi_status_empty, false);
        }
        return OMPI_SUCCESS;
    }
    if (MPI_STATUS_IGNORE != status) {
        OMPI_COPY_STATUS(status, r->req_status, false);
    }
    r->req_state = OMPI_REQUEST_INACTIVE;
    rc = r->req_status.MPI_ERROR;
    /* An engine channel, still persistent (Iunbind's completion is the
     * original's business): straight to its settle, not the array walk;
     * only while some channel has slack > 1 (a slack-1 channel has nothing
     * more to present: its next start counts the consumption), so that a
     * ping-pong's Wait pays one load for it, not a call. */
    if (OPAL_UNLIKELY(0 != ompix_chan_global.num_watched)) {
        ompix_chan_engine->settle(r);
    }
    return rc;
}

static int ompix_chan_test(ompi_request_t **rptr, int *completed, ompi_status_public_t *status)
{
    int rc;

    ompix_chan_hold(1, rptr);
    if (ompix_chan_is_engine(*rptr) && ompix_chan_engine->poll(*rptr)) {
        *completed = true;
        return ompix_chan_engine_done(rptr, status);
    }
    rc = OMPIX_CHAN_ORIG.req_test(rptr, completed, status);

    ompix_chan_settle(1, rptr);
    return rc;
}

static int ompix_chan_test_any(size_t count, ompi_request_t **reqs, int *index, int *completed,
                               ompi_status_public_t *status)
{
    int rc;

    ompix_chan_hold(count, reqs);
    ompix_chan_poll_array(count, reqs);
    rc = OMPIX_CHAN_ORIG.req_test_any(count, reqs, index, completed, status);

    ompix_chan_settle(count, reqs);
    return rc;
}

static int ompix_chan_test_all(size_t count, ompi_request_t **reqs, int *completed,
                               ompi_status_public_t *statuses)
{
    int rc;

    ompix_chan_hold(count, reqs);
    ompix_chan_poll_array(count, reqs);
    rc = OMPIX_CHAN_ORIG.req_test_all(count, reqs, completed, statuses);

    ompix_chan_settle(count, reqs);
    return rc;
}

static int ompix_chan_test_some(size_t count, ompi_request_t **reqs, int *outcount, int *indices,
                                ompi_status_public_t *statuses)
{
    int rc;

    ompix_chan_hold(count, reqs);
    ompix_chan_poll_array(count, reqs);
    rc = OMPIX_CHAN_ORIG.req_test_some(count, reqs, outcount, indices, statuses);

    ompix_chan_settle(count, reqs);
    return rc;
}

static int ompix_chan_wait(ompi_request_t **rptr, ompi_status_public_t *status)
{
    int rc;

    ompix_chan_hold(1, rptr);
    if (ompix_chan_is_engine(*rptr)) {
        ompix_chan_engine_wait(*rptr);
        return ompix_chan_engine_done(rptr, status);
    }
    if (ompix_bundle_engine_is(*rptr)) {
        ompix_bundle_engine_wait(*rptr);
    } else if (ompix_chan_is_fb_mt(*rptr)) {
        ompix_chan_fb_wait(*rptr);
    }
    rc = OMPIX_CHAN_ORIG.req_wait(rptr, status);

    ompix_chan_settle(1, rptr);
    return rc;
}

static int ompix_chan_wait_any(size_t count, ompi_request_t **reqs, int *index,
                               ompi_status_public_t *status)
{
    int rc;

    ompix_chan_hold(count, reqs);
    if (ompix_chan_all_ours(count, reqs, false)) {
        ompix_chan_wait_one_of(count, reqs);
    }
    rc = OMPIX_CHAN_ORIG.req_wait_any(count, reqs, index, status);

    ompix_chan_settle(count, reqs);
    return rc;
}

static int ompix_chan_wait_all(size_t count, ompi_request_t **reqs,
                               ompi_status_public_t *statuses)
{
    int rc;

    ompix_chan_hold(count, reqs);
    if (ompix_chan_all_ours(count, reqs, true)) {
        for (size_t i = 0; i < count; ++i) {
            if (ompix_chan_is_engine(reqs[i])) {
                ompix_chan_engine->wait(reqs[i]);
            } else if (ompix_bundle_engine_is(reqs[i])) {
                ompix_bundle_engine_wait(reqs[i]);
            } else if (ompix_chan_is_fb_mt(reqs[i])) {
                ompix_chan_fb_wait(reqs[i]);
            }
        }
    }
    rc = OMPIX_CHAN_ORIG.req_wait_all(count, reqs, statuses);

    ompix_chan_settle(count, reqs);
    return rc;
}

static int ompix_chan_wait_some(size_t count, ompi_request_t **reqs, int *outcount, int *indices,
                                ompi_status_public_t *statuses)
{
    int rc;

    ompix_chan_hold(count, reqs);
    if (ompix_chan_all_ours(count, reqs, false)) {
        ompix_chan_wait_one_of(count, reqs);
    }
    rc = OMPIX_CHAN_ORIG.req_wait_some(count, reqs, outcount, indices, statuses);

    ompix_chan_settle(count, reqs);
    return rc;
}

static const ompi_request_fns_t ompix_chan_fns = {
    .req_test = ompix_chan_test,
    .req_test_any = ompix_chan_test_any,
    .req_test_all = ompix_chan_test_all,
    .req_test_some = ompix_chan_test_some,
    .req_wait = ompix_chan_wait,
    .req_wait_any = ompix_chan_wait_any,
    .req_wait_all = ompix_chan_wait_all,
    .req_wait_some = ompix_chan_wait_some,
};

/* Once, at the first engine channel or fallback channel of slack > 1: one
 * layer over Open MPI's request functions (common_ompix_reqfn.h), off at
 * MPI_Finalize. */
void ompix_chan_wait_install(void)
{
    const mca_pml_chan_api_t *engine = ompix_chan_global.engine;

    /* Called with the global lock held. */
    if (!ompix_chan_global.wrapped) {
        if (NULL != engine && NULL != engine->start && NULL != engine->wait) {
            ompix_chan_engine = engine;
            ompix_chan_engine_wait = engine->wait;
            ompix_chan_engine_start = engine->start;
        }
        ompix_chan_global.reqfn.name = "chan";
        ompix_chan_global.reqfn.fns = &ompix_chan_fns;
        mca_common_ompix_reqfn_push(&ompix_chan_global.reqfn);
        ompix_chan_global.wrapped = true;
    }
}

void ompix_chan_wait_uninstall(void)
{
    if (ompix_chan_global.wrapped) {
        mca_common_ompix_reqfn_pop(&ompix_chan_global.reqfn);
    }
    ompix_chan_engine_start = ompix_chan_no_engine_start;
    ompix_chan_engine = NULL;
    ompix_chan_global.wrapped = false;
}

/* Another layer's look at a channel between the user's calls (5.0:
 * common_ompix_compat_request.h): held and settled as by the Wait/Test
 * wrappers around Open MPI's functions. */
static void ompix_chan_show_hold(ompi_request_t *r)
{
    ompix_chan_hold_array(1, &r);
}

static void ompix_chan_show_release(ompi_request_t *r)
{
    ompix_chan_settle_array(1, &r);
}

static const mca_common_ompix_request_show_api_t ompix_chan_show_api = {
    .hold = ompix_chan_show_hold,
    .release = ompix_chan_show_release,
};

static mca_common_ompix_registry_entry_t ompix_chan_show_entry = {
    .name = MCA_COMMON_OMPIX_REQUEST_SHOW_NAME,
    .version = MCA_COMMON_OMPIX_REQUEST_SHOW_VERSION,
    .table = &ompix_chan_show_api,
};

/* Published when the library holding the extension is loaded, never
 * withdrawn (as mpiext_chan_bundle_ops.c's table, for the same reason). */
static void __attribute__((constructor)) ompix_chan_show_publish(void)
{
    mca_common_ompix_registry_publish(&ompix_chan_show_entry);
}
