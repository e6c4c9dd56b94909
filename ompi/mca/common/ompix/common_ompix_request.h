/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What ompix's request wrappers share about Open MPI's request engine.
 */
#ifndef MCA_COMMON_OMPIX_REQUEST_H
#define MCA_COMMON_OMPIX_REQUEST_H

#include "ompi_config.h"

#include <sched.h>

#include "opal/runtime/opal.h"
#include "opal/sys/atomic.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/* ompi_request_complete runs a request's completion callback before it
 * marks the request complete, on the thread that progressed it.  When the
 * callback completes something else (a continuation, a channel) that
 * another thread then acts on, that thread must wait for the mark before it
 * frees, deactivates or restarts the request: a restart in between would
 * receive the late mark, completing the new round at once, and the PML
 * would then skip the real completion and the callback.  The mark is a few
 * instructions away (yield: the completer may share our core); without
 * threads it is always there. */
static inline void mca_common_ompix_request_wait_marked(ompi_request_t *req)
{
    if (!opal_using_threads()) {
        return;
    }
    while (!REQUEST_COMPLETE(req)) {
        sched_yield();
    }
    opal_atomic_rmb();
}

/* A layer that lets its request have one start outstanding at a time (a
 * persistent continuation: ompi/mpiext/continue) and starts it through the
 * request's own req_start, restored for the call, names the request here
 * for the call (this thread's), so that the request's code knows a layer
 * holds it, although its req_start is its own then: a channel of slack > 1
 * does not park it (common_ompix_compat_request.h).  At other times the
 * layer's req_start is in place, which says so. */
OMPI_DECLSPEC extern __thread ompi_request_t *mca_common_ompix_request_layer_start;

static inline void mca_common_ompix_request_layer_enter(ompi_request_t *req)
{
    mca_common_ompix_request_layer_start = req;
}

static inline void mca_common_ompix_request_layer_leave(void)
{
    mca_common_ompix_request_layer_start = NULL;
}

/* Whether a layer is starting req on this thread now. */
static inline bool mca_common_ompix_request_layered(const ompi_request_t *req)
{
    return req == mca_common_ompix_request_layer_start;
}

END_C_DECLS

#endif /* MCA_COMMON_OMPIX_REQUEST_H */
