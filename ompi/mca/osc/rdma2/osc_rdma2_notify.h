/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Notified RMA (version 2 of osc_rdma2_api.h): each process's block of
 * 64-bit notification counters ("slots") per window, allocated with the
 * window so that notifications land with no action of their target, and
 * the notified operations that add into them.
 */
#ifndef MCA_OSC_RDMA2_NOTIFY_H
#define MCA_OSC_RDMA2_NOTIFY_H

#include "ompi_config.h"

#include <stdint.h>
#include <ucp/api/ucp.h>

#include "osc_rdma2_module.h"

BEGIN_C_DECLS

/* A target's slot block as this rank reaches it, set up at the first
 * notification toward it (dropped by set_num_notify). */
typedef struct mca_osc_rdma2_notify_peer_t {
    volatile bool ready;
    int64_t *ptr;                   /* mapped slots (ours, or a same-node peer's), else NULL */
    uint64_t base;                  /* remote address of its slots */
    ucp_rkey_h rkey;                /* NULL for ourselves */
} mca_osc_rdma2_notify_peer_t;

/* What set_num_notify re-exchanges (window creation carries the same in
 * mca_osc_rdma2_wire_t), followed by the packed key. */
typedef struct mca_osc_rdma2_notify_wire_t {
    uint64_t base;
    uint32_t rkey_len;
    int32_t ok;                     /* 0: this rank could not map its new block */
} mca_osc_rdma2_notify_wire_t;

typedef struct mca_osc_rdma2_notify_t {
    ucp_mem_h memh;
    int64_t *slots;                 /* ours: num counters */
    /* Ours too, private: what our own read notifications completed in
     * their call add, with plain stores; NULL under MPI_THREAD_MULTIPLE
     * (osc_rdma2_api.h: notify_slots) */
    int64_t *local;
    size_t local_len;               /* bytes mapped at `local` */
    int num;                        /* the same on every rank */
    void *rkey;                     /* packed key of our block */
    size_t rkey_len;
    /* set_num_notify's exchange; NULL: the window's (module->blob) */
    char *blob;
    int *blob_disps;
    mca_osc_rdma2_notify_peer_t *peers;    /* per rank */
} mca_osc_rdma2_notify_t;

/* Window creation, before the exchange: our block of
 * osc_rdma2_notify_slots counters, zeroed, and its packed key. */
int mca_osc_rdma2_notify_init(mca_osc_rdma2_module_t *module);
/* Window free (after the last barrier): keys, mappings, our block. */
void mca_osc_rdma2_notify_fini(mca_osc_rdma2_module_t *module);

/* The table entries (osc_rdma2_api.h); they return MPI error classes. */
int mca_osc_rdma2_notify_slots(MPI_Win win, int64_t **slots, int64_t **local, int *num);
int mca_osc_rdma2_notify_read(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                              int target_rank, MPI_Aint target_disp, int target_count,
                              MPI_Datatype target_type, int id, MPI_Win win);
int mca_osc_rdma2_notify_put(const void *origin_addr, int origin_count, MPI_Datatype origin_type,
                             int target_rank, MPI_Aint target_disp, int target_count,
                             MPI_Datatype target_type, int id, MPI_Win win);
int mca_osc_rdma2_notify_get(void *origin_addr, int origin_count, MPI_Datatype origin_type,
                             int target_rank, MPI_Aint target_disp, int target_count,
                             MPI_Datatype target_type, int id, MPI_Win win);
int mca_osc_rdma2_notify_accumulate(const void *origin_addr, int origin_count,
                                    MPI_Datatype origin_type, int target_rank,
                                    MPI_Aint target_disp, int target_count,
                                    MPI_Datatype target_type, MPI_Op op, int id, MPI_Win win);
int mca_osc_rdma2_notify_set_num(MPI_Win win, int num);
int mca_osc_rdma2_notify_get_accumulate(const void *origin_addr, int origin_count,
                                        MPI_Datatype origin_type, void *result_addr,
                                        int result_count, MPI_Datatype result_type,
                                        int target_rank, MPI_Aint target_disp,
                                        int target_count, MPI_Datatype target_type, MPI_Op op,
                                        int id, MPI_Win win);

END_C_DECLS

#endif /* MCA_OSC_RDMA2_NOTIFY_H */
