/*
 * Copyright (c) 2026 The ompix developers.
 *
 * One window (an osc module): what this rank knows about it, and what
 * ranks publish about themselves when it is created.
 */
#ifndef MCA_OSC_RDMA2_MODULE_H
#define MCA_OSC_RDMA2_MODULE_H

#include "ompi_config.h"

#include "ompi/communicator/communicator.h"
#include "ompi/group/group.h"
#include "ompi/mca/osc/osc.h"
#include "ompi/win/win.h"

#include "osc_rdma2_component.h"
#include "osc_rdma2_mpit.h"
#include "osc_rdma2_state.h"
#include "osc_rdma2_sync.h"

BEGIN_C_DECLS

struct mca_osc_rdma2_peer_t;
struct mca_osc_rdma2_dyn_local_t;
struct mca_osc_rdma2_notify_t;

/* What one rank publishes about itself when a window is created.  Followed
 * in the exchanged blob by its worker address (if addresses are exchanged),
 * then the packed keys of the window memory, the state block, the process
 * state block and the notification slots. */
typedef struct mca_osc_rdma2_wire_t {
    uint64_t base;
    uint64_t size;
    uint64_t state;
    uint64_t pstate;
    uint64_t notify;                /* its notification slots (osc_rdma2_notify.c) */
    int32_t disp_unit;
    uint16_t address_len;
    uint16_t win_rkey_len;
    uint16_t state_rkey_len;
    uint16_t pstate_rkey_len;
    uint16_t notify_rkey_len;
    int32_t pid;                    /* for cross-memory attach on one node */
} mca_osc_rdma2_wire_t;

/* How accumulate-family operations are made atomic in one window. */
enum {
    MCA_OSC_RDMA2_ACC_ELEMENT = 0,  /* element-wise atomics (CAS loops), the lock for wide types */
    MCA_OSC_RDMA2_ACC_LOCK = 1,     /* every accumulate takes the target process's lock */
};

typedef struct mca_osc_rdma2_module_t {
    ompi_osc_base_module_t super;
    struct ompi_win_t *win;
    ompi_communicator_t *comm;      /* private duplicate for window collectives */
    int flavor;
    int size_comm;
    int my_rank;
    void *base;
    size_t size;
    int disp_unit;

    ucp_mem_h win_memh;             /* NULL for size 0 */
    ucp_mem_h state_memh;
    mca_osc_rdma2_state_layout_t layout;   /* of every rank's state block */
    mca_osc_rdma2_state_t *state;   /* our state block: its fixed words */
    volatile uint64_t *posted;      /* its posted[p] */

    /* dynamic windows: our attached regions (osc_rdma2_dynamic.c) */
    struct mca_osc_rdma2_dyn_local_t *dyn;

    /* notified RMA: our slots, the targets' (osc_rdma2_notify.c) */
    struct mca_osc_rdma2_notify_t *notify;

    /* exchanged descriptions, parsed lazily */
    char *blob;
    int *blob_disps;
    struct mca_osc_rdma2_peer_t **peers;   /* pointer per rank, NULL until first access */

    int acc_mode;
    bool quiet;                     /* no peer needs our worker (counted in loud_modules
                                     * otherwise, osc_rdma2_window.c) */
    /* info keys */
    bool no_locks;
    bool acc_ordering_none;
    bool same_op_no_op;

    mca_osc_rdma2_sync_t sync;      /* epochs and pending completion */
    volatile uint64_t *fence_meet;  /* rank 0's meeting line, or NULL (dissemination) */
    mca_osc_rdma2_mpit_t mpit;      /* MPI_T counts (osc_rdma2_mpit.c) */
} mca_osc_rdma2_module_t;

#define MCA_OSC_RDMA2_MODULE(win) ((mca_osc_rdma2_module_t *) (win)->w_osc_module)

/* osc_rdma2_window.c */
int mca_osc_rdma2_window_create(struct ompi_win_t *win, void **base, size_t size, int disp_unit,
                                struct ompi_communicator_t *comm, struct opal_info_t *info,
                                int flavor, int *model);
int mca_osc_rdma2_free(struct ompi_win_t *win);
/* Collective over comm: every rank's `len` bytes at `mine`, concatenated
 * in rank order into *blob (malloc'ed), rank i's at (*disps)[i]. */
int mca_osc_rdma2_allgather_blob(ompi_communicator_t *comm, const char *mine, int len,
                                 char **blob, int **disps);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_MODULE_H */
