/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The accumulate family: Accumulate, Get_accumulate, Fetch_and_op,
 * Compare_and_swap.
 */
#ifndef MCA_OSC_RDMA2_ACCUMULATE_H
#define MCA_OSC_RDMA2_ACCUMULATE_H

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"
#include "ompi/win/win.h"

#include "osc_rdma2_peer.h"
#include "osc_rdma2_request.h"

BEGIN_C_DECLS

int mca_osc_rdma2_accumulate(const void *origin_addr, int origin_count,
                             struct ompi_datatype_t *origin_dt, int target, ptrdiff_t target_disp,
                             int target_count, struct ompi_datatype_t *target_dt,
                             struct ompi_op_t *op, struct ompi_win_t *win);
int mca_osc_rdma2_get_accumulate(const void *origin_addr, int origin_count,
                                 struct ompi_datatype_t *origin_dt, void *result_addr,
                                 int result_count, struct ompi_datatype_t *result_dt,
                                 int target, ptrdiff_t target_disp, int target_count,
                                 struct ompi_datatype_t *target_dt, struct ompi_op_t *op,
                                 struct ompi_win_t *win);
int mca_osc_rdma2_fetch_and_op(const void *origin_addr, void *result_addr,
                               struct ompi_datatype_t *dt, int target, ptrdiff_t target_disp,
                               struct ompi_op_t *op, struct ompi_win_t *win);
int mca_osc_rdma2_compare_and_swap(const void *origin_addr, const void *compare_addr,
                                   void *result_addr, struct ompi_datatype_t *dt, int target,
                                   ptrdiff_t target_disp, struct ompi_win_t *win);

/* Raccumulate/Rget_accumulate (result NULL for Raccumulate): through the
 * accumulate lock to memory UCX reaches, starts the operation's state
 * machine, which then completes `req` (*owned); otherwise runs it to
 * completion here and leaves `req` to the caller. */
int mca_osc_rdma2_acc_start(mca_osc_rdma2_request_t *req, const void *origin, int ocount,
                            struct ompi_datatype_t *odt, void *result, int rcount,
                            struct ompi_datatype_t *rdt, int target, ptrdiff_t disp, int tcount,
                            struct ompi_datatype_t *tdt, struct ompi_op_t *op,
                            struct ompi_win_t *win, bool *owned);
/* Advances the state machine of `req` whose pieces are all done, on an
 * application thread (app) or on our progress thread; one of: */
enum {
    MCA_OSC_RDMA2_ACC_OP_PENDING,   /* pieces outstanding: their callback requeues it */
    MCA_OSC_RDMA2_ACC_OP_RETRY,     /* the lock is busy or not due: requeue it */
    MCA_OSC_RDMA2_ACC_OP_FINISHED   /* released, results in place; app: retire and
                                     * complete it, else it is on the done LIFO */
};
int mca_osc_rdma2_acc_op_resume(mca_osc_rdma2_request_t *req, bool app);
/* What is left of a finished machine (datatype references, memory), on
 * an application thread, before its request completes. */
void mca_osc_rdma2_acc_op_retire(mca_osc_rdma2_request_t *req);
/* Until the request-based accumulates toward the peer / toward any target
 * of the window finished (completion, and accumulates' order). */
void mca_osc_rdma2_acc_wait_peer(mca_osc_rdma2_peer_t *peer);
void mca_osc_rdma2_acc_wait_all(mca_osc_rdma2_module_t *module);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_ACCUMULATE_H */
