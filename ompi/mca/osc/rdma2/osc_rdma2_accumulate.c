/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap.
 *
 * One atomicity mechanism per location, whichever window reaches it:
 *  - element path (windows in MCA_OSC_RDMA2_ACC_ELEMENT mode): every element of a
 *    plain 1/2/4/8-byte predefined type at a naturally aligned address is
 *    updated with one atomic on the aligned 4- or 8-byte word holding it
 *    (a native fetch-add/and/or/xor/swap where the op allows, else a
 *    compare-and-swap loop that applies the MPI op to a private copy);
 *  - lock path: everything else (pair types, wide types, misaligned
 *    elements, and every accumulate of MCA_OSC_RDMA2_ACC_LOCK windows) runs under
 *    the target process's accumulate lock.
 * Whether an element takes the element path depends only on its type,
 * its address, the window's mode and whether the target process has
 * lock-mode windows over element-mode memory (osc_rdma2_overlap.c), so
 * concurrent accumulates on one location always use the same mechanism.
 * The op itself is always Open MPI's own (ompi_op_reduce), so results are
 * exact for every type.  Target memory is reached through its path
 * (osc_rdma2_path.h); single elements to mapped targets take a fast path.
 * Raccumulate/Rget_accumulate through the lock to memory UCX reaches run
 * as a state machine (end of this file).
 */
#include "ompi_config.h"

#include <string.h>

#include "opal/datatype/opal_convertor.h"
#include "ompi/mca/osc/base/base.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"
#include "ompi/mca/common/ompix/common_ompix_datatype.h"

#include "osc_rdma2_accumulate.h"
#include "osc_rdma2_comm.h"
#include "osc_rdma2_completion.h"
#include "osc_rdma2_pass.h"
#include "osc_rdma2_passive.h"
#include "osc_rdma2_path_mapped.h"
#include "osc_rdma2_path_ucx.h"
#include "osc_rdma2_state.h"

#define MCA_OSC_RDMA2_IOV_BATCH 32

typedef struct mca_osc_rdma2_acc_t {
    mca_osc_rdma2_module_t *module;
    mca_osc_rdma2_peer_t *peer;
    const mca_osc_rdma2_win_mem_t *mem; /* target memory holding the operation's range */
    ompi_datatype_t *prim;      /* predefined element type */
    size_t esize;               /* its size (element path: == extent) */
    ompi_op_t *op;
    const char *obuf;           /* origin elements, contiguous (NULL for NO_OP) */
    char *rbuf;                 /* old target elements, contiguous, or NULL */
} mca_osc_rdma2_acc_t;

static bool mca_osc_rdma2_is_replace(ompi_op_t *op) { return op == &ompi_mpi_op_replace.op; }
static bool mca_osc_rdma2_is_no_op(ompi_op_t *op) { return op == &ompi_mpi_op_no_op.op; }

/* MPI-3.1 11.3.4: predefined operations only, each on the types it is
 * defined for; REPLACE and NO_OP on any predefined type.  The bindings
 * of Open MPI 4.1 check this for Accumulate but not for Fetch_and_op. */
static bool mca_osc_rdma2_op_valid(ompi_op_t *op, ompi_datatype_t *prim)
{
    if (!ompi_op_is_intrinsic(op)) {
        return false;
    }
    if (mca_osc_rdma2_is_no_op(op) || op == &ompi_mpi_op_replace.op) {
        return true;
    }
    return -1 != ompi_op_ddt_map[prim->id] &&
           NULL != op->o_func.intrinsic.fns[ompi_op_ddt_map[prim->id]];
}

/* Compare_and_swap takes integer, logical, byte and multi-language types. */
static bool mca_osc_rdma2_cas_type_valid(ompi_datatype_t *dt)
{
    return ompi_datatype_is_predefined(dt) &&
           (mca_osc_rdma2_op_valid(&ompi_mpi_op_bor.op, dt) ||
            mca_osc_rdma2_op_valid(&ompi_mpi_op_land.op, dt));
}

static ompi_datatype_t *mca_osc_rdma2_prim(ompi_datatype_t *dt)
{
    return ompi_datatype_is_predefined(dt) ? dt
                                           : ompi_datatype_get_single_predefined_type_from_args(dt);
}

/* Pair types (MINLOC/MAXLOC) have padding and two fields: lock path. */
static bool mca_osc_rdma2_is_pair(ompi_datatype_t *prim)
{
    return prim == MPI_2INT || prim == MPI_FLOAT_INT || prim == MPI_DOUBLE_INT ||
           prim == MPI_LONG_INT || prim == MPI_SHORT_INT || prim == MPI_LONG_DOUBLE_INT ||
           prim == MPI_2REAL || prim == MPI_2DOUBLE_PRECISION || prim == MPI_2INTEGER;
}

static bool mca_osc_rdma2_element_type(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                       ompi_datatype_t *prim)
{
    size_t size;
    ptrdiff_t lb, extent;

    if (MCA_OSC_RDMA2_ACC_ELEMENT != module->acc_mode || mca_osc_rdma2_is_pair(prim) ||
        mca_osc_rdma2_peer_mixed(peer)) {
        return false;
    }
    ompi_datatype_type_size(prim, &size);
    ompi_datatype_get_extent(prim, &lb, &extent);
    return (size_t) extent == size && (1 == size || 2 == size || 4 == size || 8 == size);
}

/* ---------------------------------------------------------------------- */
/* Element path: one element, one atomic                                   */

static bool mca_osc_rdma2_int_type(ompi_datatype_t *prim)
{
    /* A two-bit field: complex is INT|FLOAT, so compare, do not test a bit. */
    return OMPI_DATATYPE_FLAG_DATA_INT == (prim->super.flags & OMPI_DATATYPE_FLAG_DATA_TYPE);
}

/* Computes the new word from the current one: the element at `off`
 * becomes (origin op element). */
static uint64_t mca_osc_rdma2_apply(const mca_osc_rdma2_acc_t *acc, uint64_t cur, size_t off,
                                    const void *src)
{
    uint64_t nv = cur;
    char *e = (char *) &nv + off;

    if (mca_osc_rdma2_is_replace(acc->op)) {
        memcpy(e, src, acc->esize);
    } else {
        ompi_op_reduce(acc->op, (void *) src, e, 1, acc->prim);
    }
    return nv;
}

static inline bool mca_osc_rdma2_acc_native(const struct mca_osc_rdma2_acc_t *acc, size_t wsize,
                                            mca_common_ompix_atomic_op_t *aop);

typedef int (*mca_osc_rdma2_fetch_op_fn_t)(struct mca_osc_rdma2_peer_t *,
                                           const mca_osc_rdma2_win_mem_t *,
                                           mca_common_ompix_atomic_op_t, uint64_t, uint64_t *,
                                           size_t, uint64_t);
typedef int (*mca_osc_rdma2_load_fn_t)(struct mca_osc_rdma2_peer_t *,
                                       const mca_osc_rdma2_win_mem_t *, uint64_t *, size_t,
                                       uint64_t);
typedef int (*mca_osc_rdma2_cswap_fn_t)(struct mca_osc_rdma2_peer_t *,
                                        const mca_osc_rdma2_win_mem_t *, uint64_t, uint64_t,
                                        uint64_t *, size_t, uint64_t);

/* One element at ra: one atomic on the aligned 4- or 8-byte word holding
 * it, a native fetch-op where the op has one on the whole word, else a
 * compare-and-swap loop applying the op to a private copy.  Written once
 * over the path's word operations; the fast path passes the mapped ones,
 * which then inline. */
static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_elem_update(const mca_osc_rdma2_acc_t *acc, uint64_t ra, const void *src,
                          void *old, mca_osc_rdma2_fetch_op_fn_t fetch_op,
                          mca_osc_rdma2_load_fn_t load, mca_osc_rdma2_cswap_fn_t cswap)
{
    size_t wsize = acc->esize < 4 ? 4 : acc->esize;
    uint64_t wa = ra & ~(uint64_t) (wsize - 1), cur = 0, v = 0, found;
    size_t off = ra - wa;
    mca_common_ompix_atomic_op_t aop;
    int ret;

    if (mca_osc_rdma2_is_no_op(acc->op)) {
        ret = load(acc->peer, acc->mem, &cur, wsize, wa);
    } else if (mca_osc_rdma2_acc_native(acc, wsize, &aop)) {
        memcpy(&v, src, wsize);
        ret = fetch_op(acc->peer, acc->mem, aop, v, &cur, wsize, wa);
    } else {
        ret = load(acc->peer, acc->mem, &cur, wsize, wa);
        while (OMPI_SUCCESS == ret) {
            ret = cswap(acc->peer, acc->mem, cur, mca_osc_rdma2_apply(acc, cur, off, src), &found,
                        wsize, wa);
            if (found == cur) break;
            cur = found;
        }
    }
    if (NULL != old) {
        memcpy(old, (char *) &cur + off, acc->esize);
    }
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Lock path on one contiguous run of elements (misaligned chunk)          */

/* Our update must land before the accumulate lock is seen free. */
static int mca_osc_rdma2_before_unlock(mca_osc_rdma2_peer_t *peer)
{
    return mca_osc_rdma2_complete_before_release(peer, peer->pstate.path->ucx);
}

/* With the target's accumulate lock held: the packed elements at
 * [ra, ra + len) fetched (into `old` itself when the caller wants them),
 * src op old computed here and written back, complete before the
 * release.  With a result and a 3-buffer op, old stays where it landed and
 * the sum goes to a zeroed buffer (a reduction of an element with padding,
 * MPI_LONG_DOUBLE: 10 of 16 bytes, writes only its value, and the whole
 * range goes to the target): one copy of the range less than fetching
 * into a scratch buffer. */
static int mca_osc_rdma2_rmw_locked(const mca_osc_rdma2_acc_t *acc, uint64_t ra, size_t len,
                                    const char *src, char *old)
{
    mca_osc_rdma2_peer_t *peer = acc->peer;
    int n = (int) (len / acc->esize), ret = OMPI_SUCCESS;
    bool replace = mca_osc_rdma2_is_replace(acc->op), three;
    char *tmp = NULL, *cur = old, stackbuf[256];

    if (mca_osc_rdma2_is_no_op(acc->op)) src = NULL;
    three = NULL != old && NULL != src && !replace &&
            NULL != acc->op->o_3buff_intrinsic.fns[ompi_op_ddt_map[acc->prim->id]];
    if (NULL != src && !replace && !three) {      /* old op src computed in tmp */
        tmp = len <= sizeof(stackbuf) ? stackbuf : malloc(len);
        if (NULL == tmp) return OMPI_ERR_OUT_OF_RESOURCE;
        cur = NULL == old ? tmp : old;
    }
    if (NULL != cur) {              /* nothing old is wanted by a replace or a no-op
                                     * without result */
        ret = mca_osc_rdma2_xfer(peer, acc->mem, false, cur, (int) len, MPI_BYTE, ra, (int) len,
                                 MPI_BYTE);
        if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_complete_peer(peer);
    }
    if (OMPI_SUCCESS == ret && NULL != src) {
        if (replace) {
            cur = (char *) src;
        } else if (three) {
            cur = tmp = calloc(1, len);
            if (NULL == tmp) return OMPI_ERR_OUT_OF_RESOURCE;
            ompi_3buff_op_reduce(acc->op, (void *) src, old, tmp, n, acc->prim);
        } else {
            if (cur != tmp) memcpy(tmp, cur, len);
            cur = tmp;
            ompi_op_reduce(acc->op, (void *) src, cur, n, acc->prim);
        }
        ret = mca_osc_rdma2_xfer(peer, acc->mem, true, cur, (int) len, MPI_BYTE, ra, (int) len,
                                 MPI_BYTE);
        if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_before_unlock(peer);
    }
    if (tmp != stackbuf) free(tmp);
    return ret;
}

/* A misaligned run of elements: under the accumulate lock. */
static int mca_osc_rdma2_run_locked(const mca_osc_rdma2_acc_t *acc, uint64_t ra, size_t len,
                                    const char *src, char *old)
{
    bool pass;
    int ret = mca_osc_rdma2_pass_lock_excl(acc->peer, &pass), ret2;

    if (OMPI_SUCCESS != ret) return ret;
    ret = mca_osc_rdma2_rmw_locked(acc, ra, len, src, old);
    ret2 = mca_osc_rdma2_pass_unlock_excl(acc->peer, pass);
    return OMPI_SUCCESS != ret ? ret : ret2;
}

/* Elements of a contiguous aligned run through the path's operations. */
static int mca_osc_rdma2_elems(const mca_osc_rdma2_acc_t *acc, uint64_t ra, size_t len,
                               const char *src, char *old)
{
    const mca_osc_rdma2_win_path_t *path = acc->mem->path;
    int ret = OMPI_SUCCESS;

    for (size_t i = 0; i < len && OMPI_SUCCESS == ret; i += acc->esize) {
        ret = mca_osc_rdma2_elem_update(acc, ra + i, NULL != src ? src + i : NULL,
                                        NULL != old ? old + i : NULL, path->fetch_op, path->load,
                                        path->cswap);
    }
    return ret;
}

/* The same on mapped memory, with the mapped operations inline: an
 * indirect call per element costs about what the element's CPU atomic
 * does. */
static int mca_osc_rdma2_elems_mapped(const mca_osc_rdma2_acc_t *acc, uint64_t ra, size_t len,
                                      const char *src, char *old)
{
    int ret = OMPI_SUCCESS;

    for (size_t i = 0; i < len && OMPI_SUCCESS == ret; i += acc->esize) {
        ret = mca_osc_rdma2_elem_update(acc, ra + i, NULL != src ? src + i : NULL,
                                        NULL != old ? old + i : NULL,
                                        mca_osc_rdma2_mapped_fetch_op, mca_osc_rdma2_mapped_load,
                                        mca_osc_rdma2_mapped_cswap);
    }
    return ret;
}

static int mca_osc_rdma2_run(const mca_osc_rdma2_acc_t *acc, uint64_t ra, size_t len, size_t idx)
{
    const char *src = NULL != acc->obuf ? acc->obuf + idx : NULL;
    char *old = NULL != acc->rbuf ? acc->rbuf + idx : NULL;
    bool locked;
    int ret, ret2;

    if (0 != (ra % acc->esize)) {
        return mca_osc_rdma2_run_locked(acc, ra, len, src, old);
    }
    ret = mca_osc_rdma2_pass_join(acc->peer, &locked);
    if (OMPI_SUCCESS != ret) return ret;
    ret = &mca_osc_rdma2_win_path_mapped == acc->mem->path
        ? mca_osc_rdma2_elems_mapped(acc, ra, len, src, old)
        : mca_osc_rdma2_elems(acc, ra, len, src, old);
    ret2 = mca_osc_rdma2_pass_leave(acc->peer, locked);
    return OMPI_SUCCESS != ret ? ret : ret2;
}

/* Walks the target layout; element i of the contiguous origin/result
 * buffers corresponds to byte offset idx of the target's byte stream. */
static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_element_path(const mca_osc_rdma2_acc_t *acc, uint64_t raddr, int tcount,
                           ompi_datatype_t *tdt)
{
    opal_convertor_t conv;
    struct iovec iov[MCA_OSC_RDMA2_IOV_BATCH];
    uint32_t cnt, i;
    size_t size, idx = 0;
    bool done = false;
    int ret = OMPI_SUCCESS;

    if (ompi_datatype_is_contiguous_memory_layout(tdt, tcount)) {
        /* One run: no convertor needed (the common single-element case). */
        ptrdiff_t lb, extent;
        ompi_datatype_get_true_extent(tdt, &lb, &extent);
        ompi_datatype_type_size(tdt, &size);
        return mca_osc_rdma2_run(acc, raddr + lb, size * (size_t) tcount, 0);
    }
    OBJ_CONSTRUCT(&conv, opal_convertor_t);
    opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &tdt->super, tcount,
                                             (void *) (uintptr_t) raddr, 0, &conv);
    while (!done && OMPI_SUCCESS == ret) {
        cnt = MCA_OSC_RDMA2_IOV_BATCH;
        done = opal_convertor_raw(&conv, iov, &cnt, &size);
        for (i = 0; i < cnt && OMPI_SUCCESS == ret; ++i) {
            ret = mca_osc_rdma2_run(acc, (uint64_t) (uintptr_t) iov[i].iov_base, iov[i].iov_len,
                                    idx);
            idx += iov[i].iov_len;
        }
        if (0 == cnt) break;
    }
    opal_convertor_cleanup(&conv);
    OBJ_DESTRUCT(&conv);
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Lock path for a whole operation: typed copies, so padding and pair      */
/* types are handled by the datatype engine.                               */

/* A contiguous target range of packed elements: the op in place, one
 * vectorized pass (what osc sm does). */
static bool mca_osc_rdma2_contig_rmw(const mca_osc_rdma2_acc_t *acc, char *tp, int tcount,
                                     ompi_datatype_t *tdt, size_t n)
{
    ptrdiff_t lb, extent;

    ompi_datatype_get_extent(acc->prim, &lb, &extent);
    if ((size_t) extent != acc->esize || !ompi_datatype_is_contiguous_memory_layout(tdt, tcount)) {
        return false;
    }
    ompi_datatype_get_true_extent(tdt, &lb, &extent);
    tp += lb;
    if (NULL != acc->rbuf) memcpy(acc->rbuf, tp, n * acc->esize);
    if (mca_osc_rdma2_is_replace(acc->op)) {
        memmove(tp, acc->obuf, n * acc->esize);     /* a self target's origin may be there */
    } else if (!mca_osc_rdma2_is_no_op(acc->op)) {
        ompi_op_reduce(acc->op, (void *) acc->obuf, tp, (int) n, acc->prim);
    }
    return true;
}

static int mca_osc_rdma2_typed_rmw(const mca_osc_rdma2_acc_t *acc, char *tp, int tcount,
                                   ompi_datatype_t *tdt, size_t n)
{
    size_t span;
    ptrdiff_t lb, extent;
    char *tmp;

    if (mca_osc_rdma2_contig_rmw(acc, tp, tcount, tdt, n)) {
        return OMPI_SUCCESS;
    }
    if (NULL != acc->rbuf) {
        mca_common_ompix_datatype_copy(tp, tcount, tdt, acc->rbuf, (int) n, acc->prim);
    }
    if (mca_osc_rdma2_is_no_op(acc->op)) {
        return OMPI_SUCCESS;
    }
    if (mca_osc_rdma2_is_replace(acc->op)) {
        return mca_common_ompix_datatype_copy(acc->obuf, (int) n, acc->prim, tp, tcount, tdt);
    }
    ompi_datatype_get_extent(acc->prim, &lb, &extent);
    span = n * (size_t) extent;
    tmp = malloc(span);
    if (NULL == tmp) return OMPI_ERR_OUT_OF_RESOURCE;
    mca_common_ompix_datatype_copy(tp, tcount, tdt, tmp, (int) n, acc->prim);
    ompi_op_reduce(acc->op, (void *) acc->obuf, tmp, (int) n, acc->prim);
    mca_common_ompix_datatype_copy(tmp, (int) n, acc->prim, tp, tcount, tdt);
    free(tmp);
    return OMPI_SUCCESS;
}

/* Through a path that copies (CMA, UCX): fetch the bytes (tcount, tdt)
 * covers (a negative extent repeats the type downwards), update, write
 * back, completed before the release. */
static int mca_osc_rdma2_fetched_rmw(const mca_osc_rdma2_acc_t *acc, uint64_t raddr, int tcount,
                                     ompi_datatype_t *tdt, size_t n)
{
    mca_osc_rdma2_peer_t *peer = acc->peer;
    ptrdiff_t true_lb, true_extent, lb, extent, rep, lo;
    char *span, *tp;
    size_t len;
    int ret;

    ompi_datatype_get_true_extent(tdt, &true_lb, &true_extent);
    ompi_datatype_get_extent(tdt, &lb, &extent);
    rep = (ptrdiff_t) (tcount - 1) * extent;
    lo = true_lb + (rep < 0 ? rep : 0);
    len = (size_t) (true_lb + true_extent + (rep > 0 ? rep : 0) - lo);
    span = malloc(len);
    if (NULL == span) return OMPI_ERR_OUT_OF_RESOURCE;
    tp = span - lo;
    ret = mca_osc_rdma2_xfer(peer, acc->mem, false, tp, tcount, tdt, raddr, tcount, tdt);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_complete_peer(peer);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_typed_rmw(acc, tp, tcount, tdt, n);
    if (OMPI_SUCCESS == ret && !mca_osc_rdma2_is_no_op(acc->op)) {
        ret = mca_osc_rdma2_xfer(peer, acc->mem, true, tp, tcount, tdt, raddr, tcount, tdt);
        if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_before_unlock(peer);
    }
    free(span);
    return ret;
}

/* The lock path's copy where the target's range is contiguous and its
 * elements packed (true: done), the lock held: mca_osc_rdma2_rmw_locked. */
static int mca_osc_rdma2_fetched_contig(const mca_osc_rdma2_acc_t *acc, uint64_t raddr,
                                        int tcount, ompi_datatype_t *tdt, size_t n, bool *done)
{
    ptrdiff_t lb, extent;

    ompi_datatype_get_extent(acc->prim, &lb, &extent);
    *done = (size_t) extent == acc->esize && ompi_datatype_is_contiguous_memory_layout(tdt, tcount);
    if (!*done) return OMPI_SUCCESS;
    ompi_datatype_get_true_extent(tdt, &lb, &extent);
    return mca_osc_rdma2_rmw_locked(acc, raddr + (uint64_t) lb, n * acc->esize, acc->obuf,
                                    acc->rbuf);
}

/* Read-modify-write of the span the target layout covers: in place where
 * the path reaches it with loads and stores; otherwise fetched, updated
 * here and written back. */
static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_lock_path(const mca_osc_rdma2_acc_t *acc, uint64_t raddr, int tcount,
                        ompi_datatype_t *tdt, size_t n)
{
    mca_osc_rdma2_peer_t *peer = acc->peer;
    char *tp;
    bool pass, done;
    int ret, ret2;

    if (NULL != peer->acc) {        /* the target applies it (osc_rdma2_am.c) */
        ret = peer->acc->update(peer, raddr, tcount, tdt, acc->prim, n, acc->op, acc->obuf,
                                acc->rbuf);
        if (OMPI_ERR_NOT_SUPPORTED != ret) return ret;
    }
    ret = mca_osc_rdma2_pass_lock_excl(peer, &pass);
    if (OMPI_SUCCESS != ret) return ret;
    tp = acc->mem->path->direct(acc->mem, raddr);
    if (NULL != tp) {
        ret = mca_osc_rdma2_typed_rmw(acc, tp, tcount, tdt, n);
        opal_atomic_wmb();
    } else {
        ret = mca_osc_rdma2_fetched_contig(acc, raddr, tcount, tdt, n, &done);
        if (!done) ret = mca_osc_rdma2_fetched_rmw(acc, raddr, tcount, tdt, n);
    }
    ret2 = mca_osc_rdma2_pass_unlock_excl(peer, pass);
    return OMPI_SUCCESS != ret ? ret : ret2;
}

/* ---------------------------------------------------------------------- */
/* Entry points                                                            */
/*                                                                         */
/* The blocking accumulates (mca_osc_rdma2_acc_common) and the request-    */
/* based ones (mca_osc_rdma2_acc_start) share the steps below and the two  */
/* paths above; they are inline (always: two or three callers each) so    */
/* that the blocking general path stays one function, as cheap as before */
/* the request-based one shared it (bench/run rdma2, create windows).    */

/* A contiguous array of `n` prim elements holding (count, dt) data: the
 * user's buffer itself when already laid out that way. */
static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_pack(const void *buf, int count, ompi_datatype_t *dt, ompi_datatype_t *prim, size_t n,
                   char **out, char **to_free)
{
    ptrdiff_t lb, extent, plb, pextent;
    size_t size, psize;

    *to_free = NULL;
    ompi_datatype_get_true_extent(dt, &lb, &extent);
    ompi_datatype_type_size(dt, &size);
    ompi_datatype_type_size(prim, &psize);
    ompi_datatype_get_extent(prim, &plb, &pextent);
    if ((size_t) pextent == psize && ompi_datatype_is_contiguous_memory_layout(dt, count)) {
        *out = (char *) buf + lb;
        return OMPI_SUCCESS;
    }
    *to_free = *out = malloc(n * (size_t) pextent);
    if (NULL == *out) return OMPI_ERR_OUT_OF_RESOURCE;
    return mca_common_ompix_datatype_copy(buf, count, dt, *out, (int) n, prim);
}

/* Where old target elements are collected: the user's result buffer when
 * it is a plain contiguous array of them, else a small stack buffer or a
 * heap one (unpacked into the result afterwards). */
static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_result_buffer(void *result, int rcount, ompi_datatype_t *rdt, ompi_datatype_t *prim,
                            size_t n, char *stackbuf, size_t stacklen, char **rbuf, char **to_free,
                            bool *direct)
{
    ptrdiff_t lb, extent, plb, pextent;
    size_t psize;

    *to_free = NULL;
    ompi_datatype_type_size(prim, &psize);
    ompi_datatype_get_extent(prim, &plb, &pextent);
    *direct = (size_t) pextent == psize && ompi_datatype_is_contiguous_memory_layout(rdt, rcount);
    if (*direct) {
        ompi_datatype_get_true_extent(rdt, &lb, &extent);
        *rbuf = (char *) result + lb;
        return OMPI_SUCCESS;
    }
    if (n * (size_t) pextent <= stacklen) {
        *rbuf = stackbuf;
        return OMPI_SUCCESS;
    }
    *to_free = *rbuf = malloc(n * (size_t) pextent);
    return NULL == *rbuf ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
}

/* What every accumulate of the general path checks and computes before it
 * touches memory: peer, epoch, range, element type, op, sizes; *n is the
 * number of elements (0: nothing to do).  NO_OP ignores the origin. */
static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_acc_setup(mca_osc_rdma2_acc_t *acc, const void **origin, int *ocount,
                        ompi_datatype_t **odt, void *result, int rcount, ompi_datatype_t *rdt,
                        int target, ptrdiff_t disp, int tcount, ompi_datatype_t *tdt,
                        uint64_t *raddr, size_t *n)
{
    size_t tsize, rsize;
    int ret;

    *n = 0;
    if (mca_osc_rdma2_is_no_op(acc->op)) {
        *origin = NULL; *ocount = tcount; *odt = tdt;
    }
    ret = mca_osc_rdma2_prepare(acc->module, target, *ocount, *odt, disp, tcount, tdt, &acc->peer,
                                &acc->mem, raddr);
    if (OMPI_SUCCESS != ret || 0 == tcount) return ret;
    if (NULL == *origin && !mca_osc_rdma2_is_no_op(acc->op) &&
        mca_osc_rdma2_bad_buffer(*origin, *ocount, *odt)) {
        return MPI_ERR_BUFFER;
    }
    acc->prim = mca_osc_rdma2_prim(tdt);
    if (NULL == acc->prim || (NULL != *origin && mca_osc_rdma2_prim(*odt) != acc->prim)) {
        return MPI_ERR_TYPE;
    }
    if (!mca_osc_rdma2_op_valid(acc->op, acc->prim)) {
        return MPI_ERR_OP;
    }
    ompi_datatype_type_size(tdt, &tsize);
    ompi_datatype_type_size(acc->prim, &acc->esize);
    if (NULL != result) {
        ompi_datatype_type_size(rdt, &rsize);
        if (rsize * (size_t) rcount != tsize * (size_t) tcount) return MPI_ERR_TYPE;
    }
    *n = tsize * (size_t) tcount / acc->esize;
    return OMPI_SUCCESS;
}

/* Accumulates from one origin to one target stay in order: blocking ones
 * wait for the request-based ones still queued toward it. */
static inline void mca_osc_rdma2_acc_in_order(mca_osc_rdma2_peer_t *peer)
{
    if (OPAL_UNLIKELY(NULL != peer->sync->acc_running)) {
        mca_osc_rdma2_acc_wait_peer(peer);
    }
}

/* The rest of a blocking accumulate: pack, update, unpack. */
static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_acc_run(mca_osc_rdma2_acc_t *acc, const void *origin, int ocount,
                      ompi_datatype_t *odt, void *result, int rcount, ompi_datatype_t *rdt,
                      uint64_t raddr, int tcount, ompi_datatype_t *tdt, size_t n)
{
    char *ofree = NULL, *rfree = NULL, stackbuf[128];
    bool result_direct = false;
    int ret = OMPI_SUCCESS;

    if (NULL != origin) {
        ret = mca_osc_rdma2_pack(origin, ocount, odt, acc->prim, n, (char **) &acc->obuf, &ofree);
    }
    if (OMPI_SUCCESS == ret && NULL != result) {
        ret = mca_osc_rdma2_result_buffer(result, rcount, rdt, acc->prim, n, stackbuf,
                                          sizeof(stackbuf), &acc->rbuf, &rfree, &result_direct);
    }
    if (OMPI_SUCCESS == ret) {
        ret = mca_osc_rdma2_element_type(acc->module, acc->peer, acc->prim) &&
              !mca_osc_rdma2_pass_wanted(n, acc->esize)
            ? mca_osc_rdma2_element_path(acc, raddr, tcount, tdt)
            : mca_osc_rdma2_lock_path(acc, raddr, tcount, tdt, n);
    }
    if (OMPI_SUCCESS == ret && NULL != result && !result_direct) {
        ret = mca_common_ompix_datatype_copy(acc->rbuf, (int) n, acc->prim, result, rcount, rdt);
    }
    free(ofree);
    free(rfree);
    return ret;
}

static int mca_osc_rdma2_acc_common(const void *origin, int ocount, ompi_datatype_t *odt,
                                    void *result, int rcount, ompi_datatype_t *rdt, int target,
                                    ptrdiff_t disp, int tcount, ompi_datatype_t *tdt, ompi_op_t *op,
                                    ompi_win_t *win)
{
    mca_osc_rdma2_acc_t acc = { .module = MCA_OSC_RDMA2_MODULE(win), .op = op };
    uint64_t raddr;
    size_t n;
    int ret;

    ret = mca_osc_rdma2_acc_setup(&acc, &origin, &ocount, &odt, result, rcount, rdt, target, disp,
                                  tcount, tdt, &raddr, &n);
    if (OMPI_SUCCESS != ret || 0 == n) return ret;
    mca_osc_rdma2_acc_in_order(acc.peer);
    return mca_osc_rdma2_acc_run(&acc, origin, ocount, odt, result, rcount, rdt, raddr, tcount,
                                 tdt, n);
}

/* Compare-and-swap of the bytes of one element inside its aligned word
 * (bytes compared, not values), over the path's word operations like
 * mca_osc_rdma2_elem_update. */
static inline __opal_attribute_always_inline__ int
mca_osc_rdma2_cas_word(const mca_osc_rdma2_acc_t *acc, uint64_t ra, const void *origin,
                       const void *compare, void *result, mca_osc_rdma2_load_fn_t load,
                       mca_osc_rdma2_cswap_fn_t cswap)
{
    size_t wsize = acc->esize < 4 ? 4 : acc->esize, off;
    uint64_t wa = ra & ~(uint64_t) (wsize - 1), cur = 0, nv, found;
    int ret;

    off = ra - wa;
    ret = load(acc->peer, acc->mem, &cur, wsize, wa);
    while (OMPI_SUCCESS == ret && 0 == memcmp((char *) &cur + off, compare, acc->esize)) {
        nv = cur;
        memcpy((char *) &nv + off, origin, acc->esize);
        ret = cswap(acc->peer, acc->mem, cur, nv, &found, wsize, wa);
        if (found == cur) break;
        cur = found;
    }
    memcpy(result, (char *) &cur + off, acc->esize);
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Fast paths: one element of a predefined type to a mapped target          */

/* What the fast paths need to know of a predefined datatype, worked out on
 * its first use (ompi_datatype_basicDatatypes is not all of them: Fortran
 * and pair types come and go with the build) and then one load per
 * operation instead of a dozen tests: the element size when one atomic on
 * its aligned word can update it (0: lock path), whether it is an integer
 * type (native add/and/or/xor) and whether Compare_and_swap takes it. */
#define MCA_OSC_RDMA2_ELEM_SIZE  0x0f
#define MCA_OSC_RDMA2_ELEM_INT   0x10
#define MCA_OSC_RDMA2_ELEM_CAS   0x20
#define MCA_OSC_RDMA2_ELEM_KNOWN 0x80

static uint8_t mca_osc_rdma2_elem_classes[OMPI_DATATYPE_MAX_PREDEFINED];

static uint8_t mca_osc_rdma2_elem_classify(ompi_datatype_t *dt)
{
    uint8_t c = MCA_OSC_RDMA2_ELEM_KNOWN;
    size_t size;
    ptrdiff_t lb, extent;

    ompi_datatype_type_size(dt, &size);
    ompi_datatype_get_extent(dt, &lb, &extent);
    if (!mca_osc_rdma2_is_pair(dt) && (size_t) extent == size &&
        (1 == size || 2 == size || 4 == size || 8 == size)) {
        c |= (uint8_t) size;
    }
    if (mca_osc_rdma2_int_type(dt)) c |= MCA_OSC_RDMA2_ELEM_INT;
    if (mca_osc_rdma2_cas_type_valid(dt)) c |= MCA_OSC_RDMA2_ELEM_CAS;
    return c;
}

static inline uint8_t mca_osc_rdma2_elem_class(ompi_datatype_t *dt)
{
    uint8_t c;

    if (OPAL_UNLIKELY(!ompi_datatype_is_predefined(dt) || dt->id >= OMPI_DATATYPE_MAX_PREDEFINED)) {
        return MCA_OSC_RDMA2_ELEM_KNOWN;
    }
    c = mca_osc_rdma2_elem_classes[dt->id];
    if (OPAL_UNLIKELY(0 == c)) {
        /* Racing threads store the same byte. */
        c = mca_osc_rdma2_elem_classes[dt->id] = mca_osc_rdma2_elem_classify(dt);
    }
    return c;
}

/* The mapped address of `size` bytes at `disp` aligned to `align` (the
 * element size) of an element-mode target covered by the epoch, or NULL for
 * the general path (which then also reports any error). */
static inline char *mca_osc_rdma2_fast_target(mca_osc_rdma2_module_t *module, int target,
                                              ptrdiff_t disp, size_t size, size_t align,
                                              mca_osc_rdma2_peer_t **peerp)
{
    mca_osc_rdma2_peer_t *peer = module->peers[target];
    int64_t off;

    if (0 == size || MCA_OSC_RDMA2_ACC_ELEMENT != module->acc_mode || NULL == peer ||
        NULL == peer->win.ptr || !mca_osc_rdma2_sync_covers(&module->sync, target) ||
        mca_osc_rdma2_peer_mixed(peer)) {
        return NULL;
    }
    if (!mca_osc_rdma2_disp_offset(disp, peer->disp_unit, &off) || off < 0 ||
        (uint64_t) off + size > peer->win.size ||
        0 != ((peer->win.base + off) & (align - 1))) {
        return NULL;
    }
    *peerp = peer;
    return peer->win.ptr + off;
}

/* A native CPU atomic for (op, element class) on the whole word, if any. */
static inline bool mca_osc_rdma2_fast_native(ompi_op_t *op, uint8_t c,
                                             mca_common_ompix_atomic_op_t *aop)
{
    if (mca_osc_rdma2_is_replace(op)) { *aop = MCA_COMMON_OMPIX_ATOMIC_SWAP; return true; }
    if (!(c & MCA_OSC_RDMA2_ELEM_INT)) return false;
    switch (op->op_type) {
    case OMPI_OP_SUM:  *aop = MCA_COMMON_OMPIX_ATOMIC_ADD; return true;
    case OMPI_OP_BAND: *aop = MCA_COMMON_OMPIX_ATOMIC_AND; return true;
    case OMPI_OP_BOR:  *aop = MCA_COMMON_OMPIX_ATOMIC_OR;  return true;
    case OMPI_OP_BXOR: *aop = MCA_COMMON_OMPIX_ATOMIC_XOR; return true;
    default: return false;
    }
}

/* The same for the element algorithm: a native atomic when the element is
 * the whole word. */
static inline bool mca_osc_rdma2_acc_native(const mca_osc_rdma2_acc_t *acc, size_t wsize,
                                            mca_common_ompix_atomic_op_t *aop)
{
    return acc->esize == wsize &&
           mca_osc_rdma2_fast_native(acc->op, mca_osc_rdma2_elem_class(acc->prim), aop);
}

/* One element the fast path could not do with one native atomic: the
 * element algorithm over the mapped word operations (kept out of line so
 * the native case needs no stack frame). */
static __opal_attribute_noinline__ bool
mca_osc_rdma2_fast_element_word(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                char *w, struct ompi_datatype_t *dt, size_t s, ompi_op_t *op,
                                const void *origin, void *result, int *ret)
{
    mca_osc_rdma2_acc_t acc;

    if (!mca_osc_rdma2_op_valid(op, dt) || !mca_osc_rdma2_pass_enter(peer)) return false;
    acc.module = module;
    acc.peer = peer;
    acc.mem = &peer->win;
    acc.prim = dt;
    acc.esize = s;
    acc.op = op;
    *ret = mca_osc_rdma2_elem_update(&acc, peer->win.base + (uint64_t) (w - peer->win.ptr),
                                     mca_osc_rdma2_is_no_op(op) ? NULL : origin, result,
                                     mca_osc_rdma2_mapped_fetch_op, mca_osc_rdma2_mapped_load,
                                     mca_osc_rdma2_mapped_cswap);
    mca_osc_rdma2_pass_exit(peer);
    return true;
}

/* One element in element mode to a mapped target: straight to the CPU
 * atomic (8- and 4-byte elements with a native op: one instruction),
 * else the element algorithm.  Returns false to take the general path. */
static inline __opal_attribute_always_inline__ bool
mca_osc_rdma2_fast_element(mca_osc_rdma2_module_t *module, int target, struct ompi_datatype_t *dt,
                           ptrdiff_t disp, ompi_op_t *op, const void *origin, void *result,
                           int *ret)
{
    uint8_t c = mca_osc_rdma2_elem_class(dt);
    size_t s = c & MCA_OSC_RDMA2_ELEM_SIZE;
    mca_common_ompix_atomic_op_t aop;
    mca_osc_rdma2_peer_t *peer;
    char *w;

    /* a NULL origin is an error the general path reports, except with
     * MPI_NO_OP (an atomic read), which ignores it */
    if (!ompi_op_is_intrinsic(op) ||
        OPAL_UNLIKELY(NULL == origin && !mca_osc_rdma2_is_no_op(op))) {
        return false;
    }
    w = mca_osc_rdma2_fast_target(module, target, disp, s, s, &peer);
    if (NULL == w) return false;
    if (OPAL_LIKELY(s >= 4 && mca_osc_rdma2_fast_native(op, c, &aop))) {
        /* a pass runs there: the general path waits for it */
        if (OPAL_UNLIKELY(!mca_osc_rdma2_pass_enter(peer))) return false;
        if (8 == s) {
            uint64_t v, old;
            memcpy(&v, origin, 8);
            old = mca_common_ompix_atomic_fetch_op_64((volatile uint64_t *) w, aop, v);
            if (NULL != result) memcpy(result, &old, 8);
        } else {
            uint32_t v, old;
            memcpy(&v, origin, 4);
            old = mca_common_ompix_atomic_fetch_op_32((volatile uint32_t *) w, aop, v);
            if (NULL != result) memcpy(result, &old, 4);
        }
        mca_osc_rdma2_pass_exit(peer);
        *ret = OMPI_SUCCESS;
        return true;
    }
    return mca_osc_rdma2_fast_element_word(module, peer, w, dt, s, op, origin, result, ret);
}

/* Compare_and_swap of one element to a mapped target in element mode: a
 * whole-word element is one CPU compare-and-swap (bytes equal is words
 * equal); smaller ones go through the word algorithm. */
static inline bool mca_osc_rdma2_fast_cas(mca_osc_rdma2_module_t *module, int target,
                                          struct ompi_datatype_t *dt, ptrdiff_t disp,
                                          const void *origin, const void *compare, void *result,
                                          int *ret)
{
    uint8_t c = mca_osc_rdma2_elem_class(dt);
    size_t s = c & MCA_OSC_RDMA2_ELEM_SIZE;
    mca_osc_rdma2_peer_t *peer;
    mca_osc_rdma2_acc_t acc;
    char *w;

    if (!(c & MCA_OSC_RDMA2_ELEM_CAS) ||
        OPAL_UNLIKELY(NULL == origin || NULL == compare || NULL == result)) {
        return false;
    }
    w = mca_osc_rdma2_fast_target(module, target, disp, s, s, &peer);
    if (NULL == w || OPAL_UNLIKELY(!mca_osc_rdma2_pass_enter(peer))) return false;
    *ret = OMPI_SUCCESS;
    if (8 == s) {
        uint64_t cur, nv;
        memcpy(&cur, compare, 8);
        memcpy(&nv, origin, 8);
        (void) mca_common_ompix_atomic_cswap_64((volatile uint64_t *) w, &cur, nv);
        memcpy(result, &cur, 8);
    } else if (4 == s) {
        uint32_t cur, nv;
        memcpy(&cur, compare, 4);
        memcpy(&nv, origin, 4);
        (void) mca_common_ompix_atomic_cswap_32((volatile uint32_t *) w, &cur, nv);
        memcpy(result, &cur, 4);
    } else {
        acc.module = module;
        acc.peer = peer;
        acc.mem = &peer->win;
        acc.prim = dt;
        acc.esize = s;
        acc.op = &ompi_mpi_op_replace.op;
        *ret = mca_osc_rdma2_cas_word(&acc, peer->win.base + (uint64_t) (w - peer->win.ptr),
                                      origin, compare, result, mca_osc_rdma2_mapped_load,
                                      mca_osc_rdma2_mapped_cswap);
    }
    mca_osc_rdma2_pass_exit(peer);
    return true;
}

/* The fast pass's work on the mapped target range, PASS held. */
static inline __opal_attribute_always_inline__ void
mca_osc_rdma2_fast_pass_run(char *w, struct ompi_datatype_t *dt, int count, size_t len,
                            ompi_op_t *op, const void *origin, void *result)
{
    if (NULL != result) memcpy(result, w, len);
    if (mca_osc_rdma2_is_replace(op)) {
        memmove(w, origin, len);        /* a self target's origin may lie in the window */
    } else if (!mca_osc_rdma2_is_no_op(op)) {
        ompi_op_reduce(op, (void *) origin, w, count, dt);
    }
    opal_atomic_wmb();
}

/* Several elements of one predefined type, contiguous at origin, result
 * and target, to a mapped element-mode target: the locked pass straight
 * away (the general path's packing, layout walk and checks find nothing to
 * do here, and cost what the pass itself does at 8 bytes). */
static inline bool mca_osc_rdma2_fast_pass(mca_osc_rdma2_module_t *module, int target,
                                           struct ompi_datatype_t *dt, int count, ptrdiff_t disp,
                                           ompi_op_t *op, const void *origin, void *result,
                                           int *ret)
{
    size_t s = mca_osc_rdma2_elem_class(dt) & MCA_OSC_RDMA2_ELEM_SIZE, len = (size_t) count * s;
    mca_osc_rdma2_peer_t *peer;
    char *w;
    bool pass, cpu;

    if (count < 2 || !mca_osc_rdma2_pass_wanted((size_t) count, s) || !ompi_op_is_intrinsic(op) ||
        (NULL == origin && !mca_osc_rdma2_is_no_op(op)) || !mca_osc_rdma2_op_valid(op, dt)) {
        return false;
    }
    w = mca_osc_rdma2_fast_target(module, target, disp, len, s, &peer);
    if (NULL == w) return false;
    if (OPAL_LIKELY(mca_osc_rdma2_pass_try(peer))) {      /* fast_target: element mode, not mixed */
        mca_osc_rdma2_fast_pass_run(w, dt, count, len, op, origin, result);
        mca_osc_rdma2_pass_end(peer, true);
        *ret = OMPI_SUCCESS;
        return true;
    }
    *ret = mca_osc_rdma2_pass_lock(peer, &cpu);
    if (OMPI_SUCCESS != *ret) return true;
    pass = mca_osc_rdma2_pass_acquire(mca_osc_rdma2_pass_word(peer));
    mca_osc_rdma2_fast_pass_run(w, dt, count, len, op, origin, result);
    mca_osc_rdma2_pass_end(peer, pass);
    *ret = mca_osc_rdma2_pass_unlock(peer, cpu);
    return true;
}

/* Fetch_and_op and Compare_and_swap, once their fast path declined: one
 * predefined element (MPI-4.1 12.3.5: derived datatypes are erroneous)
 * and a result buffer (peer and epoch are the general path's checks). */
static __opal_attribute_noinline__ int mca_osc_rdma2_fetch_args(struct ompi_datatype_t *dt,
                                                              void *result)
{
    if (!ompi_datatype_is_predefined(dt) || &ompi_mpi_datatype_null.dt == dt) {
        return MPI_ERR_TYPE;
    }
    return mca_osc_rdma2_bad_buffer(result, 1, dt) ? MPI_ERR_BUFFER : OMPI_SUCCESS;
}

int mca_osc_rdma2_accumulate(const void *origin_addr, int origin_count,
                             struct ompi_datatype_t *origin_dt, int target, ptrdiff_t target_disp,
                             int target_count, struct ompi_datatype_t *target_dt,
                             struct ompi_op_t *op, struct ompi_win_t *win)
{
    int ret;
    if (1 == origin_count && 1 == target_count && origin_dt == target_dt &&
        mca_osc_rdma2_fast_element(MCA_OSC_RDMA2_MODULE(win), target, target_dt, target_disp, op,
                                   origin_addr, NULL, &ret)) {
        return ret;
    }
    if (origin_count == target_count && origin_dt == target_dt &&
        mca_osc_rdma2_fast_pass(MCA_OSC_RDMA2_MODULE(win), target, target_dt, target_count,
                                target_disp, op, origin_addr, NULL, &ret)) {
        return ret;
    }
    return mca_osc_rdma2_acc_common(origin_addr, origin_count, origin_dt, NULL, 0, NULL, target,
                                    target_disp, target_count, target_dt, op, win);
}

int mca_osc_rdma2_get_accumulate(const void *origin_addr, int origin_count,
                                 struct ompi_datatype_t *origin_dt, void *result_addr,
                                 int result_count, struct ompi_datatype_t *result_dt,
                                 int target, ptrdiff_t target_disp, int target_count,
                                 struct ompi_datatype_t *target_dt, struct ompi_op_t *op,
                                 struct ompi_win_t *win)
{
    int ret;

    if (0 == result_count) {
        result_addr = NULL;
    } else if (mca_osc_rdma2_bad_buffer(result_addr, result_count, result_dt)) {
        return MPI_ERR_BUFFER;
    }
    if (1 == target_count && 1 == result_count && result_dt == target_dt &&
        (mca_osc_rdma2_is_no_op(op) || (1 == origin_count && origin_dt == target_dt)) &&
        mca_osc_rdma2_fast_element(MCA_OSC_RDMA2_MODULE(win), target, target_dt, target_disp, op,
                                   origin_addr, result_addr, &ret)) {
        return ret;
    }
    if (origin_count == target_count && origin_dt == target_dt && result_count == target_count &&
        result_dt == target_dt && NULL != result_addr &&
        mca_osc_rdma2_fast_pass(MCA_OSC_RDMA2_MODULE(win), target, target_dt, target_count,
                                target_disp, op, origin_addr, result_addr, &ret)) {
        return ret;
    }
    return mca_osc_rdma2_acc_common(origin_addr, origin_count, origin_dt, result_addr,
                                    result_count, result_dt, target, target_disp, target_count,
                                    target_dt, op, win);
}

int mca_osc_rdma2_fetch_and_op(const void *origin_addr, void *result_addr,
                               struct ompi_datatype_t *dt, int target, ptrdiff_t target_disp,
                               struct ompi_op_t *op, struct ompi_win_t *win)
{
    int ret;
    if (OPAL_LIKELY(NULL != result_addr) &&
        mca_osc_rdma2_fast_element(MCA_OSC_RDMA2_MODULE(win), target, dt, target_disp, op,
                                   origin_addr, result_addr, &ret)) {
        return ret;
    }
    ret = mca_osc_rdma2_fetch_args(dt, result_addr);
    if (OMPI_SUCCESS != ret) return ret;
    return mca_osc_rdma2_acc_common(origin_addr, 1, dt, result_addr, 1, dt, target, target_disp,
                                    1, dt, op, win);
}

/* ---------------------------------------------------------------------- */
/* Compare_and_swap                                                        */

static int mca_osc_rdma2_cas_locked(const mca_osc_rdma2_acc_t *acc, uint64_t ra,
                                    const void *origin, const void *compare, void *result)
{
    mca_osc_rdma2_peer_t *peer = acc->peer;
    bool pass;
    int ret, ret2;

    if (NULL != peer->acc) {        /* the target applies it (osc_rdma2_am.c) */
        ret = peer->acc->cas(peer, ra, acc->prim, origin, compare, result);
        if (OMPI_ERR_NOT_SUPPORTED != ret) return ret;
    }
    ret = mca_osc_rdma2_pass_lock_excl(peer, &pass);
    if (OMPI_SUCCESS != ret) return ret;
    ret = mca_osc_rdma2_xfer(peer, acc->mem, false, result, (int) acc->esize, MPI_BYTE, ra,
                             (int) acc->esize, MPI_BYTE);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_complete_peer(peer);
    if (OMPI_SUCCESS == ret && 0 == memcmp(result, compare, acc->esize)) {
        ret = mca_osc_rdma2_xfer(peer, acc->mem, true, (void *) origin, (int) acc->esize,
                                 MPI_BYTE, ra, (int) acc->esize, MPI_BYTE);
        if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_before_unlock(peer);
    }
    ret2 = mca_osc_rdma2_pass_unlock_excl(peer, pass);
    return OMPI_SUCCESS != ret ? ret : ret2;
}

int mca_osc_rdma2_compare_and_swap(const void *origin_addr, const void *compare_addr,
                                   void *result_addr, struct ompi_datatype_t *dt, int target,
                                   ptrdiff_t target_disp, struct ompi_win_t *win)
{
    mca_osc_rdma2_acc_t acc = { .module = MCA_OSC_RDMA2_MODULE(win),
                                .op = &ompi_mpi_op_replace.op };
    const mca_osc_rdma2_win_path_t *path;
    uint64_t raddr;
    bool locked;
    int ret, ret2;

    if (mca_osc_rdma2_fast_cas(acc.module, target, dt, target_disp, origin_addr, compare_addr,
                               result_addr, &ret)) {
        return ret;
    }
    /* the class byte knows (one load); the full test only on the way to the error */
    if (!(mca_osc_rdma2_elem_class(dt) & MCA_OSC_RDMA2_ELEM_CAS) &&
        !mca_osc_rdma2_cas_type_valid(dt)) {
        return MPI_ERR_TYPE;
    }
    ret = mca_osc_rdma2_fetch_args(dt, result_addr);
    if (OMPI_SUCCESS != ret) return ret;
    if (mca_osc_rdma2_bad_buffer(origin_addr, 1, dt) ||
        mca_osc_rdma2_bad_buffer(compare_addr, 1, dt)) {
        return MPI_ERR_BUFFER;
    }
    ret = mca_osc_rdma2_prepare(acc.module, target, 1, dt, target_disp, 1, dt, &acc.peer,
                                &acc.mem, &raddr);
    if (OMPI_SUCCESS != ret) return ret;
    mca_osc_rdma2_acc_in_order(acc.peer);
    acc.prim = dt;
    ompi_datatype_type_size(dt, &acc.esize);
    if (mca_osc_rdma2_element_type(acc.module, acc.peer, dt) && 0 == raddr % acc.esize) {
        path = acc.mem->path;
        ret = mca_osc_rdma2_pass_join(acc.peer, &locked);
        if (OMPI_SUCCESS != ret) return ret;
        ret = mca_osc_rdma2_cas_word(&acc, raddr, origin_addr, compare_addr, result_addr,
                                     path->load, path->cswap);
        ret2 = mca_osc_rdma2_pass_leave(acc.peer, locked);
        return OMPI_SUCCESS != ret ? ret : ret2;
    }
    return mca_osc_rdma2_cas_locked(&acc, raddr, origin_addr, compare_addr, result_addr);
}

/* ---------------------------------------------------------------------- */
/* Request-based accumulates through UCX: a state machine                  */
/*                                                                         */
/* Under the accumulate lock, with the target's memory reached through    */
/* UCX, an accumulate waits four times for the network: the lock, the    */
/* fetch, the write-back's completion at the target, the release.         */
/* Raccumulate and Rget_accumulate issue each step and return; the        */
/* request's pieces' callbacks queue it for the next step, which the     */
/* drain (osc_rdma2_request.c) or our progress thread issues.  Per target */
/* they queue in issue order and run one at a time (the next starts when */
/* the previous released the lock, which it would wait for anyway); a    */
/* blocking accumulate to that target, and every flush or unlock of it,  */
/* first wait for the queue: accumulates from one origin to one target   */
/* stay ordered and complete with their epoch.  Targets, and the         */
/* caller's work, overlap.                                               */
/*                                                                         */
/* Every step only issues nonblocking UCX operations or CPU atomics, so  */
/* the progress thread may run it (the worker is multi-threaded whenever */
/* that thread exists).  Only the application's threads complete the    */
/* request and release the datatypes (completion may run user code;     */
/* OBJ_RELEASE is atomic only when opal_using_threads()).                 */

/* Guards the queues: issuing threads, draining threads and our progress */
/* thread, which runs steps even in a single-threaded program (so a real */
/* lock, not OPAL_THREAD_LOCK).                                           */
static opal_mutex_t mca_osc_rdma2_acc_queue_lock = OPAL_MUTEX_STATIC_INIT;

/* A busy lock is asked again after 1, 2, 4, ... 64 passes of the drain  */
/* or of the progress thread (a compare-and-swap over the network per    */
/* pass would load the target and the network for nothing).              */
#define MCA_OSC_RDMA2_ACC_OP_BACKOFF_MAX 64

enum {
    MCA_OSC_RDMA2_ACC_OP_LOCKING,   /* compare-and-swap of the lock word issued */
    MCA_OSC_RDMA2_ACC_OP_FETCHING,  /* gets of the target's span issued */
    MCA_OSC_RDMA2_ACC_OP_WRITING,   /* puts and an endpoint flush issued */
    MCA_OSC_RDMA2_ACC_OP_RELEASING, /* written (or failed): give the lock back */
    MCA_OSC_RDMA2_ACC_OP_DONE       /* release issued */
};

typedef struct mca_osc_rdma2_acc_op_t {
    mca_osc_rdma2_acc_t acc;
    mca_osc_rdma2_win_mem_t mem;    /* copy of *acc.mem (a dynamic window's cache entries
                                     * move when its table is read again) */
    mca_osc_rdma2_request_t *req;
    struct mca_osc_rdma2_acc_op_t *next;   /* queued after this one, same target */
    int state;
    bool locked;
    bool asked;                     /* a try of the lock is answered in lock_old */
    int wait, backoff;              /* passes before the next try, and the next wait */
    uint64_t lock_cmp, lock_old;    /* UCX compare-and-swap: 0, then 1 -> old value */
    uint64_t release;               /* UCX add of the release: -1 */
    uint64_t raddr;
    int tcount;
    ompi_datatype_t *tdt;           /* retained (the user may free it) */
    size_t n;
    char *span, *tp;                /* the target's span, and where raddr falls in it */
    char *ofree, *rfree;
    void *result;
    int rcount;
    ompi_datatype_t *rdt;           /* retained */
    bool result_direct;
} mca_osc_rdma2_acc_op_t;

static void mca_osc_rdma2_acc_op_error(mca_osc_rdma2_request_t *req, int ret)
{
    if (OMPI_SUCCESS != ret) req->error = MPI_ERR_OTHER;
}

/* One UCX operation of a step: counted in the request, finished by
 * mca_osc_rdma2_request_piece_cb. */
static void mca_osc_rdma2_acc_op_param(mca_osc_rdma2_request_t *req, ucp_request_param_t *param)
{
    memset(param, 0, sizeof(*param));
    param->op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    param->cb.send = mca_osc_rdma2_request_piece_cb;
    param->user_data = req;
    opal_atomic_add_fetch_32(&req->outstanding, 1);
}

static int mca_osc_rdma2_acc_op_issued(mca_osc_rdma2_request_t *req, ucs_status_ptr_t sp)
{
    if (UCS_PTR_IS_PTR(sp)) {
        return OMPI_SUCCESS;        /* the callback counts it down */
    }
    opal_atomic_add_fetch_32(&req->outstanding, -1);
    return UCS_PTR_IS_ERR(sp) ? OMPI_ERROR : OMPI_SUCCESS;
}

/* An 8-byte UCX atomic on the peer's accumulate lock word, counted in
 * the request: the try (CSWAP, answer in lock_old) or the release (ADD). */
static int mca_osc_rdma2_acc_op_lock_word(mca_osc_rdma2_request_t *req, ucp_atomic_op_t opcode,
                                          uint64_t *value, uint64_t swap, uint64_t *reply)
{
    mca_osc_rdma2_peer_t *peer = req->acc_op->acc.peer;
    ucp_request_param_t param;

    mca_osc_rdma2_acc_op_param(req, &param);
    param.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
    param.datatype = ucp_dt_make_contig(sizeof(uint64_t));
    if (NULL != reply) {
        param.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        param.reply_buffer = reply;
        *reply = swap;
    }
    return mca_osc_rdma2_acc_op_issued(
        req, ucp_atomic_op_nbx(peer->ep, opcode, value, 1,
                               peer->pstate.base + offsetof(mca_osc_rdma2_pstate_t, acc_lock),
                               peer->pstate.rkey, &param));
}

/* Tries the accumulate lock: a CPU compare-and-swap when the process
 * state block is mapped (the answer is here), else a UCX one whose answer
 * arrives in lock_old. */
static int mca_osc_rdma2_acc_op_try_lock(mca_osc_rdma2_request_t *req)
{
    mca_osc_rdma2_acc_op_t *op = req->acc_op;
    mca_osc_rdma2_peer_t *peer = op->acc.peer;

    op->asked = true;
    op->lock_cmp = 0;
    op->lock_old = 1;
    if (!peer->pstate.path->ucx) {
        return peer->pstate.path->cswap(peer, &peer->pstate,
                                        offsetof(mca_osc_rdma2_pstate_t, acc_lock), 0, 1,
                                        &op->lock_old);
    }
    return mca_osc_rdma2_acc_op_lock_word(req, UCP_ATOMIC_OP_CSWAP, &op->lock_cmp, 1,
                                          &op->lock_old);
}

/* The lock was busy: wait 1, 2, 4, ... passes before asking again. */
static int mca_osc_rdma2_acc_op_busy(mca_osc_rdma2_acc_op_t *op)
{
    op->asked = false;
    op->wait = op->backoff;
    op->backoff = 0 == op->backoff ? 1 : op->backoff * 2;
    if (op->backoff > MCA_OSC_RDMA2_ACC_OP_BACKOFF_MAX) {
        op->backoff = MCA_OSC_RDMA2_ACC_OP_BACKOFF_MAX;
    }
    return MCA_OSC_RDMA2_ACC_OP_RETRY;
}

/* Gives the lock back: a CPU atomic when mapped, else a UCX add counted
 * in the request (never the waiting posted add: the progress thread must
 * not call opal_progress).  The write-back was flushed before. */
static int mca_osc_rdma2_acc_op_unlock(mca_osc_rdma2_request_t *req)
{
    mca_osc_rdma2_acc_op_t *op = req->acc_op;
    mca_osc_rdma2_peer_t *peer = op->acc.peer;

    op->locked = false;
    if (!peer->pstate.path->ucx) {
        return peer->pstate.path->post(peer, &peer->pstate,
                                       offsetof(mca_osc_rdma2_pstate_t, acc_lock), -1);
    }
    op->release = (uint64_t) -1;
    return mca_osc_rdma2_acc_op_lock_word(req, UCP_ATOMIC_OP_ADD, &op->release, 0, NULL);
}

/* Gets of the span the target layout covers. */
static int mca_osc_rdma2_acc_op_fetch(mca_osc_rdma2_request_t *req)
{
    mca_osc_rdma2_acc_op_t *op = req->acc_op;
    ptrdiff_t true_lb, true_extent, lb, extent, rep, lo;
    size_t len;

    ompi_datatype_get_true_extent(op->tdt, &true_lb, &true_extent);
    ompi_datatype_get_extent(op->tdt, &lb, &extent);
    rep = (ptrdiff_t) (op->tcount - 1) * extent;
    lo = true_lb + (rep < 0 ? rep : 0);
    len = (size_t) (true_lb + true_extent + (rep > 0 ? rep : 0) - lo);
    op->span = malloc(len);
    if (NULL == op->span) return OMPI_ERR_OUT_OF_RESOURCE;
    op->tp = op->span - lo;
    return mca_osc_rdma2_xfer_req(op->acc.peer, op->acc.mem, false, req, op->tp, op->tcount,
                                  op->tdt, op->raddr, op->tcount, op->tdt);
}

/* The update, then puts of the span and a flush of the endpoint: the
 * release must not overtake the data. */
static int mca_osc_rdma2_acc_op_write(mca_osc_rdma2_request_t *req)
{
    mca_osc_rdma2_acc_op_t *op = req->acc_op;
    ucp_request_param_t param;
    int ret;

    ret = mca_osc_rdma2_typed_rmw(&op->acc, op->tp, op->tcount, op->tdt, op->n);
    if (OMPI_SUCCESS != ret) return ret;
    ret = mca_osc_rdma2_xfer_req(op->acc.peer, op->acc.mem, true, req, op->tp, op->tcount,
                                 op->tdt, op->raddr, op->tcount, op->tdt);
    if (OMPI_SUCCESS != ret) return ret;
    mca_osc_rdma2_acc_op_param(req, &param);
    return mca_osc_rdma2_acc_op_issued(req, ucp_ep_flush_nbx(op->acc.peer->ep, &param));
}

/* Released: the results to the user and the peer free for the next one.
 * Not on an application thread (app false), the request goes to the done
 * LIFO here, before the window's count drops: once the count says every
 * machine finished (MPI_Win_free), their requests are where a drain finds
 * them.  After this the operation touches neither peer nor window;
 * mca_osc_rdma2_acc_op_retire does the rest. */
static void mca_osc_rdma2_acc_op_finish(mca_osc_rdma2_request_t *req, bool app)
{
    mca_osc_rdma2_acc_op_t *op = req->acc_op, *next;
    mca_osc_rdma2_peer_t *peer = op->acc.peer;
    mca_osc_rdma2_module_t *module = peer->module;

    if (MPI_SUCCESS == req->error && NULL != op->result && !op->result_direct) {
        mca_osc_rdma2_acc_op_error(req, mca_common_ompix_datatype_copy(op->acc.rbuf, (int) op->n,
                                                                       op->acc.prim, op->result,
                                                                       op->rcount, op->rdt));
    }
    free(op->span);
    free(op->ofree);
    free(op->rfree);
    op->span = op->ofree = op->rfree = NULL;
    opal_mutex_lock(&mca_osc_rdma2_acc_queue_lock);
    next = op->next;
    if (NULL == next) peer->sync->acc_last = NULL;
    opal_atomic_wmb();
    peer->sync->acc_running = next;
    opal_mutex_unlock(&mca_osc_rdma2_acc_queue_lock);
    if (NULL != next) {
        mca_osc_rdma2_request_requeue(next->req);  /* the next pass starts it */
    }
    if (!app) {
        mca_osc_rdma2_request_finished(req);
    }
    opal_atomic_add_fetch_32(&module->sync.acc_running, -1);
}

void mca_osc_rdma2_acc_op_retire(mca_osc_rdma2_request_t *req)
{
    mca_osc_rdma2_acc_op_t *op = req->acc_op;

    OBJ_RELEASE(op->tdt);
    if (NULL != op->rdt) OBJ_RELEASE(op->rdt);
    req->acc_op = NULL;
    free(op);
}

/* Accumulates this origin sent the target as active messages went before
 * (MPI's accumulate ordering): the lock is not tried until the target
 * acknowledged them all.  Retried, not waited for: no UCX call from a
 * callback, and the call that issued it does not block. */
static bool mca_osc_rdma2_acc_op_after_am(const mca_osc_rdma2_acc_op_t *op)
{
    const mca_osc_rdma2_peer_t *peer = op->acc.peer;

    return NULL != peer->acc && peer->am_done < peer->am_sent;
}

/* The step after the one whose pieces are done; returns RETRY while the
 * lock is busy or its next try is not due. */
static int mca_osc_rdma2_acc_op_step(mca_osc_rdma2_request_t *req)
{
    mca_osc_rdma2_acc_op_t *op = req->acc_op;
    int ret = OMPI_SUCCESS;

    if (MPI_SUCCESS != req->error && op->state < MCA_OSC_RDMA2_ACC_OP_RELEASING) {
        op->state = MCA_OSC_RDMA2_ACC_OP_RELEASING;
    }
    switch (op->state) {
    case MCA_OSC_RDMA2_ACC_OP_LOCKING:
        if (0 == op->lock_old) {
            op->locked = true;
            op->state = MCA_OSC_RDMA2_ACC_OP_FETCHING;
            ret = mca_osc_rdma2_acc_op_fetch(req);
        } else if (op->asked) {
            return mca_osc_rdma2_acc_op_busy(op);
        } else if (op->wait > 0) {
            --op->wait;
            return MCA_OSC_RDMA2_ACC_OP_RETRY;
        } else if (OPAL_UNLIKELY(mca_osc_rdma2_acc_op_after_am(op))) {
            return MCA_OSC_RDMA2_ACC_OP_RETRY;
        } else {
            ret = mca_osc_rdma2_acc_op_try_lock(req);
        }
        break;
    case MCA_OSC_RDMA2_ACC_OP_FETCHING:
        if (mca_osc_rdma2_is_no_op(op->acc.op)) {
            ret = mca_osc_rdma2_typed_rmw(&op->acc, op->tp, op->tcount, op->tdt, op->n);
            op->state = MCA_OSC_RDMA2_ACC_OP_RELEASING;
        } else {
            op->state = MCA_OSC_RDMA2_ACC_OP_WRITING;
            ret = mca_osc_rdma2_acc_op_write(req);
        }
        break;
    case MCA_OSC_RDMA2_ACC_OP_WRITING:
        op->state = MCA_OSC_RDMA2_ACC_OP_RELEASING;
        break;
    default:                        /* RELEASING */
        op->state = MCA_OSC_RDMA2_ACC_OP_DONE;
        if (op->locked) ret = mca_osc_rdma2_acc_op_unlock(req);
        break;
    }
    mca_osc_rdma2_acc_op_error(req, ret);
    return MCA_OSC_RDMA2_ACC_OP_PENDING;
}

/* Runs steps while they complete at once. */
int mca_osc_rdma2_acc_op_resume(mca_osc_rdma2_request_t *req, bool app)
{
    for (;;) {
        int r;
        if (MCA_OSC_RDMA2_ACC_OP_DONE == req->acc_op->state) {
            mca_osc_rdma2_acc_op_finish(req, app);
            return MCA_OSC_RDMA2_ACC_OP_FINISHED;
        }
        req->outstanding = 1;       /* held while the step issues */
        r = mca_osc_rdma2_acc_op_step(req);
        if (MCA_OSC_RDMA2_ACC_OP_RETRY == r) {
            req->outstanding = 0;
            return r;
        }
        if (0 != opal_atomic_add_fetch_32(&req->outstanding, -1)) {
            return MCA_OSC_RDMA2_ACC_OP_PENDING;
        }
    }
}

static int mca_osc_rdma2_acc_op_new(mca_osc_rdma2_request_t *req, const mca_osc_rdma2_acc_t *acc,
                                    const void *origin, int ocount, ompi_datatype_t *odt,
                                    void *result, int rcount, ompi_datatype_t *rdt,
                                    uint64_t raddr, int tcount, ompi_datatype_t *tdt, size_t n)
{
    mca_osc_rdma2_acc_op_t *op = calloc(1, sizeof(*op));
    int ret = OMPI_SUCCESS;

    if (NULL == op) return OMPI_ERR_OUT_OF_RESOURCE;
    op->acc = *acc;
    op->mem = *acc->mem;
    op->acc.mem = &op->mem;
    op->req = req;
    op->state = MCA_OSC_RDMA2_ACC_OP_LOCKING;
    op->lock_old = 1;               /* not held yet: the first step tries */
    op->raddr = raddr;
    op->tcount = tcount;
    op->tdt = tdt;
    op->n = n;
    op->result = result;
    op->rcount = rcount;
    if (NULL != origin) {
        ret = mca_osc_rdma2_pack(origin, ocount, odt, acc->prim, n, (char **) &op->acc.obuf,
                                 &op->ofree);
    }
    if (OMPI_SUCCESS == ret && NULL != result) {
        /* no stack buffer: the operation outlives this call */
        ret = mca_osc_rdma2_result_buffer(result, rcount, rdt, acc->prim, n, NULL, 0,
                                          &op->acc.rbuf, &op->rfree, &op->result_direct);
        op->rdt = rdt;
    }
    if (OMPI_SUCCESS != ret) {
        free(op->ofree);
        free(op->rfree);
        free(op);
        return ret;
    }
    OBJ_RETAIN(op->tdt);
    if (NULL != op->rdt) OBJ_RETAIN(op->rdt);
    req->acc_op = op;
    return OMPI_SUCCESS;
}

/* Queues the operation behind the ones running toward its target; true
 * when it is the first (it starts now).  Its target's pending flags stay
 * set until a completion waited for it, so the inline flush and unlock
 * (mca_osc_rdma2_complete_peer_inline) never skip it. */
static bool mca_osc_rdma2_acc_op_enqueue(mca_osc_rdma2_acc_op_t *op)
{
    mca_osc_rdma2_peer_t *peer = op->acc.peer;
    bool first;

    mca_osc_rdma2_completion_issued(peer);
    opal_atomic_add_fetch_32(&peer->module->sync.acc_running, 1);
    opal_mutex_lock(&mca_osc_rdma2_acc_queue_lock);
    first = NULL == peer->sync->acc_running;
    if (first) {
        peer->sync->acc_running = op;
    } else {
        ((mca_osc_rdma2_acc_op_t *) peer->sync->acc_last)->next = op;
    }
    peer->sync->acc_last = op;
    opal_mutex_unlock(&mca_osc_rdma2_acc_queue_lock);
    return first;
}

int mca_osc_rdma2_acc_start(mca_osc_rdma2_request_t *req, const void *origin, int ocount,
                            ompi_datatype_t *odt, void *result, int rcount, ompi_datatype_t *rdt,
                            int target, ptrdiff_t disp, int tcount, ompi_datatype_t *tdt,
                            ompi_op_t *op, ompi_win_t *win, bool *owned)
{
    mca_osc_rdma2_acc_t acc = { .module = MCA_OSC_RDMA2_MODULE(win), .op = op };
    mca_osc_rdma2_peer_t *peer;
    uint64_t raddr;
    size_t n;
    int ret;

    *owned = false;
    /* The mapped single-element case stays on its fast path (never a
     * target of state machines: those reach their target through UCX). */
    if (1 == ocount && 1 == tcount && odt == tdt &&
        (NULL == result || (1 == rcount && rdt == tdt)) &&
        mca_osc_rdma2_fast_element(acc.module, target, tdt, disp, op, origin, result, &ret)) {
        return ret;
    }
    ret = mca_osc_rdma2_acc_setup(&acc, &origin, &ocount, &odt, result, rcount, rdt, target, disp,
                                  tcount, tdt, &raddr, &n);
    if (OMPI_SUCCESS != ret || 0 == n) return ret;
    peer = acc.peer;
    /* Toward a target that applies accumulates from active messages, one
     * without a result that the messages take is one message sent now
     * (acknowledged to the next completion call); one with a result, or
     * one they refuse (a scattered or large target layout), is a state
     * machine, which would otherwise wait in this call. */
    if (&mca_osc_rdma2_win_path_ucx != acc.mem->path || NULL == peer->ep ||
        (NULL != peer->acc && NULL == result &&
         peer->acc->accepts(tcount, tdt, acc.prim, n, op)) ||
        mca_osc_rdma2_element_type(acc.module, peer, acc.prim)) {
        mca_osc_rdma2_acc_in_order(peer);
        return mca_osc_rdma2_acc_run(&acc, origin, ocount, odt, result, rcount, rdt, raddr,
                                     tcount, tdt, n);
    }
    ret = mca_osc_rdma2_acc_op_new(req, &acc, origin, ocount, odt, result, rcount, rdt, raddr,
                                   tcount, tdt, n);
    if (OMPI_SUCCESS != ret) return ret;
    *owned = true;
    if (!mca_osc_rdma2_acc_op_enqueue(req->acc_op)) {
        return OMPI_SUCCESS;        /* the one before starts it when it finished */
    }
    req->outstanding = 0;
    switch (mca_osc_rdma2_acc_op_resume(req, true)) {
    case MCA_OSC_RDMA2_ACC_OP_FINISHED:
        mca_osc_rdma2_acc_op_retire(req);
        mca_osc_rdma2_request_complete(req);
        break;
    case MCA_OSC_RDMA2_ACC_OP_RETRY: mca_osc_rdma2_request_requeue(req); break;
    default: break;
    }
    return OMPI_SUCCESS;
}

/* Progress until the request-based accumulates toward peer finished. */
void mca_osc_rdma2_acc_wait_peer(mca_osc_rdma2_peer_t *peer)
{
    while (NULL != peer->sync->acc_running) {
        opal_progress();
        mca_osc_rdma2_progress();
    }
    opal_atomic_rmb();
}

void mca_osc_rdma2_acc_wait_all(mca_osc_rdma2_module_t *module)
{
    while (0 != module->sync.acc_running) {
        opal_progress();
        mca_osc_rdma2_progress();
    }
    opal_atomic_rmb();
}
