/*
 * Copyright (c) 2026 The ompix developers.
 *
 * osc/rdma2's MPI_T performance variables, bound to a window
 * (MCA_BASE_VAR_BIND_MPI_WIN).  See osc_rdma2_mpit.c.
 */
#ifndef MCA_OSC_RDMA2_MPIT_H
#define MCA_OSC_RDMA2_MPIT_H

#include "ompi_config.h"

#include <stdint.h>

BEGIN_C_DECLS

/* Paths to a target's window memory (osc_rdma2_path.h), as counted. */
enum { MCA_OSC_RDMA2_MPIT_MAPPED, MCA_OSC_RDMA2_MPIT_CMA, MCA_OSC_RDMA2_MPIT_UCX,
       MCA_OSC_RDMA2_MPIT_PATHS };

/* A window's counts.  ops, bytes and emulated count while an MPI_T handle
 * is bound to the window (watch set: its operations go through counting
 * wrappers); lock_waits always (a lock that was busy). */
typedef struct mca_osc_rdma2_mpit_t {
    struct mca_osc_rdma2_mpit_watch_t *watch;  /* osc_rdma2_mpit.c */
    volatile int64_t ops[MCA_OSC_RDMA2_MPIT_PATHS];
    volatile int64_t bytes[MCA_OSC_RDMA2_MPIT_PATHS];
    volatile int64_t emulated;
    volatile int64_t lock_waits;
} mca_osc_rdma2_mpit_t;

struct mca_osc_rdma2_module_t;

void mca_osc_rdma2_mpit_register(void);
/* Window free: the handles still bound to it read nothing more. */
void mca_osc_rdma2_mpit_forget(struct mca_osc_rdma2_module_t *module);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_MPIT_H */
