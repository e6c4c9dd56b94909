/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The target-notified RMA calls, written once: MPIX_Put_notify,
 * MPIX_Get_notify, MPIX_Accumulate_notify, MPIX_Get_accumulate_notify and
 * their request forms (MPIX_Rput_notify, ...) are this body with their
 * own name.  Inline with a constant `kind`: each entry point compiles to
 * what it would be written out (the checks of its operation, one table
 * call), so the hot path pays nothing for the sharing.
 */
#ifndef MPIEXT_NOTIFY_RMA_H
#define MPIEXT_NOTIFY_RMA_H

#include "mpiext_notify_entry.h"

BEGIN_C_DECLS

typedef enum {
    OMPIX_NOTIFY_PUT,
    OMPIX_NOTIFY_GET,
    OMPIX_NOTIFY_ACC,
    OMPIX_NOTIFY_GET_ACC
} ompix_notify_kind_t;

/* The arguments of one call; unused members are ignored (result_* but for
 * get_accumulate, op for put and get). */
typedef struct ompix_notify_rma_args_t {
    const void *origin_addr;
    int origin_count;
    MPI_Datatype origin_type;
    void *result_addr;
    int result_count;
    MPI_Datatype result_type;
    int target_rank;
    MPI_Aint target_disp;
    int target_count;
    MPI_Datatype target_type;
    MPI_Op op;
} ompix_notify_rma_args_t;

/* mpiext_notify_check.c: MPI_Get_accumulate's checks (MPI_NO_OP allowed:
 * the origin buffer is then not read). */
int ompix_notify_check_get_acc(const ompix_notify_rma_args_t *a, MPI_Win win,
                               const char *func_name);

static inline int ompix_notify_rma_check(ompix_notify_kind_t kind,
                                         const ompix_notify_rma_args_t *a, MPI_Win win,
                                         const char *func_name)
{
    if (OMPIX_NOTIFY_GET_ACC == kind) {
        return ompix_notify_check_get_acc(a, win, func_name);
    }
    return ompix_notify_check_rma(a->origin_addr, a->origin_count, a->origin_type,
                                  a->target_rank, a->target_disp, a->target_count,
                                  a->target_type, OMPIX_NOTIFY_ACC == kind, a->op, win,
                                  func_name);
}

static inline int ompix_notify_rma_issue(ompix_notify_kind_t kind, const ompix_notify_ops_t *ops,
                                         const ompix_notify_rma_args_t *a, int id, MPI_Win win)
{
    switch (kind) {
    case OMPIX_NOTIFY_PUT:
        return ops->put_notify(a->origin_addr, a->origin_count, a->origin_type, a->target_rank,
                               a->target_disp, a->target_count, a->target_type, id, win);
    case OMPIX_NOTIFY_GET:
        return ops->get_notify((void *) a->origin_addr, a->origin_count, a->origin_type,
                               a->target_rank, a->target_disp, a->target_count,
                               a->target_type, id, win);
    case OMPIX_NOTIFY_ACC:
        return ops->accumulate_notify(a->origin_addr, a->origin_count, a->origin_type,
                                      a->target_rank, a->target_disp, a->target_count,
                                      a->target_type, a->op, id, win);
    default:
        return ops->get_accumulate_notify(a->origin_addr, a->origin_count, a->origin_type,
                                          a->result_addr, a->result_count, a->result_type,
                                          a->target_rank, a->target_disp, a->target_count,
                                          a->target_type, a->op, id, win);
    }
}

/* The whole call: checks (those of the operation it extends, in Open
 * MPI's order), the id, MPI_PROC_NULL, the window's table; errors on the
 * window's handler with func_name. */
static inline int ompix_notify_rma(ompix_notify_kind_t kind, const ompix_notify_rma_args_t *a,
                                   int id, MPI_Win win, const char *func_name)
{
    int rc;

    if (MPI_PARAM_CHECK) {
        OMPI_ERR_INIT_FINALIZE(func_name);
        rc = ompix_notify_rma_check(kind, a, win, func_name);
        if (OPAL_UNLIKELY(MPI_SUCCESS != rc)) {
            return ompix_notify_error(rc, win, func_name);
        }
    }
    /* Always, as the ids of the consuming calls: a negative id must never
     * reach a table (the upper bound is the table's). */
    if (OPAL_UNLIKELY(id < 0)) {
        return ompix_notify_error(MPI_ERR_ARG, win, func_name);
    }
    /* As the operation itself: nothing to do, and no notification. */
    if (MPI_PROC_NULL == a->target_rank) {
        return MPI_SUCCESS;
    }
    rc = ompix_notify_rma_issue(kind, ompix_notify_ops(win), a, id, win);
    OMPI_ERRHANDLER_RETURN(rc, win, rc, func_name);
}

/* mpiext_notify_rform.c: the request forms.  The operation was issued
 * (rc, already reported); complete it locally and hand back a request that
 * is complete (or MPI_REQUEST_NULL after an error). */
int ompix_notify_rform_done(int rc, int target_rank, MPI_Win win, MPI_Request *request,
                            const char *func_name);

/* A request form: the NULL request check (MPI_ERR_REQUEST, as osc/rdma2's
 * MPI_Rput), the call, then its request. */
static inline int ompix_notify_rform(ompix_notify_kind_t kind, const ompix_notify_rma_args_t *a,
                                     int id, MPI_Win win, MPI_Request *request,
                                     const char *func_name)
{
    int rc;

    if (MPI_PARAM_CHECK && NULL == request) {
        OMPI_ERR_INIT_FINALIZE(func_name);
        return ompix_notify_error(ompi_win_invalid(win) ? MPI_ERR_WIN : MPI_ERR_REQUEST, win,
                                  func_name);
    }
    rc = ompix_notify_rma(kind, a, id, win, func_name);
    return ompix_notify_rform_done(rc, a->target_rank, win, request, func_name);
}

END_C_DECLS

#endif /* MPIEXT_NOTIFY_RMA_H */
