/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Compatibility: a persistent request that may be started again while
 * active (a channel with slack K: up to K starts outstanding, each
 * Wait/Test reporting the oldest).  Its code keeps the request armed
 * (OMPI_REQUEST_ACTIVE) for the oldest outstanding start, as Open MPI's
 * Wait/Test expect.  4.1's MPI_Start/MPI_Startall check only that a
 * request is persistent, so that is all.  5.0's refuse a request that is
 * not OMPI_REQUEST_INACTIVE (MPI_Startall always, MPI_Start with parameter
 * checks on), before its req_start runs.  So on 5.0 an armed request
 * with room for another start is parked between MPI calls: shown
 * INACTIVE, its `show` saying it is armed; armed without room it shows
 * ACTIVE, and 5.0's check refuses the (K+1)-th start, once, as
 * MPI_ERR_REQUEST.  The request's own code reads its state through
 * mca_common_ompix_request_state, arms it through _arm, and Wait/Test
 * wrappers hold it (shown armed, so Open MPI's Wait/Test see it ACTIVE)
 * before Open MPI's functions look at it and release it after (parked
 * again if armed with room).  MPI_Request_get_status, which no layer
 * wraps, sees a parked request inactive (README's version matrix).
 * Progress on another thread arms a held request ACTIVE, never parks it,
 * so a Wait in progress does not see it go inactive; and it parks an
 * unheld one with room as the user's last call left it, so a concurrent
 * MPI_Start is never refused for want of room.  A request another layer
 * holds (_own) is never parked: the layer's rules decide.
 */
#ifndef MCA_COMMON_OMPIX_COMPAT_REQUEST_H
#define MCA_COMMON_OMPIX_COMPAT_REQUEST_H

#include "ompi/mca/common/ompix/common_ompix_compat_series.h"
#include "ompi/mca/common/ompix/common_ompix_request.h"
#include "ompi/request/request.h"

/* Whether requests park on this series: Wait/Test wrappers hold and
 * release only where they do (a constant: nothing to test on 4.1). */
#if OMPIX_OMPI_SERIES >= 50
#define MCA_COMMON_OMPIX_REQUEST_PARKS 1
#else
#define MCA_COMMON_OMPIX_REQUEST_PARKS 0
#endif

/* How such a request's req_state is shown (one per request, beside it). */
typedef enum {
    MCA_COMMON_OMPIX_REQUEST_PLAIN = 0, /* req_state is its state */
    MCA_COMMON_OMPIX_REQUEST_PARKED,    /* armed, shown INACTIVE (5.0 only) */
    MCA_COMMON_OMPIX_REQUEST_HELD       /* inside Wait/Test: never parked */
} mca_common_ompix_request_show_t;

/* Whether the request's code may park it now: only its own rules apply
 * (its req_start is start, no completion callback on it, no layer starting
 * it: a persistent continuation or a bundle allows one start at a time and
 * consumes completions itself).  4.1: never asked (constant false). */
static inline bool mca_common_ompix_request_own(const ompi_request_t *r,
                                                ompi_request_start_fn_t start)
{
#if OMPIX_OMPI_SERIES >= 50
    return start == r->req_start && NULL == r->req_complete_cb &&
           !mca_common_ompix_request_layered(r);
#else
    (void) r;
    (void) start;
    return false;
#endif
}

/* The request's own state: a parked request is armed. */
static inline ompi_request_state_t
mca_common_ompix_request_state(const ompi_request_t *r, mca_common_ompix_request_show_t show)
{
#if OMPIX_OMPI_SERIES >= 50
    return MCA_COMMON_OMPIX_REQUEST_PARKED == show ? OMPI_REQUEST_ACTIVE : r->req_state;
#else
    (void) show;
    return r->req_state;
#endif
}

/* Arms the request for its oldest outstanding start; room: another start
 * is legal now. */
static inline void mca_common_ompix_request_arm(ompi_request_t *r,
                                                mca_common_ompix_request_show_t *show, bool room)
{
#if OMPIX_OMPI_SERIES >= 50
    if (room && MCA_COMMON_OMPIX_REQUEST_HELD != *show) {
        *show = MCA_COMMON_OMPIX_REQUEST_PARKED;
        r->req_state = OMPI_REQUEST_INACTIVE;
        return;
    }
    if (MCA_COMMON_OMPIX_REQUEST_PARKED == *show) {
        *show = MCA_COMMON_OMPIX_REQUEST_PLAIN;
    }
#else
    (void) show;
    (void) room;
#endif
    r->req_state = OMPI_REQUEST_ACTIVE;
}

/* _arm for a request that was not parked (its own state was INACTIVE:
 * an idle start), without the test of a parked show: one compare and
 * branch less in the channels' fast starts. */
static inline void mca_common_ompix_request_arm_idle(ompi_request_t *r,
                                                     mca_common_ompix_request_show_t *show,
                                                     bool room)
{
#if OMPIX_OMPI_SERIES >= 50
    if (room && MCA_COMMON_OMPIX_REQUEST_HELD != *show) {
        *show = MCA_COMMON_OMPIX_REQUEST_PARKED;
        r->req_state = OMPI_REQUEST_INACTIVE;
        return;
    }
#else
    (void) show;
    (void) room;
#endif
    r->req_state = OMPI_REQUEST_ACTIVE;
}

/* After a start or a consumption changed its room: an armed request
 * parked or shown ACTIVE again (4.1: it stays ACTIVE). */
static inline void mca_common_ompix_request_reshow(ompi_request_t *r,
                                                   mca_common_ompix_request_show_t *show,
                                                   bool room)
{
#if OMPIX_OMPI_SERIES >= 50
    if (OMPI_REQUEST_ACTIVE == mca_common_ompix_request_state(r, *show)) {
        mca_common_ompix_request_arm(r, show, room);
    }
#else
    (void) r;
    (void) show;
    (void) room;
#endif
}

/* Wait/Test wrappers, before Open MPI's functions see the request. */
static inline void mca_common_ompix_request_hold(ompi_request_t *r,
                                                 mca_common_ompix_request_show_t *show)
{
#if OMPIX_OMPI_SERIES >= 50
    if (MCA_COMMON_OMPIX_REQUEST_PARKED == *show) {
        r->req_state = OMPI_REQUEST_ACTIVE;
    }
    *show = MCA_COMMON_OMPIX_REQUEST_HELD;
#else
    (void) r;
    (void) show;
#endif
}

/* After them (and after the request presented its next start). */
static inline void mca_common_ompix_request_release(ompi_request_t *r,
                                                    mca_common_ompix_request_show_t *show,
                                                    bool room)
{
#if OMPIX_OMPI_SERIES >= 50
    /* Not held (a settling outside Wait/Test: an unbind's): as it is. */
    if (MCA_COMMON_OMPIX_REQUEST_HELD == *show) {
        *show = MCA_COMMON_OMPIX_REQUEST_PLAIN;
        mca_common_ompix_request_reshow(r, show, room);
    }
#else
    (void) r;
    (void) show;
    (void) room;
#endif
}

/* A request every start of which is erroneous for now (a bundle's member,
 * whose req_start refuses): 5.0 shows it ACTIVE, so that its MPI_Start
 * and MPI_Startall refuse it themselves, once (a req_start of count 1 can
 * not tell MPI_Start, which reports its error, from MPI_Startall, which
 * drops it).  Its holder shows it INACTIVE again (_unrefuse) before it
 * starts it with the request's own req_start and when it lets it go.
 * 4.1: MPI_Start/MPI_Startall call the req_start, which reports. */
static inline void mca_common_ompix_request_refuse(ompi_request_t *r)
{
#if OMPIX_OMPI_SERIES >= 50
    r->req_state = OMPI_REQUEST_ACTIVE;
#else
    (void) r;
#endif
}

static inline void mca_common_ompix_request_unrefuse(ompi_request_t *r)
{
#if OMPIX_OMPI_SERIES >= 50
    r->req_state = OMPI_REQUEST_INACTIVE;
#else
    (void) r;
#endif
}

#endif /* MCA_COMMON_OMPIX_COMPAT_REQUEST_H */
