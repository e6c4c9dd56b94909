/*
 * Copyright (c) 2026 The ompix developers.
 *
 * pml/chan is never the selected PML; Open MPI opens only the PMLs named by
 * an explicit --mca pml X (test/run passes one), so a test of channels adds
 * chan to that list before MPI_Init, as a user would with --mca pml X,chan.
 * Used by test/chan and test/chan_engine.
 */
#ifndef OMPIX_CHAN_PML_H
#define OMPIX_CHAN_PML_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void ompix_chan_add_to_pml_list(void)
{
    const char *pml = getenv("OMPI_MCA_pml");
    char list[256];

    if (NULL != pml && '\0' != pml[0] && '^' != pml[0] && NULL == strstr(pml, "chan")) {
        snprintf(list, sizeof(list), "%s,chan", pml);
        setenv("OMPI_MCA_pml", list, 1);
    }
}

#ifdef OMPI_HAVE_MPI_EXT_CHAN
/* A channel bound from a send to MPI_PROC_NULL (always on the generic
 * fallback), its request freed; MPI_REQUEST_NULL if the bind failed. */
static inline MPI_Request ompix_chan_null_channel(void)
{
    static int x;
    MPI_Request req, chan = MPI_REQUEST_NULL;

    if (MPI_SUCCESS != MPI_Send_init(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req)) {
        return MPI_REQUEST_NULL;
    }
    if (MPI_SUCCESS != MPIX_Bind_channel(req, &chan, MPI_INFO_NULL)) {
        chan = MPI_REQUEST_NULL;
    }
    MPI_Request_free(&req);
    return chan;
}
#endif

#endif /* OMPIX_CHAN_PML_H */
