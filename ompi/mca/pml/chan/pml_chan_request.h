/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The channel request (pml_chan_request.c): its set-up and completion,
 * which the starts (pml_chan_request_start.c), Wait/Test
 * (pml_chan_request_wait.c) and progress (pml_chan_progress.c) share, and
 * which the paths' fast starts (start_now) end in.  Completion calls
 * nothing of the paths.
 */
#ifndef MCA_PML_CHAN_REQUEST_H
#define MCA_PML_CHAN_REQUEST_H

#include "pml_chan_end.h"

BEGIN_C_DECLS

void mca_pml_chan_request_setup(mca_pml_chan_end_t *end);
int mca_pml_chan_request_outstanding(mca_pml_chan_end_t *end);
/* Called by the starts, Wait/Test and progress of the other files: hidden,
 * so that those calls are direct, not through the PLT, as when all were
 * one file. */
__opal_attribute_visibility__("hidden") bool
mca_pml_chan_request_report(mca_pml_chan_end_t *end);
__opal_attribute_visibility__("hidden") int
mca_pml_chan_request_make_busy(mca_pml_chan_end_t *end);
__opal_attribute_visibility__("hidden") int
mca_pml_chan_request_fast_complete(ompi_request_t *r);

/* Whether only the channel's own rules apply (5.0:
 * common_ompix_compat_request.h:mca_common_ompix_request_own).  Out of
 * line: its test of a layer reads a thread-local, in a dlopened component
 * a call to the TLS resolver, which cost the fast start inlining it a
 * stack frame on every start. */
__opal_attribute_visibility__("hidden") bool
mca_pml_chan_request_own(const mca_pml_chan_end_t *end);

/* Whether another start is legal now, where an armed request shows it
 * (5.0: common_ompix_compat_request.h; 4.1: a constant false).  Not while
 * another layer holds the request (a persistent continuation, a bundle:
 * _request_own): its rules decide. */
static inline bool mca_pml_chan_request_room(const mca_pml_chan_end_t *end)
{
    return MCA_COMMON_OMPIX_REQUEST_PARKS && end->nstart - end->nconsumed < end->slack &&
           mca_pml_chan_request_own(end);
}

/* The request's own state (parked is armed). */
static inline ompi_request_state_t mca_pml_chan_request_state(const mca_pml_chan_end_t *end)
{
    return mca_common_ompix_request_state(&end->super, end->show);
}

/* Whether progress must look at the end: data still to move, or a reported
 * completion whose consumption arms the next one. */
static inline bool mca_pml_chan_request_needs_poll(const mca_pml_chan_end_t *end)
{
    return end->ndone < end->nstart ||
           (end->pending_report && end->nconsumed + 1 < end->nstart);
}

/* Message n of an idle end was written and is done: report() and
 * needs_poll() of start_one reduced to their outcome.  True when
 * ompi_request_complete() must run (mca_pml_chan_request_fast_complete): a
 * request left COMPLETED by the previous start, set PENDING and completed
 * again, only ends COMPLETED, so that is skipped when no completion
 * callback is there to run. */
static inline bool mca_pml_chan_request_fast_done(mca_pml_chan_end_t *end, uint64_t n)
{
    ompi_request_t *r = &end->super;

    end->nconsumed = n;
    end->nstart = end->nwritten = end->ndone = n + 1;
    end->pending_report = true;
    mca_common_ompix_request_arm_idle(r, &end->show, mca_pml_chan_request_room(end));
    return OPAL_UNLIKELY(NULL != r->req_complete_cb || REQUEST_COMPLETED != r->req_complete);
}

/* fast_done and, when it says so, the completion. */
static inline void mca_pml_chan_request_done_now(mca_pml_chan_end_t *end, uint64_t n)
{
    if (mca_pml_chan_request_fast_done(end, n)) {
        (void) mca_pml_chan_request_fast_complete(&end->super);
    }
}

END_C_DECLS

#endif /* MCA_PML_CHAN_REQUEST_H */
