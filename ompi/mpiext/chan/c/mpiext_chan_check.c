/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Argument checks and error reporting shared by the MPIX_ functions.
 */

#include "ompi_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/common/ompix/common_ompix_compat_info.h"
#include "ompi/runtime/mpiruntime.h"
#include "ompi/runtime/params.h"

#include "mpiext_chan_internal.h"

/* Errors go through the communicator's error handler (MPI_COMM_WORLD's when
 * there is no communicator yet), with the function and the reason in the
 * message that MPI_ERRORS_ARE_FATAL prints. */
int ompix_chan_error(ompi_communicator_t *comm, int rc, const char *func, const char *why)
{
    char msg[MPI_MAX_ERROR_STRING];

    snprintf(msg, sizeof(msg), "%s: %s", func, why);
    if (NULL == comm) {
        comm = &ompi_mpi_comm_world.comm;
    }
    return OMPI_ERRHANDLER_INVOKE(comm, rc, msg);
}

int ompix_chan_state_check(const char *func)
{
    if (ompi_mpi_state < OMPI_MPI_STATE_INIT_COMPLETED) {
        return ompix_chan_error(NULL, MPI_ERR_OTHER, func, "called before MPI_Init");
    }
    if (ompi_mpi_state >= OMPI_MPI_STATE_FINALIZE_STARTED) {
        return ompix_chan_error(NULL, MPI_ERR_OTHER, func, "called after MPI_Finalize");
    }
    return MPI_SUCCESS;
}

/* address_base_increment: an integer (elements of the request's type). */
int ompix_chan_read_increment(ompi_info_t *info, long *increment)
{
    char value[64], *end;
    int flag = 0;

    *increment = 0;
    if (NULL == info || &ompi_mpi_info_null.info == info) {
        return MPI_SUCCESS;
    }
    mca_common_ompix_info_get(info, MPIX_CHAN_INFO_ADDRESS_BASE_INCREMENT, sizeof(value) - 1, value,
                              &flag);
    if (!flag) {
        return MPI_SUCCESS;
    }
    errno = 0;
    *increment = strtol(value, &end, 10);
    if (0 != errno || end == value || '\0' != *end) {
        return MPI_ERR_INFO_VALUE;
    }
    return MPI_SUCCESS;
}

static bool ompix_chan_bad_info(MPI_Info info)
{
    return NULL == info || (MPI_INFO_NULL != info && ompi_info_is_freed(info));
}

/* What every bind form checks before any communication: each request a
 * persistent request listed once, slack >= 1, valid info objects. */
int ompix_chan_check_bind_args(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                               const int slacks[], MPI_Info infos[], const char *func)
{
    if (n < 0) {
        return ompix_chan_error(NULL, MPI_ERR_COUNT, func, "negative count");
    }
    if (n > 0 && (NULL == reqs_in || NULL == reqs_out)) {
        return ompix_chan_error(NULL, MPI_ERR_REQUEST, func, "request array is NULL");
    }
    for (int i = 0; i < n; ++i) {
        ompi_communicator_t *comm = NULL;

        if (NULL == reqs_in[i] || MPI_REQUEST_NULL == reqs_in[i]) {
            return ompix_chan_error(NULL, MPI_ERR_REQUEST, func, "req_in is MPI_REQUEST_NULL");
        }
        if (OMPI_REQUEST_PML == reqs_in[i]->req_type) {
            comm = reqs_in[i]->req_mpi_object.comm;
        }
        if (NULL != slacks && slacks[i] < 1) {
            return ompix_chan_error(comm, MPI_ERR_ARG, func, "slack must be at least 1");
        }
        if (NULL != infos && ompix_chan_bad_info(infos[i])) {
            return ompix_chan_error(comm, MPI_ERR_INFO, func, "invalid info object");
        }
        for (int j = 0; j < i; ++j) {
            if (reqs_in[j] == reqs_in[i]) {
                return ompix_chan_error(comm, MPI_ERR_REQUEST, func,
                                        "a request is listed twice");
            }
        }
    }
    return MPI_SUCCESS;
}

/* A failed bind leaves every output handle MPI_REQUEST_NULL. */
void ompix_chan_outputs_null(int n, MPI_Request reqs_out[])
{
    for (int i = 0; NULL != reqs_out && i < n; ++i) {
        reqs_out[i] = MPI_REQUEST_NULL;
    }
}

/* What every bind entry point does: the state rules, the argument checks
 * (with MPI_PARAM_CHECK), then the bind.  need_slacks: the
 * MPIX_(I)bind_slack_channels forms, whose slacks array is required (the
 * forms without slack pass NULL: slack 1).  reqs_out_f: see
 * ompix_chan_ibind_entry_f. */
static int ompix_chan_bind_entry_out(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                                     MPI_Fint reqs_out_f[], const int slacks[],
                                     bool need_slacks, MPI_Info infos[], bool nonblocking,
                                     const char *func)
{
    int rc = ompix_chan_state_check(func);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (MPI_PARAM_CHECK) {
        if (need_slacks && n > 0 && NULL == slacks) {
            rc = ompix_chan_error(NULL, MPI_ERR_ARG, func, "slacks is NULL");
        } else {
            rc = ompix_chan_check_bind_args(n, reqs_in, reqs_out, slacks, infos, func);
        }
        if (MPI_SUCCESS != rc) {
            ompix_chan_outputs_null(n, reqs_out);
            return rc;
        }
    }
    return ompix_chan_bind(n, reqs_in, reqs_out, slacks, infos, nonblocking, reqs_out_f, func);
}

int ompix_chan_bind_entry(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                          const int slacks[], bool need_slacks, MPI_Info infos[],
                          bool nonblocking, const char *func)
{
    return ompix_chan_bind_entry_out(n, reqs_in, reqs_out, NULL, slacks, need_slacks, infos,
                                     nonblocking, func);
}

int ompix_chan_ibind_entry_f(int n, MPI_Request reqs_in[], MPI_Request reqs_out[],
                             MPI_Fint reqs_out_f[], const int slacks[], bool need_slacks,
                             MPI_Info infos[], const char *func)
{
    return ompix_chan_bind_entry_out(n, reqs_in, reqs_out, reqs_out_f, slacks, need_slacks,
                                     infos, true, func);
}
