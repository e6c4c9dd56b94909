/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The info hint ompix_persist_effort (low | normal | tune) of every
 * persistent collective init, and planning a family's call with the
 * algorithm it selects.  MPI lets an implementation ignore hints it does
 * not understand (MPI-4.1 §10), so a value other than the three is
 * ignored: the init plans as with normal.  The hint must be given alike
 * on every rank, as the collective's other arguments (tune communicates).
 */
#include "ompi_config.h"

#include <string.h>

#include "coll_persist.h"

#include "ompi/mca/common/ompix/common_ompix_compat_info.h"

mca_coll_persist_effort_t mca_coll_persist_effort(struct ompi_info_t *info)
{
    char value[16];
    int flag = 0;

    if (NULL == info || &ompi_mpi_info_null.info == info) {
        return MCA_COLL_PERSIST_EFFORT_NORMAL;
    }
    if (OMPI_SUCCESS != mca_common_ompix_info_get(info, MCA_COLL_PERSIST_EFFORT_KEY,
                                                  (int) sizeof(value) - 1, value, &flag)
        || !flag) {
        return MCA_COLL_PERSIST_EFFORT_NORMAL;
    }
    if (0 == strcmp(value, "low")) {
        return MCA_COLL_PERSIST_EFFORT_LOW;
    }
    if (0 == strcmp(value, "tune")) {
        return MCA_COLL_PERSIST_EFFORT_TUNE;
    }
    return MCA_COLL_PERSIST_EFFORT_NORMAL;
}

bool mca_coll_persist_agree(ompi_communicator_t *comm, bool ok)
{
    int mine = ok ? 1 : 0, all = 0;
    int rc = comm->c_coll->coll_allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm,
                                          comm->c_coll->coll_allreduce_module);
    return OMPI_SUCCESS == rc && 1 == all;
}

/* After tuning: the chosen algorithm first, then the other candidates in
 * their order, in case the chosen shared-memory plan declines now. */
static int mca_coll_persist_put_first(mca_coll_persist_alg_t *algs, int n,
                                      mca_coll_persist_alg_t best)
{
    mca_coll_persist_alg_t out[MCA_COLL_PERSIST_MAX_CANDIDATES];
    int m = 0;

    out[m++] = best;
    for (int i = 0; i < n; ++i) {
        if (algs[i] != best) {
            out[m++] = algs[i];
        }
    }
    memcpy(algs, out, sizeof(out[0]) * (size_t) m);
    return m;
}

int mca_coll_persist_plan(const mca_coll_persist_call_t *call,
                          const mca_coll_persist_family_t *family, struct ompi_info_t *info,
                          ompi_request_t **request)
{
    mca_coll_persist_alg_t algs[MCA_COLL_PERSIST_MAX_CANDIDATES], best;
    mca_coll_persist_effort_t effort = mca_coll_persist_effort(info);
    int n, rc = OMPI_ERR_NOT_AVAILABLE;

    /* tuning runs the operation at init: never a user's function, which
     * may count its calls or keep state */
    if (NULL != call->op && !ompi_op_is_intrinsic(call->op)) {
        effort = MCA_COLL_PERSIST_EFFORT_TUNE == effort ? MCA_COLL_PERSIST_EFFORT_NORMAL : effort;
    }
    n = family->candidates(call, effort, algs);

    if (MCA_COLL_PERSIST_EFFORT_TUNE == effort && n > 1) {
        /* without scratch buffers on some rank, every rank plans as normal */
        n = OMPI_SUCCESS == mca_coll_persist_tune(call, family, algs, n, &best)
            ? mca_coll_persist_put_first(algs, n, best)
            : family->candidates(call, MCA_COLL_PERSIST_EFFORT_NORMAL, algs);
    }
    for (int i = 0; i < n && OMPI_ERR_NOT_AVAILABLE == rc; ++i) {
        rc = family->plan(call, algs[i], request);
    }
    mca_coll_persist_bundle_try(call->comm, OMPI_SUCCESS == rc ? *request : NULL, effort, false);
    return rc;
}
