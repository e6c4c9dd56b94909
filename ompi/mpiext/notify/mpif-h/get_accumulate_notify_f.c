/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Fortran bindings of MPIX_Get_accumulate_notify and of its request form
 * MPIX_Rget_accumulate_notify (one conversion of their thirteen
 * arguments): mpif.h, use mpi and use mpi_f08, PMPIX_ and MPIX_ names.
 */

#include "mpiext_notify_mpifh_prototypes.h"

MCA_COMMON_OMPIX_F_BINDINGS(MPIX_GET_ACCUMULATE_NOTIFY, mpix_get_accumulate_notify,
                            MPIX_Get_accumulate_notify, ompix_get_accumulate_notify_f)
MCA_COMMON_OMPIX_F_BINDINGS(MPIX_RGET_ACCUMULATE_NOTIFY, mpix_rget_accumulate_notify,
                            MPIX_Rget_accumulate_notify, ompix_rget_accumulate_notify_f)

void ompix_rget_accumulate_notify_f(char *origin_addr, MPI_Fint *origin_count,
                                    MPI_Fint *origin_type, char *result_addr,
                                    MPI_Fint *result_count, MPI_Fint *result_type,
                                    MPI_Fint *target_rank, MPI_Aint *target_disp,
                                    MPI_Fint *target_count, MPI_Fint *target_type, MPI_Fint *op,
                                    MPI_Fint *id, MPI_Fint *win, MPI_Fint *request,
                                    MPI_Fint *ierr)
{
    MPI_Request creq = MPI_REQUEST_NULL;
    const void *obuf = mca_common_ompix_f_buffer(origin_addr);
    void *rbuf = mca_common_ompix_f_buffer(result_addr);
    MPI_Datatype otype = PMPI_Type_f2c(*origin_type), rtype = PMPI_Type_f2c(*result_type);
    MPI_Datatype ttype = PMPI_Type_f2c(*target_type);
    MPI_Op cop = PMPI_Op_f2c(*op);
    MPI_Win cwin = PMPI_Win_f2c(*win);
    int rc;

    if (NULL == request) {
        rc = PMPIX_Get_accumulate_notify(obuf, (int) *origin_count, otype, rbuf,
                                         (int) *result_count, rtype, (int) *target_rank,
                                         *target_disp, (int) *target_count, ttype, cop,
                                         (int) *id, cwin);
    } else {
        rc = PMPIX_Rget_accumulate_notify(obuf, (int) *origin_count, otype, rbuf,
                                          (int) *result_count, rtype, (int) *target_rank,
                                          *target_disp, (int) *target_count, ttype, cop,
                                          (int) *id, cwin, &creq);
        *request = PMPI_Request_c2f(creq);
    }
    mca_common_ompix_f_ierr(ierr, rc);
}

/* The same call without a request. */
void ompix_get_accumulate_notify_f(char *origin_addr, MPI_Fint *origin_count,
                                   MPI_Fint *origin_type, char *result_addr,
                                   MPI_Fint *result_count, MPI_Fint *result_type,
                                   MPI_Fint *target_rank, MPI_Aint *target_disp,
                                   MPI_Fint *target_count, MPI_Fint *target_type, MPI_Fint *op,
                                   MPI_Fint *id, MPI_Fint *win, MPI_Fint *ierr)
{
    ompix_rget_accumulate_notify_f(origin_addr, origin_count, origin_type, result_addr,
                                   result_count, result_type, target_rank, target_disp,
                                   target_count, target_type, op, id, win, NULL, ierr);
}
