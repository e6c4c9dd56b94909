/*
 * Copyright (c) 2026 The ompix developers.
 *
 * What the Fortran bindings of every extension share (the C functions in
 * ompi/mpiext/<name>/mpif-h, which serve mpif.h, use mpi and use mpi_f08
 * alike): the error code back to an ierror that an mpi_f08 caller may omit,
 * and arrays of handles converted with MPI's own f2c/c2f functions (a
 * Fortran handle is an index, a C handle a pointer).
 */

#ifndef MCA_COMMON_OMPIX_FORTRAN_H
#define MCA_COMMON_OMPIX_FORTRAN_H

#include <stdlib.h>

#include "mpi.h"
#include "ompi/mca/common/ompix/common_ompix_compat_errhandler.h"

/* ierr is NULL where an mpi_f08 caller left out its optional ierror (the
 * bind(C) interfaces pass absent arguments as NULL). */
static inline void mca_common_ompix_f_ierr(MPI_Fint *ierr, int rc)
{
    if (NULL != ierr) {
        *ierr = (MPI_Fint) rc;
    }
}

/* Room for n C handles of `size` bytes (at least one, so that a count the
 * C function will refuse still gets there); NULL after reporting
 * MPI_ERR_NO_MEM for `func` into *ierr. */
static inline void *mca_common_ompix_f_alloc(int n, size_t size, MPI_Fint *ierr,
                                             const char *func)
{
    void *array = malloc((n > 0 ? (size_t) n : 1) * size);

    if (NULL == array) {
        mca_common_ompix_f_ierr(ierr, mca_common_ompix_errhandler_nohandle(MPI_ERR_NO_MEM,
                                                                           func));
    }
    return array;
}

/* n Fortran request handles as C handles (NULL: out of memory, reported). */
static inline MPI_Request *mca_common_ompix_f_requests_f2c(int n, const MPI_Fint *f,
                                                           MPI_Fint *ierr, const char *func)
{
    MPI_Request *c = mca_common_ompix_f_alloc(n, sizeof(*c), ierr, func);

    for (int i = 0; NULL != c && i < n; ++i) {
        c[i] = PMPI_Request_f2c(f[i]);
    }
    return c;
}

static inline void mca_common_ompix_f_requests_c2f(int n, const MPI_Request *c, MPI_Fint *f)
{
    for (int i = 0; i < n; ++i) {
        f[i] = PMPI_Request_c2f(c[i]);
    }
}

/* n Fortran info handles as C handles (NULL: out of memory, reported). */
static inline MPI_Info *mca_common_ompix_f_infos_f2c(int n, const MPI_Fint *f,
                                                     MPI_Fint *ierr, const char *func)
{
    MPI_Info *c = mca_common_ompix_f_alloc(n, sizeof(*c), ierr, func);

    for (int i = 0; NULL != c && i < n; ++i) {
        c[i] = PMPI_Info_f2c(f[i]);
    }
    return c;
}

/* A Fortran INTEGER array passed where C takes int[] (the slacks): the
 * bindings are built for Open MPI's default INTEGER, the size of int. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER is not a C int");

/* A Fortran status is a C MPI_Status in place, as in Open MPI's own
 * bindings where INTEGER is an int (status-conversion.h): MPI_Status_c2f
 * copies the ints one by one.  So a C function may fill the Fortran
 * statuses later (continuations), and a bind(C) Fortran callback gets the
 * C statuses as its TYPE(MPI_Status) or INTEGER(MPI_STATUS_SIZE) array. */
_Static_assert(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0, "MPI_Status is not whole INTEGERs");
#if defined(__sparc) && SIZEOF_SIZE_T == 8
#error "Fortran statuses need a conversion here; ompix's Fortran bindings do not convert them"
#endif

static inline MPI_Status *mca_common_ompix_f_status(MPI_Fint *f_status)
{
    return MPI_F_STATUS_IGNORE == f_status ? MPI_STATUS_IGNORE : (MPI_Status *) f_status;
}

static inline MPI_Status *mca_common_ompix_f_statuses(MPI_Fint *f_statuses)
{
    return MPI_F_STATUSES_IGNORE == f_statuses ? MPI_STATUSES_IGNORE : (MPI_Status *) f_statuses;
}

/* MPI_BOTTOM of Fortran programs: the common block Open MPI's libmpi
 * defines (mpif-h/constants; this is its name for gfortran, the compiler
 * Open MPI 4.1 is packaged with, in a single-underscore build). */
extern int mpi_fortran_bottom_;

static inline void *mca_common_ompix_f_buffer(char *buf)
{
    return (char *) &mpi_fortran_bottom_ == buf ? MPI_BOTTOM : buf;
}

/* The symbols of one binding: FN under every name a Fortran compiler gives
 * an external procedure (upper case, lower case, one or two trailing
 * underscores) for mpif.h and use mpi, and Mixed_f08, the bind(C) name of
 * the mpi_f08 interfaces, as Open MPI names its extensions' symbols.  Weak
 * aliases, so the PMPIX_ and the MPIX_ sets are one function and a tool
 * may define its own MPIX_ symbols (the Fortran bindings require weak
 * symbols, as every supported compiler has). */
#define MCA_COMMON_OMPIX_F_PRAGMA(x) _Pragma(#x)
#define MCA_COMMON_OMPIX_F_WEAK(alias, fn) MCA_COMMON_OMPIX_F_PRAGMA(weak alias = fn)
#define MCA_COMMON_OMPIX_F_NAMES(UPPER, lower, Mixed, fn)                              \
    MCA_COMMON_OMPIX_F_WEAK(UPPER, fn)                                                 \
    MCA_COMMON_OMPIX_F_WEAK(lower, fn)                                                 \
    MCA_COMMON_OMPIX_F_WEAK(lower##_, fn)                                              \
    MCA_COMMON_OMPIX_F_WEAK(lower##__, fn)                                             \
    MCA_COMMON_OMPIX_F_WEAK(Mixed##_f08, fn)

/* Both sets of one binding: PMPIX_ (profiling) and MPIX_. */
#define MCA_COMMON_OMPIX_F_BINDINGS(UPPER, lower, Mixed, fn)                           \
    MCA_COMMON_OMPIX_F_NAMES(P##UPPER, p##lower, P##Mixed, fn)                         \
    MCA_COMMON_OMPIX_F_NAMES(UPPER, lower, Mixed, fn)

#endif /* MCA_COMMON_OMPIX_FORTRAN_H */
