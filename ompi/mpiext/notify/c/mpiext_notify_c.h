/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Notified RMA: one-sided operations that increment a notification
 * counter ("slot") of the origin (MPIX_Win_read_notify, GASPI's
 * read_notify) or of the target (MPIX_Put_notify, MPIX_Get_notify,
 * MPIX_Accumulate_notify, the MPI Forum draft's semantics) once the data
 * is there, and the calls that consume them.  The notify extension;
 * included from <mpi-ext.h>, which defines OMPI_HAVE_MPI_EXT_NOTIFY.
 */

#ifndef MPIEXT_NOTIFY_C_H
#define MPIEXT_NOTIFY_C_H

/* C linkage for C++ programs (mpicxx), as Open MPI's own mpi-ext.h
 * does; nested inside its extern "C" in an in-tree build. */
#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* Test this macro for the notified-RMA API (<mpi-ext.h> defines it as
 * for every extension; also here for a program that includes this header
 * alone). */
#ifndef OMPI_HAVE_MPI_EXT_NOTIFY
#define OMPI_HAVE_MPI_EXT_NOTIFY 1
#endif

/* MPIX_Win_notify_waitsome: timeout_ms that waits without limit, and the
 * *id it returns when the timeout passed with no slot set. */
#define MPIX_NOTIFY_BLOCK (-1)
#define MPIX_NOTIFY_NONE  (-1)

/* The draft's error class MPI_ERR_RMA_NOTIFICATION (a notification index
 * outside the window's slots): ompix raises MPI_ERR_ARG there, and this
 * name is that class, so that code written to the draft compiles and its
 * comparisons (MPI_Error_class) hold. */
#define MPIX_ERR_RMA_NOTIFICATION MPI_ERR_ARG

/* The draft's window attributes MPI_WIN_NOTIFICATION_{NUM_SB,NUM_UB,
 * VALUE_UB}, read with MPI_Win_get_attr (not set or deleted) on every
 * window created after MPI_Init:
 *   NUM_SB   (int *)       the window's notification counters now (what
 *                          MPIX_Win_get_num_notify returns);
 *   NUM_UB   (int *)       the largest n MPIX_Win_set_num_notify accepts;
 *   VALUE_UB (MPI_Count *) the largest value a counter reaches.
 * Their keyvals are created at the first use after MPI_Init, hence the
 * function (MPI_KEYVAL_INVALID before MPI_Init and after MPI_Finalize). */
OMPI_DECLSPEC int ompix_win_notification_keyval(int which);
#define MPIX_WIN_NOTIFICATION_NUM_SB (ompix_win_notification_keyval(0))
#define MPIX_WIN_NOTIFICATION_NUM_UB (ompix_win_notification_keyval(1))
#define MPIX_WIN_NOTIFICATION_VALUE_UB (ompix_win_notification_keyval(2))

/* Origin-notified read: slot id of the ORIGIN's notifications on win is
 * incremented once the data is in origin_addr.  An RMA operation: it
 * needs an access epoch to target_rank. */
OMPI_DECLSPEC int MPIX_Win_read_notify(void *origin_addr, int origin_count,
                                       MPI_Datatype origin_type, int target_rank,
                                       MPI_Aint target_disp, int target_count,
                                       MPI_Datatype target_type, int id, MPI_Win win);

/* Target-notified operations: slot id of the TARGET's notifications on
 * win is incremented once the operation's effect is visible there. */
OMPI_DECLSPEC int MPIX_Put_notify(const void *origin_addr, int origin_count,
                                  MPI_Datatype origin_type, int target_rank,
                                  MPI_Aint target_disp, int target_count,
                                  MPI_Datatype target_type, int id, MPI_Win win);
OMPI_DECLSPEC int MPIX_Get_notify(void *origin_addr, int origin_count,
                                  MPI_Datatype origin_type, int target_rank,
                                  MPI_Aint target_disp, int target_count,
                                  MPI_Datatype target_type, int id, MPI_Win win);
OMPI_DECLSPEC int MPIX_Accumulate_notify(const void *origin_addr, int origin_count,
                                         MPI_Datatype origin_type, int target_rank,
                                         MPI_Aint target_disp, int target_count,
                                         MPI_Datatype target_type, MPI_Op op, int id,
                                         MPI_Win win);

/* The MPI Forum draft's other operations (mpi-standard PR #1131): a
 * target-notified MPI_Get_accumulate, and request forms of the four
 * target-notified calls.  Like MPI_Rput, the request forms are allowed
 * only in passive-target epochs; the request completes when the origin's
 * buffers are done with (origin buffer reusable, get data or result in
 * place): these calls complete that locally before they return. */
OMPI_DECLSPEC int MPIX_Get_accumulate_notify(const void *origin_addr, int origin_count,
                                             MPI_Datatype origin_type, void *result_addr,
                                             int result_count, MPI_Datatype result_type,
                                             int target_rank, MPI_Aint target_disp,
                                             int target_count, MPI_Datatype target_type,
                                             MPI_Op op, int id, MPI_Win win);
OMPI_DECLSPEC int MPIX_Rput_notify(const void *origin_addr, int origin_count,
                                   MPI_Datatype origin_type, int target_rank,
                                   MPI_Aint target_disp, int target_count,
                                   MPI_Datatype target_type, int id, MPI_Win win,
                                   MPI_Request *request);
OMPI_DECLSPEC int MPIX_Rget_notify(void *origin_addr, int origin_count,
                                   MPI_Datatype origin_type, int target_rank,
                                   MPI_Aint target_disp, int target_count,
                                   MPI_Datatype target_type, int id, MPI_Win win,
                                   MPI_Request *request);
OMPI_DECLSPEC int MPIX_Raccumulate_notify(const void *origin_addr, int origin_count,
                                          MPI_Datatype origin_type, int target_rank,
                                          MPI_Aint target_disp, int target_count,
                                          MPI_Datatype target_type, MPI_Op op, int id,
                                          MPI_Win win, MPI_Request *request);
OMPI_DECLSPEC int MPIX_Rget_accumulate_notify(const void *origin_addr, int origin_count,
                                              MPI_Datatype origin_type, void *result_addr,
                                              int result_count, MPI_Datatype result_type,
                                              int target_rank, MPI_Aint target_disp,
                                              int target_count, MPI_Datatype target_type,
                                              MPI_Op op, int id, MPI_Win win,
                                              MPI_Request *request);

/* Consuming this process's notifications on win (any number of threads at
 * once; every increment is taken exactly once by a reset or a
 * notification request).  waitsome: *id = a slot in [first, first+num)
 * with a non-zero count (it does not reset it), or MPIX_NOTIFY_NONE when
 * timeout_ms (MPIX_NOTIFY_BLOCK, 0 = test once, or milliseconds) passed. */
OMPI_DECLSPEC int MPIX_Win_notify_waitsome(MPI_Win win, int first, int num,
                                           int timeout_ms, int *id);
/* Atomically takes slot id's count (sets it to 0); *old = the count. */
OMPI_DECLSPEC int MPIX_Win_notify_reset(MPI_Win win, int id, MPI_Count *old);
OMPI_DECLSPEC int MPIX_Win_get_notify_value(MPI_Win win, int id, MPI_Count *value);
/* The draft's name of MPIX_Win_notify_reset (its own function, same
 * behaviour). */
OMPI_DECLSPEC int MPIX_Win_reset_notify_value(MPI_Win win, int id, MPI_Count *old);
/* Waits until slot id's count is >= threshold, or timeout_ms passed
 * (MPIX_NOTIFY_BLOCK, 0 = test once, or milliseconds); *value = the count
 * then (< threshold: the timeout passed).  The count is not taken. */
OMPI_DECLSPEC int MPIX_Win_notify_threshold(MPI_Win win, int id, MPI_Count threshold,
                                            int timeout_ms, MPI_Count *value);
/* Collective over the window's group: every process gets n zeroed slots
 * (the same n everywhere).  Default: 65 536 (MCA parameter). */
OMPI_DECLSPEC int MPIX_Win_set_num_notify(MPI_Win win, MPI_Info info, int n);
OMPI_DECLSPEC int MPIX_Win_get_num_notify(MPI_Win win, int *n);

/* Notification request: persistent.  MPI_Start arms it; it completes once
 * slot id is non-zero, taking the count (the slot is reset); then the
 * status has MPI_TAG = id, MPI_SOURCE = MPI_ANY_SOURCE and
 * MPI_Get_count(status, MPI_COUNT, &c) / MPI_Get_elements_x(status,
 * MPI_COUNT, &c) give the count taken.  Works with every Wait/Test
 * function, MPI_Startall, MPI_Request_free, MPI_Cancel and MPIX_Continue. */
OMPI_DECLSPEC int MPIX_Win_notify_init(MPI_Win win, int id, MPI_Request *request);

#include "pmpiext_notify_c.h"

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* MPIEXT_NOTIFY_C_H */
