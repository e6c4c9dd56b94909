/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Helpers shared by the persistent-collective tests.
 */
#ifndef PERSIST_COMMON_H
#define PERSIST_COMMON_H

#include "ompix_test.h"

/* n ints, element i at 2*i: a strided layout whose extent covers the gaps. */
static inline MPI_Datatype strided(int n)
{
    MPI_Datatype t, r;
    MPI_Type_vector(n, 1, 2, MPI_INT, &t);
    MPI_Type_create_resized(t, 0, (MPI_Aint) (2 * n * sizeof(int)), &r);
    MPI_Type_commit(&r);
    MPI_Type_free(&t);
    return r;
}

/* Affine maps x -> m*x + c as pairs of unsigned, under composition ("left,
 * then right"): associative, not commutative. */
static inline void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    unsigned *a = in, *b = inout;
    (void) dt;
    for (int i = 0; i < *len; ++i, a += 2, b += 2) {
        unsigned m = b[0] * a[0], c = b[0] * a[1] + b[1];
        b[0] = m;
        b[1] = c;
    }
}

#endif
