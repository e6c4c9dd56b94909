/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The C functions behind the Fortran bindings of channels (one per MPIX_
 * function, exported under its mpif.h, use mpi and mpi_f08 names by
 * common_ompix_fortran.h's MCA_COMMON_OMPIX_F_BINDINGS) and the two
 * conversions they share (mpiext_chan_mpifh.c).  Every argument is by
 * reference, as Fortran passes it; ierr may be NULL (mpi_f08 without
 * ierror).
 *
 * A nonblocking bind (MPIX_Ibind_*) stores the channel when it completes,
 * after the call: its Fortran handle is stored then too
 * (c/mpiext_chan_check.c:ompix_chan_ibind_entry_f).
 */

#ifndef MPIEXT_CHAN_MPIFH_PROTOTYPES_H
#define MPIEXT_CHAN_MPIFH_PROTOTYPES_H

#include "ompi_config.h"
#include "mpi.h"
#include "ompi/mca/common/ompix/common_ompix_fortran.h"
#include "ompi/mpiext/chan/c/mpiext_chan_c.h"

#include <stdbool.h>

/* Any bind call in the shape of MPIX_Bind_slack_channels (slacks NULL for
 * the forms without slack). */
typedef int (mpiext_chan_f_bind_fn_t)(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                      const int slacks[], MPI_Info infos[]);
/* Any unbind call in the shape of MPIX_Iunbind_channels. */
typedef int (mpiext_chan_f_unbind_fn_t)(int n, MPI_Request chans[], MPI_Info infos[]);

void mpiext_chan_f_bind(MPI_Fint n, const MPI_Fint *reqs_in, MPI_Fint *reqs_out,
                        const MPI_Fint *slacks, const MPI_Fint *infos,
                        mpiext_chan_f_bind_fn_t *bind, MPI_Fint *ierr, const char *func);
void mpiext_chan_f_ibind(MPI_Fint n, const MPI_Fint *reqs_in, MPI_Fint *reqs_out,
                         const MPI_Fint *slacks, bool need_slacks, const MPI_Fint *infos,
                         MPI_Fint *ierr, const char *func);
void mpiext_chan_f_unbind(MPI_Fint n, MPI_Fint *chans, const MPI_Fint *infos,
                          mpiext_chan_f_unbind_fn_t *unbind, MPI_Fint *ierr, const char *func);

void ompix_bind_channel_f(MPI_Fint *req_in, MPI_Fint *req_out, MPI_Fint *info, MPI_Fint *ierr);
void ompix_ibind_channel_f(MPI_Fint *req_in, MPI_Fint *req_out, MPI_Fint *info, MPI_Fint *ierr);
void ompix_bind_channels_f(MPI_Fint *n, MPI_Fint *reqs_in, MPI_Fint *reqs_out, MPI_Fint *infos,
                           MPI_Fint *ierr);
void ompix_ibind_channels_f(MPI_Fint *n, MPI_Fint *reqs_in, MPI_Fint *reqs_out,
                            MPI_Fint *infos, MPI_Fint *ierr);
void ompix_bind_slack_channel_f(MPI_Fint *req_in, MPI_Fint *req_out, MPI_Fint *slack,
                                MPI_Fint *info, MPI_Fint *ierr);
void ompix_ibind_slack_channel_f(MPI_Fint *req_in, MPI_Fint *req_out, MPI_Fint *slack,
                                 MPI_Fint *info, MPI_Fint *ierr);
void ompix_bind_slack_channels_f(MPI_Fint *n, MPI_Fint *reqs_in, MPI_Fint *reqs_out,
                                 MPI_Fint *slacks, MPI_Fint *infos, MPI_Fint *ierr);
void ompix_ibind_slack_channels_f(MPI_Fint *n, MPI_Fint *reqs_in, MPI_Fint *reqs_out,
                                  MPI_Fint *slacks, MPI_Fint *infos, MPI_Fint *ierr);
void ompix_unbind_channel_f(MPI_Fint *chan, MPI_Fint *ierr);
void ompix_iunbind_channel_f(MPI_Fint *chan, MPI_Fint *info, MPI_Fint *ierr);
void ompix_unbind_channels_f(MPI_Fint *n, MPI_Fint *chans, MPI_Fint *ierr);
void ompix_iunbind_channels_f(MPI_Fint *n, MPI_Fint *chans, MPI_Fint *infos, MPI_Fint *ierr);

void ompix_bundle_init_f(MPI_Fint *nrounds, MPI_Fint *round_sizes, MPI_Fint *members,
                         MPI_Fint *info, MPI_Fint *bundle, MPI_Fint *ierr);
void ompix_grequest_persistent_init_f(MPIX_Grequest_start_function *start_fn,
                                      MPIX_Grequest_poll_function *poll_fn,
                                      MPI_Grequest_free_function *free_fn, MPI_Aint *extra_state,
                                      MPI_Fint *request, MPI_Fint *ierr);

#endif /* MPIEXT_CHAN_MPIFH_PROTOTYPES_H */
