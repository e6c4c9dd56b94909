/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The conversions every channel binding shares: Fortran handles to C,
 * the call, C handles back.  A single-request form is the array form with
 * n = 1, so one path converts them all.
 */

#include "mpiext_chan_mpifh_prototypes.h"
#include "ompi/mpiext/chan/c/mpiext_chan_internal.h"

/* The output handles start as MPI_REQUEST_NULL: a bind that fails, even
 * before it looks at them, leaves every output null. */
static MPI_Request *mpiext_chan_f_outputs(int n, MPI_Fint *ierr, const char *func)
{
    MPI_Request *out = mca_common_ompix_f_alloc(n, sizeof(*out), ierr, func);

    for (int i = 0; NULL != out && i < n; ++i) {
        out[i] = MPI_REQUEST_NULL;
    }
    return out;
}

void mpiext_chan_f_bind(MPI_Fint n, const MPI_Fint *reqs_in, MPI_Fint *reqs_out,
                        const MPI_Fint *slacks, const MPI_Fint *infos,
                        mpiext_chan_f_bind_fn_t *bind, MPI_Fint *ierr, const char *func)
{
    MPI_Request *in = mca_common_ompix_f_requests_f2c(n, reqs_in, ierr, func);
    MPI_Request *out = NULL == in ? NULL : mpiext_chan_f_outputs(n, ierr, func);
    MPI_Info *c_infos = NULL == out ? NULL : mca_common_ompix_f_infos_f2c(n, infos, ierr, func);

    if (NULL != c_infos) {
        int rc = bind(n, in, out, (const int *) slacks, c_infos);

        mca_common_ompix_f_requests_c2f(n, out, reqs_out);
        mca_common_ompix_f_ierr(ierr, rc);
    }
    free(in);
    free(out);
    free(c_infos);
}

/* A nonblocking bind: the channels' Fortran handles are MPI_REQUEST_NULL
 * until each bind completes and stores its own (the C outputs are
 * scratch, only written during the call). */
void mpiext_chan_f_ibind(MPI_Fint n, const MPI_Fint *reqs_in, MPI_Fint *reqs_out,
                         const MPI_Fint *slacks, bool need_slacks, const MPI_Fint *infos,
                         MPI_Fint *ierr, const char *func)
{
    MPI_Request *in = mca_common_ompix_f_requests_f2c(n, reqs_in, ierr, func);
    MPI_Request *out = NULL == in ? NULL : mpiext_chan_f_outputs(n, ierr, func);
    MPI_Info *c_infos = NULL == out ? NULL : mca_common_ompix_f_infos_f2c(n, infos, ierr, func);

    if (NULL != c_infos) {
        mca_common_ompix_f_requests_c2f(n, out, reqs_out);
        mca_common_ompix_f_ierr(ierr, ompix_chan_ibind_entry_f(n, in, out, reqs_out,
                                                               (const int *) slacks,
                                                               need_slacks, c_infos, func));
    }
    free(in);
    free(out);
    free(c_infos);
}

/* chans are in and out: a channel unbound becomes MPI_REQUEST_NULL. */
void mpiext_chan_f_unbind(MPI_Fint n, MPI_Fint *chans, const MPI_Fint *infos,
                          mpiext_chan_f_unbind_fn_t *unbind, MPI_Fint *ierr, const char *func)
{
    MPI_Request *c_chans = mca_common_ompix_f_requests_f2c(n, chans, ierr, func);
    MPI_Info *c_infos = NULL;

    if (NULL != c_chans && NULL != infos) {
        c_infos = mca_common_ompix_f_infos_f2c(n, infos, ierr, func);
    }
    if (NULL != c_chans && (NULL == infos || NULL != c_infos)) {
        int rc = unbind(n, c_chans, c_infos);

        mca_common_ompix_f_requests_c2f(n, c_chans, chans);
        mca_common_ompix_f_ierr(ierr, rc);
    }
    free(c_chans);
    free(c_infos);
}
