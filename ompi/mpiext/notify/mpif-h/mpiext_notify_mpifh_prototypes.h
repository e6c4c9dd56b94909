/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The C functions behind the Fortran bindings of notified RMA (one per
 * MPIX_ function, exported under its mpif.h, use mpi and mpi_f08 names by
 * common_ompix_fortran.h's MCA_COMMON_OMPIX_F_BINDINGS) and the call the
 * four RMA calls share (mpiext_notify_mpifh.c).  Arguments are by
 * reference, as Fortran passes them; ierr may be NULL (mpi_f08 without
 * ierror); a buffer may be Fortran's MPI_BOTTOM.
 */

#ifndef MPIEXT_NOTIFY_MPIFH_PROTOTYPES_H
#define MPIEXT_NOTIFY_MPIFH_PROTOTYPES_H

#include "ompi_config.h"
#include "mpi.h"
#include "ompi/mca/common/ompix/common_ompix_fortran.h"
#include "ompi/mpiext/notify/c/mpiext_notify_c.h"

/* The arguments of a notified RMA call, converted to C. */
typedef struct {
    void *buf;
    int count, target_rank, target_count, id;
    MPI_Datatype type, target_type;
    MPI_Op op;
    MPI_Aint target_disp;
    MPI_Win win;
    MPI_Request *request;       /* the request forms' output */
} mpiext_notify_f_rma_t;

/* The calls in one shape (op is MPI_OP_NULL but for the accumulates;
 * request is NULL for the calls without one). */
typedef int (mpiext_notify_f_rma_fn_t)(const mpiext_notify_f_rma_t *a);

void mpiext_notify_f_rma(char *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *target_rank,
                         MPI_Aint *target_disp, MPI_Fint *target_count, MPI_Fint *target_type,
                         MPI_Fint *op, MPI_Fint *id, MPI_Fint *win, MPI_Fint *request,
                         mpiext_notify_f_rma_fn_t *fn, MPI_Fint *ierr);

void ompix_win_read_notify_f(char *origin_addr, MPI_Fint *origin_count, MPI_Fint *origin_type,
                             MPI_Fint *target_rank, MPI_Aint *target_disp,
                             MPI_Fint *target_count, MPI_Fint *target_type, MPI_Fint *id,
                             MPI_Fint *win, MPI_Fint *ierr);
void ompix_put_notify_f(char *origin_addr, MPI_Fint *origin_count, MPI_Fint *origin_type,
                        MPI_Fint *target_rank, MPI_Aint *target_disp, MPI_Fint *target_count,
                        MPI_Fint *target_type, MPI_Fint *id, MPI_Fint *win, MPI_Fint *ierr);
void ompix_get_notify_f(char *origin_addr, MPI_Fint *origin_count, MPI_Fint *origin_type,
                        MPI_Fint *target_rank, MPI_Aint *target_disp, MPI_Fint *target_count,
                        MPI_Fint *target_type, MPI_Fint *id, MPI_Fint *win, MPI_Fint *ierr);
void ompix_accumulate_notify_f(char *origin_addr, MPI_Fint *origin_count, MPI_Fint *origin_type,
                               MPI_Fint *target_rank, MPI_Aint *target_disp,
                               MPI_Fint *target_count, MPI_Fint *target_type, MPI_Fint *op,
                               MPI_Fint *id, MPI_Fint *win, MPI_Fint *ierr);
void ompix_win_notify_waitsome_f(MPI_Fint *win, MPI_Fint *first, MPI_Fint *num,
                                 MPI_Fint *timeout_ms, MPI_Fint *id, MPI_Fint *ierr);
void ompix_win_notify_reset_f(MPI_Fint *win, MPI_Fint *id, MPI_Count *old, MPI_Fint *ierr);
void ompix_win_get_notify_value_f(MPI_Fint *win, MPI_Fint *id, MPI_Count *value,
                                  MPI_Fint *ierr);
void ompix_win_set_num_notify_f(MPI_Fint *win, MPI_Fint *info, MPI_Fint *n, MPI_Fint *ierr);
void ompix_win_get_num_notify_f(MPI_Fint *win, MPI_Fint *n, MPI_Fint *ierr);
void ompix_win_notify_init_f(MPI_Fint *win, MPI_Fint *id, MPI_Fint *request, MPI_Fint *ierr);
/* The MPI Forum draft's calls. */
void ompix_get_accumulate_notify_f(char *origin_addr, MPI_Fint *origin_count,
                                   MPI_Fint *origin_type, char *result_addr,
                                   MPI_Fint *result_count, MPI_Fint *result_type,
                                   MPI_Fint *target_rank, MPI_Aint *target_disp,
                                   MPI_Fint *target_count, MPI_Fint *target_type, MPI_Fint *op,
                                   MPI_Fint *id, MPI_Fint *win, MPI_Fint *ierr);
void ompix_rput_notify_f(char *origin_addr, MPI_Fint *origin_count, MPI_Fint *origin_type,
                         MPI_Fint *target_rank, MPI_Aint *target_disp, MPI_Fint *target_count,
                         MPI_Fint *target_type, MPI_Fint *id, MPI_Fint *win, MPI_Fint *request,
                         MPI_Fint *ierr);
void ompix_rget_notify_f(char *origin_addr, MPI_Fint *origin_count, MPI_Fint *origin_type,
                         MPI_Fint *target_rank, MPI_Aint *target_disp, MPI_Fint *target_count,
                         MPI_Fint *target_type, MPI_Fint *id, MPI_Fint *win, MPI_Fint *request,
                         MPI_Fint *ierr);
void ompix_raccumulate_notify_f(char *origin_addr, MPI_Fint *origin_count,
                                MPI_Fint *origin_type, MPI_Fint *target_rank,
                                MPI_Aint *target_disp, MPI_Fint *target_count,
                                MPI_Fint *target_type, MPI_Fint *op, MPI_Fint *id, MPI_Fint *win,
                                MPI_Fint *request, MPI_Fint *ierr);
void ompix_rget_accumulate_notify_f(char *origin_addr, MPI_Fint *origin_count,
                                    MPI_Fint *origin_type, char *result_addr,
                                    MPI_Fint *result_count, MPI_Fint *result_type,
                                    MPI_Fint *target_rank, MPI_Aint *target_disp,
                                    MPI_Fint *target_count, MPI_Fint *target_type, MPI_Fint *op,
                                    MPI_Fint *id, MPI_Fint *win, MPI_Fint *request,
                                    MPI_Fint *ierr);
void ompix_win_reset_notify_value_f(MPI_Fint *win, MPI_Fint *id, MPI_Count *old,
                                    MPI_Fint *ierr);
void ompix_win_notify_threshold_f(MPI_Fint *win, MPI_Fint *id, MPI_Count *threshold,
                                  MPI_Fint *timeout_ms, MPI_Count *value, MPI_Fint *ierr);

#endif /* MPIEXT_NOTIFY_MPIFH_PROTOTYPES_H */
