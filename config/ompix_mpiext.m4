dnl -*- autoconf -*-
dnl Copyright (c) 2026 The ompix developers.
dnl
dnl OMPIX_MPIEXT_SETUP([RELEASE-DATE]): what Open MPI's configure gives the
dnl extensions' Makefile.am files in a source tree, for the plugin build:
dnl  - BUILD_MPI_BINDINGS_LAYER (AM_CONDITIONAL): true when the MPIX_ names
dnl    need their own copy of the code (profile/ then defines only PMPIX_),
dnl    i.e. when the installed Open MPI was built without weak symbols;
dnl  - LN_S, used by profile/ directories to link the sources they compile;
dnl  - OMPI_RELEASE_DATE (RELEASE-DATE: ompix's, where Open MPI's configure
dnl    gives the date from its VERSION file), which the .3in.3 rule of
dnl    ompi/mca/common/ompix/Makefile.ompix-rules puts into the man pages.
dnl Requires CPPFLAGS to find Open MPI's internal headers.
AC_DEFUN([OMPIX_MPIEXT_SETUP], [
    AC_REQUIRE([AC_PROG_LN_S])
    AC_CACHE_CHECK([whether Open MPI uses weak symbols for its profiling interface],
        [ompix_cv_weak_symbols],
        [AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include "opal_config.h"
#if !OPAL_HAVE_WEAK_SYMBOLS
#error "no weak symbols: MPI_ and PMPI_ are compiled separately"
#endif
]], [])],
             [ompix_cv_weak_symbols=yes],
             [ompix_cv_weak_symbols=no])])
    AM_CONDITIONAL([BUILD_MPI_BINDINGS_LAYER], [test "$ompix_cv_weak_symbols" = "no"])
    AC_SUBST([OMPI_RELEASE_DATE], ["$1"])
])
