/*
 * Copyright (c) 2026 The ompix developers.
 *
 * How this rank reaches a target's memory: a table of operations chosen
 * once, when the peer is set up (for dynamic windows, per region when the
 * region is looked up), that every operation calls through.  Window memory
 * and state words have separate paths:
 *
 *  - window memory: mapped (loads, stores and CPU atomics on what
 *    ucp_rkey_ptr mapped, or on our own memory), CMA (process_vm_readv/
 *    writev to a same-node peer whose memory does not map; its atomics go
 *    through UCX) or UCX (ucp_put/get_nbx, UCX atomics);
 *  - state words (a window's state block, the process state block): mapped
 *    or UCX.
 *
 * Hot paths may still test `ptr` themselves and use the inline mapped
 * operations of osc_rdma2_path_mapped.h (the fast paths of Put/Get,
 * single-element accumulates and Compare_and_swap).
 */
#ifndef MCA_OSC_RDMA2_PATH_H
#define MCA_OSC_RDMA2_PATH_H

#include "ompi_config.h"

#include <stddef.h>
#include <stdint.h>
#include <ucp/api/ucp.h>

#include "ompi/constants.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

BEGIN_C_DECLS

struct mca_osc_rdma2_peer_t;
struct mca_osc_rdma2_request_t;
typedef struct mca_osc_rdma2_win_path_t mca_osc_rdma2_win_path_t;
typedef struct mca_osc_rdma2_state_path_t mca_osc_rdma2_state_path_t;

/* Window memory of one target as operations reach it: the whole window,
 * or one attached region of a dynamic window. */
typedef struct mca_osc_rdma2_win_mem_t {
    const mca_osc_rdma2_win_path_t *path;
    uint64_t base;                  /* remote address of its first byte */
    uint64_t size;
    ucp_rkey_h rkey;                /* NULL for ourselves and for no memory */
    char *ptr;                      /* local address of `base` when mapped */
} mca_osc_rdma2_win_mem_t;

/* A block of state words of one target: its state block of a window, or
 * its process state block. */
typedef struct mca_osc_rdma2_state_mem_t {
    const mca_osc_rdma2_state_path_t *path;
    uint64_t base;                  /* remote address */
    ucp_rkey_h rkey;
    char *ptr;                      /* local address when mapped */
} mca_osc_rdma2_state_mem_t;

/* Operations on window memory.  raddr is a remote address inside `mem`. */
struct mca_osc_rdma2_win_path_t {
    const char *name;               /* "mapped", "through CMA", "through UCX" */
    /* One contiguous piece.  Completes on return, or at the next flush of
     * the peer; with `req`, a piece that completes later completes req. */
    int (*put)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
               struct mca_osc_rdma2_request_t *req, const void *local, uint64_t raddr,
               size_t len);
    int (*get)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
               struct mca_osc_rdma2_request_t *req, void *local, uint64_t raddr, size_t len);
    /* Atomics on the aligned wsize-byte word (4 or 8) at raddr, complete
     * at the target on return; *old is the word before. */
    int (*fetch_op)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                    mca_common_ompix_atomic_op_t op, uint64_t value, uint64_t *old,
                    size_t wsize, uint64_t raddr);
    int (*load)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                uint64_t *value, size_t wsize, uint64_t raddr);
    /* Stores `swap` if the word holds `compare`; *old is what it held. */
    int (*cswap)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_win_mem_t *mem,
                 uint64_t compare, uint64_t swap, uint64_t *old, size_t wsize, uint64_t raddr);
    /* Where loads and stores reach raddr, or NULL when this path copies. */
    char *(*direct)(const mca_osc_rdma2_win_mem_t *mem, uint64_t raddr);
};

/* Operations on 8-byte state words at offset `off` of a state block. */
struct mca_osc_rdma2_state_path_t {
    const char *name;               /* "mapped", "through UCX" */
    /* Its atomics are UCX operations: a worker fence orders the UCX
     * operations issued before them (see mca_osc_rdma2_complete_before_release). */
    bool ucx;
    /* Fetch-add complete at the target on return; old may be NULL. */
    int (*fadd)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_state_mem_t *mem,
                size_t off, uint64_t value, uint64_t *old);
    /* An add with release order whose result nobody needs: it may still
     * be on its way when this returns (lock releases, notifications). */
    int (*post)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_state_mem_t *mem,
                size_t off, uint64_t value);
    int (*cswap)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_state_mem_t *mem,
                 size_t off, uint64_t compare, uint64_t swap, uint64_t *old);
    /* Atomic load (acquire). */
    int (*load)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_state_mem_t *mem,
                size_t off, uint64_t *value);
    /* Plain copy of len bytes, complete on return. */
    int (*read)(struct mca_osc_rdma2_peer_t *peer, const mca_osc_rdma2_state_mem_t *mem,
                size_t off, void *buf, size_t len);
};

/* How accumulate-family operations that are not element atomics reach one
 * target: a peer's table is NULL for the accumulate lock (taken by this
 * rank, osc_rdma2_accumulate.c), or active messages its target applies
 * under its own lock (osc_rdma2_am.c). */
struct ompi_datatype_t;
struct ompi_op_t;
typedef struct mca_osc_rdma2_acc_path_t {
    const char *name;               /* "by active messages" */
    /* op on the tcount x tdt layout at raddr, whose n elements of the
     * predefined type prim are contiguous at origin (NULL for NO_OP); the
     * old ones into result (contiguous) if not NULL.  Returns
     * OMPI_ERR_NOT_SUPPORTED (after completing what it issued to the peer,
     * so that order holds) when the lock path must serve it. */
    int (*update)(struct mca_osc_rdma2_peer_t *peer, uint64_t raddr, int tcount,
                  struct ompi_datatype_t *tdt, struct ompi_datatype_t *prim, size_t n,
                  struct ompi_op_t *op, const void *origin, void *result);
    /* Whether update serves (tcount, tdt) holding n prim elements with op
     * itself; a request-based accumulate it would refuse takes the state
     * machine instead of the blocking lock path. */
    bool (*accepts)(int tcount, struct ompi_datatype_t *tdt, struct ompi_datatype_t *prim,
                    size_t n, struct ompi_op_t *op);
    /* Compare_and_swap of one dt element at raddr, complete on return. */
    int (*cas)(struct mca_osc_rdma2_peer_t *peer, uint64_t raddr, struct ompi_datatype_t *dt,
               const void *origin, const void *compare, void *result);
    /* Waits until what update issued to the peer took effect there. */
    int (*complete)(struct mca_osc_rdma2_peer_t *peer);
} mca_osc_rdma2_acc_path_t;

/* osc_rdma2_path_mapped.c, osc_rdma2_path_cma.c, osc_rdma2_path_ucx.c */
extern const mca_osc_rdma2_win_path_t mca_osc_rdma2_win_path_mapped;
extern const mca_osc_rdma2_win_path_t mca_osc_rdma2_win_path_cma;
extern const mca_osc_rdma2_win_path_t mca_osc_rdma2_win_path_ucx;
extern const mca_osc_rdma2_state_path_t mca_osc_rdma2_state_path_mapped;
extern const mca_osc_rdma2_state_path_t mca_osc_rdma2_state_path_ucx;

END_C_DECLS

#endif /* MCA_OSC_RDMA2_PATH_H */
