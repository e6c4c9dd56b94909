/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Active target: fence and post/start/complete/wait/test.
 */
#ifndef MCA_OSC_RDMA2_ACTIVE_H
#define MCA_OSC_RDMA2_ACTIVE_H

#include "osc_rdma2_module.h"

BEGIN_C_DECLS

int mca_osc_rdma2_fence(int assert, struct ompi_win_t *win);
int mca_osc_rdma2_start(struct ompi_group_t *group, int assert, struct ompi_win_t *win);
int mca_osc_rdma2_complete(struct ompi_win_t *win);
int mca_osc_rdma2_post(struct ompi_group_t *group, int assert, struct ompi_win_t *win);
int mca_osc_rdma2_wait(struct ompi_win_t *win);
int mca_osc_rdma2_test(struct ompi_win_t *win, int *flag);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_ACTIVE_H */
