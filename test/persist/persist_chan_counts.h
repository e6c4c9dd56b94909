/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan's start counters (pml_chan_starts_<path>, process-wide), summed:
 * whether a persistent collective's plan ran on channels (a bundle) or on
 * its own requests.  For the tests of plans as bundles.
 */
#ifndef PERSIST_CHAN_COUNTS_H
#define PERSIST_CHAN_COUNTS_H

#include "persist_common.h"
#include "ompix_chan_pml.h"

#define PERSIST_CHAN_NPATHS 4
static MPI_T_pvar_session persist_chan_session;
static MPI_T_pvar_handle persist_chan_handles[PERSIST_CHAN_NPATHS];

/* After MPI_T_init_thread and MPI_Init: 0, or -1 if no session. */
static inline int persist_chan_counts_open(void)
{
    static const char *const paths[PERSIST_CHAN_NPATHS] = {"mapped", "tag", "am", "large"};

    if (MPI_SUCCESS != MPI_T_pvar_session_create(&persist_chan_session)) return -1;
    for (int p = 0; p < PERSIST_CHAN_NPATHS; ++p) {
        char name[64]; int index, count;
        persist_chan_handles[p] = MPI_T_PVAR_HANDLE_NULL;
        snprintf(name, sizeof(name), "pml_chan_starts_%s", paths[p]);
        if (MPI_SUCCESS == MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index))
            MPI_T_pvar_handle_alloc(persist_chan_session, index, NULL, &persist_chan_handles[p],
                                    &count);
    }
    return 0;
}

/* Channel starts (sends and receives) on every path so far. */
static inline unsigned long long persist_chan_starts(void)
{
    unsigned long long sum = 0, v;
    for (int p = 0; p < PERSIST_CHAN_NPATHS; ++p) {
        if (MPI_T_PVAR_HANDLE_NULL != persist_chan_handles[p] &&
            MPI_SUCCESS == MPI_T_pvar_read(persist_chan_session, persist_chan_handles[p], &v))
            sum += v;
    }
    return sum;
}

static inline void persist_chan_counts_close(void)
{
    for (int p = 0; p < PERSIST_CHAN_NPATHS; ++p)
        if (MPI_T_PVAR_HANDLE_NULL != persist_chan_handles[p])
            MPI_T_pvar_handle_free(persist_chan_session, &persist_chan_handles[p]);
    MPI_T_pvar_session_free(&persist_chan_session);
}

/* MPI_T and MPI initialised for a test of plans as bundles, the counters
 * open.  The plugin build's bundle engine is in libompix, which a program
 * that calls only MPIX_*_init collectives (Open MPI's) does not load: name
 * one of its functions, as a program using bundles or channels does;
 * pml/chan joins the PML list as a user would add it. */
static inline void persist_bundle_test_init(int *argc, char ***argv)
{
    int provided;
    void (*volatile keep)(void) = (void (*)(void)) MPIX_Bundle_init;

    (void) keep;
    ompix_chan_add_to_pml_list();
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    ompix_test_init(argc, argv);
    CHECK(0 == persist_chan_counts_open());
}

#endif
