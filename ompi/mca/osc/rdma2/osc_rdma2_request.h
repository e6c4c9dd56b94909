/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Request-based operations (Rput, Rget, Raccumulate, Rget_accumulate).
 */
#ifndef MCA_OSC_RDMA2_REQUEST_H
#define MCA_OSC_RDMA2_REQUEST_H

#include "ompi_config.h"

#include <ucp/api/ucp.h>

#include "ompi/request/request.h"
#include "ompi/win/win.h"

BEGIN_C_DECLS

struct mca_osc_rdma2_acc_op_t;

/* Complete when every UCX piece's callback ran (`outstanding` starts at 1
 * for the issuing thread).  From the component's free list; while its last
 * piece's completion waits for progress it sits on the component's done
 * LIFO (through the list item of its free-list item).  A request-based
 * accumulate through UCX carries its state machine (`acc_op`): each time
 * its pieces are done it sits on the state machines' LIFO instead, and
 * the drain or our progress thread runs its next step; when it finished,
 * the drain completes the request (osc_rdma2_accumulate.c).  A
 * read_notify through UCX (osc_rdma2_notify.c) counts its pieces in one
 * that is no MPI request (`notify` set): its last piece adds 1 to that
 * slot, and the drain returns it to the list. */
typedef struct mca_osc_rdma2_request_t {
    ompi_request_t super;
    volatile int32_t outstanding;
    int error;
    struct mca_osc_rdma2_acc_op_t *acc_op;
    volatile int64_t *notify;       /* read_notify: the slot its last piece increments */
} mca_osc_rdma2_request_t;
OBJ_CLASS_DECLARATION(mca_osc_rdma2_request_t);

int mca_osc_rdma2_rput(const void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt, struct ompi_win_t *win,
                       struct ompi_request_t **request);
int mca_osc_rdma2_rget(void *origin_addr, int origin_count, struct ompi_datatype_t *origin_dt,
                       int target, ptrdiff_t target_disp, int target_count,
                       struct ompi_datatype_t *target_dt, struct ompi_win_t *win,
                       struct ompi_request_t **request);
int mca_osc_rdma2_raccumulate(const void *origin_addr, int origin_count,
                              struct ompi_datatype_t *origin_dt, int target, ptrdiff_t target_disp,
                              int target_count, struct ompi_datatype_t *target_dt,
                              struct ompi_op_t *op, struct ompi_win_t *win,
                              struct ompi_request_t **request);
int mca_osc_rdma2_rget_accumulate(const void *origin_addr, int origin_count,
                                  struct ompi_datatype_t *origin_dt, void *result_addr,
                                  int result_count, struct ompi_datatype_t *result_dt,
                                  int target, ptrdiff_t target_disp, int target_count,
                                  struct ompi_datatype_t *target_dt, struct ompi_op_t *op,
                                  struct ompi_win_t *win, struct ompi_request_t **request);

/* The component's request free list and done LIFO (component open/close). */
int mca_osc_rdma2_request_init(void);
void mca_osc_rdma2_request_fini(void);

/* read_notify through UCX: a counter of its pieces that increments
 * `slot` once the last one brought its data (pass it as the pieces'
 * request); NULL when the list is exhausted. */
mca_osc_rdma2_request_t *mca_osc_rdma2_request_notify_new(volatile int64_t *slot);
/* The issuer is done issuing (ret: how that went): increments the slot
 * now if every piece already finished (and none failed), else the last
 * piece's callback does. */
int mca_osc_rdma2_request_notify_issued(mca_osc_rdma2_request_t *req, int ret);

/* UCX completion callback of one piece of a request-based operation. */
void mca_osc_rdma2_request_piece_cb(void *ucx_req, ucs_status_t status, void *user_data);
/* Completes the MPI requests whose last piece finished, after running
 * the next steps of accumulate state machines (never called from a UCX
 * callback, only on application threads); returns how many. */
int mca_osc_rdma2_request_drain(void);
/* Runs the next steps of the accumulate state machines that are due;
 * app: on an application thread (finished ones complete here), else on
 * our progress thread (they wait on the done LIFO).  Returns the work done. */
int mca_osc_rdma2_request_advance(bool app);
/* Completes a request now (on an application thread). */
void mca_osc_rdma2_request_complete(mca_osc_rdma2_request_t *req);
/* Puts a finished accumulate's request on the done LIFO (from our
 * progress thread): the next drain retires and completes it. */
void mca_osc_rdma2_request_finished(mca_osc_rdma2_request_t *req);
/* Puts an accumulate's request on the state machines' LIFO: the next
 * pass runs its next step. */
void mca_osc_rdma2_request_requeue(mca_osc_rdma2_request_t *req);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_REQUEST_H */
