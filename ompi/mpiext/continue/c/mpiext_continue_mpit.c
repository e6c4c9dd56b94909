/*
 * Copyright (c) 2026 The ompix developers.
 *
 * MPI_T performance variables continue_registered and continue_run
 * (process-wide, MPI_T_BIND_NO_OBJECT): continuations registered by
 * MPIX_Continue and MPIX_Continueall (a persistent one once, not per
 * round), and callback runs (a persistent continuation's every round;
 * continuations run inline by MPIX_CONT_IMMEDIATE and those whose
 * requests were complete at registration included).
 *
 * A continuation is registered and run through no function pointer a
 * handle could swap (registration and the run of a plain continuation are
 * inline in the entry points and in Test/Wait).  The run is counted with
 * one add to ompix_cont_global, under the lock that already covers the
 * continuation request's deactivation (exact with threads); the same add
 * retires the round from the progress callback's hint
 * (ompix_cont_any_ready), so the count costs no instruction.  Registrations
 * cost nothing on the lean path: each of its registrations is one
 * activation of a continuation request, and every activation ends in one
 * run or is still counted in a live request's num_active (a continuation
 * request cannot be freed before), so lean registrations = runs + pending
 * activations - the general path's activations; the general path (off
 * the lean path) keeps reg_adjust = its registrations - its activations.
 * Read under the lock, so the sum is one consistent state.  Both are
 * registered at the first MPIX_Continue_init (MPI_T lets the number of
 * variables grow; both are 0 before it).
 */

#include "ompi_config.h"

#include "ompi/mca/common/ompix/common_ompix_mpit.h"

#include "mpiext_continue_internal.h"

static uint64_t ompix_cont_mpit_runs(void)
{
    return *(volatile uint64_t *) &ompix_cont_global.num_run;
}

static int ompix_cont_mpit_read_run(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    (void) pvar;
    (void) obj;
    return mca_common_ompix_pvar_set(value, (unsigned long long) ompix_cont_mpit_runs());
}

static int ompix_cont_mpit_read_registered(const struct mca_base_pvar_t *pvar, void *value,
                                           void *obj)
{
    int64_t n = (int64_t) ompix_cont_mpit_runs() + ompix_cont_global.reg_adjust;
    opal_list_item_t *item;

    (void) pvar;
    (void) obj;
    /* After MPI_Finalize (MPI_T outlives it) the lock and the list are
     * gone, and so is every pending continuation. */
    if (!ompix_cont_global.initialized) {
        return mca_common_ompix_pvar_set(value, (unsigned long long) n);
    }
    OPAL_THREAD_LOCK(&ompix_cont_global.lock);
    n = (int64_t) ompix_cont_global.num_run + ompix_cont_global.reg_adjust;
    OPAL_LIST_FOREACH(item, &ompix_cont_global.creqs, opal_list_item_t) {
        n += ((ompix_cont_request_t *) ((char *) item - offsetof(ompix_cont_request_t, live)))
                 ->num_active;
    }
    OPAL_THREAD_UNLOCK(&ompix_cont_global.lock);
    return mca_common_ompix_pvar_set(value, (unsigned long long) n);
}

static void ompix_cont_mpit_one(const char *name, const char *description,
                                mca_base_get_value_fn_t read)
{
    (void) mca_base_pvar_register("ompi", "mpi", NULL, name, description, OPAL_INFO_LVL_4,
                                  MCA_BASE_PVAR_CLASS_COUNTER,
                                  MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                  MCA_BASE_VAR_BIND_NO_OBJECT,
                                  MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                  read, NULL, NULL, NULL);
}

/* From the process-wide setup (ompix_cont_global_init), once. */
void ompix_cont_mpit_register(void)
{
    ompix_cont_mpit_one("continue_registered",
                        "Continuations registered by MPIX_Continue and MPIX_Continueall in "
                        "this process (a persistent continuation once)",
                        ompix_cont_mpit_read_registered);
    ompix_cont_mpit_one("continue_run",
                        "Continuation callbacks run in this process (every round of a "
                        "persistent continuation; those run inside the registering call "
                        "included)",
                        ompix_cont_mpit_read_run);
}
