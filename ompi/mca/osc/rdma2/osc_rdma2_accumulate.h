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

END_C_DECLS

#endif /* MCA_OSC_RDMA2_ACCUMULATE_H */
