/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Profiling interface of notified RMA: a tool defines its own MPIX_
 * functions and forwards to these.  Included from mpiext_notify_c.h,
 * hence from <mpi-ext.h>.
 */

#ifndef PMPIEXT_NOTIFY_C_H
#define PMPIEXT_NOTIFY_C_H

/* C linkage for C++ programs (mpicxx), as Open MPI's own mpi-ext.h
 * does; nested inside its extern "C" in an in-tree build. */
#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

OMPI_DECLSPEC int PMPIX_Win_read_notify(void *origin_addr, int origin_count,
                                        MPI_Datatype origin_type, int target_rank,
                                        MPI_Aint target_disp, int target_count,
                                        MPI_Datatype target_type, int id, MPI_Win win);
OMPI_DECLSPEC int PMPIX_Put_notify(const void *origin_addr, int origin_count,
                                   MPI_Datatype origin_type, int target_rank,
                                   MPI_Aint target_disp, int target_count,
                                   MPI_Datatype target_type, int id, MPI_Win win);
OMPI_DECLSPEC int PMPIX_Get_notify(void *origin_addr, int origin_count,
                                   MPI_Datatype origin_type, int target_rank,
                                   MPI_Aint target_disp, int target_count,
                                   MPI_Datatype target_type, int id, MPI_Win win);
OMPI_DECLSPEC int PMPIX_Accumulate_notify(const void *origin_addr, int origin_count,
                                          MPI_Datatype origin_type, int target_rank,
                                          MPI_Aint target_disp, int target_count,
                                          MPI_Datatype target_type, MPI_Op op, int id,
                                          MPI_Win win);
OMPI_DECLSPEC int PMPIX_Get_accumulate_notify(const void *origin_addr, int origin_count,
                                              MPI_Datatype origin_type, void *result_addr,
                                              int result_count, MPI_Datatype result_type,
                                              int target_rank, MPI_Aint target_disp,
                                              int target_count, MPI_Datatype target_type,
                                              MPI_Op op, int id, MPI_Win win);
OMPI_DECLSPEC int PMPIX_Rput_notify(const void *origin_addr, int origin_count,
                                    MPI_Datatype origin_type, int target_rank,
                                    MPI_Aint target_disp, int target_count,
                                    MPI_Datatype target_type, int id, MPI_Win win,
                                    MPI_Request *request);
OMPI_DECLSPEC int PMPIX_Rget_notify(void *origin_addr, int origin_count,
                                    MPI_Datatype origin_type, int target_rank,
                                    MPI_Aint target_disp, int target_count,
                                    MPI_Datatype target_type, int id, MPI_Win win,
                                    MPI_Request *request);
OMPI_DECLSPEC int PMPIX_Raccumulate_notify(const void *origin_addr, int origin_count,
                                           MPI_Datatype origin_type, int target_rank,
                                           MPI_Aint target_disp, int target_count,
                                           MPI_Datatype target_type, MPI_Op op, int id,
                                           MPI_Win win, MPI_Request *request);
OMPI_DECLSPEC int PMPIX_Rget_accumulate_notify(const void *origin_addr, int origin_count,
                                               MPI_Datatype origin_type, void *result_addr,
                                               int result_count, MPI_Datatype result_type,
                                               int target_rank, MPI_Aint target_disp,
                                               int target_count, MPI_Datatype target_type,
                                               MPI_Op op, int id, MPI_Win win,
                                               MPI_Request *request);
OMPI_DECLSPEC int PMPIX_Win_reset_notify_value(MPI_Win win, int id, MPI_Count *old);
OMPI_DECLSPEC int PMPIX_Win_notify_threshold(MPI_Win win, int id, MPI_Count threshold,
                                             int timeout_ms, MPI_Count *value);
OMPI_DECLSPEC int PMPIX_Win_notify_waitsome(MPI_Win win, int first, int num,
                                            int timeout_ms, int *id);
OMPI_DECLSPEC int PMPIX_Win_notify_reset(MPI_Win win, int id, MPI_Count *old);
OMPI_DECLSPEC int PMPIX_Win_get_notify_value(MPI_Win win, int id, MPI_Count *value);
OMPI_DECLSPEC int PMPIX_Win_set_num_notify(MPI_Win win, MPI_Info info, int n);
OMPI_DECLSPEC int PMPIX_Win_get_num_notify(MPI_Win win, int *n);
OMPI_DECLSPEC int PMPIX_Win_notify_init(MPI_Win win, int id, MPI_Request *request);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMPIEXT_NOTIFY_C_H */
