dnl -*- autoconf -*-
dnl Copyright (c) 2026 The ompix developers.
dnl
dnl OMPIX_CHECK_OMPI: find the installed Open MPI, detect its release series
dnl (4.1 or 5.0) and insist on its internal (developer) headers, because
dnl components and extensions use Open MPI's internal interfaces, whose ABI
dnl differs between release series.  What differs is handled by the headers
dnl ompi/mca/common/ompix/common_ompix_compat_*.h, selected by the
dnl OMPIX_OMPI_SERIES macro defined here (41 or 50); what differs in the
dnl build is set here (OMPIX_OMPI_COMMON_UCX_LIBS, OMPIX_OMPI_UNPORTED).
dnl
dnl Sets/substitutes: MPICC, OMPI_INFO, OMPIX_OMPI_VERSION, OMPIX_OMPI_SERIES,
dnl OMPIX_OMPI_CPPFLAGS (-isystem for the internal headers),
dnl OMPIX_OMPI_LIBS, OMPIX_OMPI_COMPONENT_DIR (Open MPI's pkglibdir).

AC_DEFUN([OMPIX_CHECK_OMPI], [
    AC_ARG_WITH([ompi],
        [AS_HELP_STRING([--with-ompi=DIR],
            [installation prefix of Open MPI 4.1.x or 5.0.x (default: the one whose mpicc is first in PATH)])])

    AS_IF([test -n "$with_ompi" && test "$with_ompi" != "yes"],
          [ompix_ompi_path="$with_ompi/bin"],
          [ompix_ompi_path="$PATH"])
    AC_PATH_PROG([MPICC], [mpicc], [], [$ompix_ompi_path])
    AC_PATH_PROG([OMPI_INFO], [ompi_info], [], [$ompix_ompi_path])
    AS_IF([test -z "$MPICC" || test -z "$OMPI_INFO"],
          [AC_MSG_ERROR([Open MPI's mpicc and ompi_info were not found (searched: $ompix_ompi_path).
Install Open MPI 4.1 or 5.0 with its development files (Debian: apt-get install libopenmpi-dev openmpi-bin)
or point to it with --with-ompi=DIR.])])

    AC_MSG_CHECKING([Open MPI version])
    OMPIX_OMPI_VERSION=`$OMPI_INFO --parsable --version 2>/dev/null | sed -n 's/^Open MPI v\([[0-9.]]*\).*/\1/p' | head -n 1`
    AC_MSG_RESULT([${OMPIX_OMPI_VERSION:-unknown}])
    dnl OMPIX_OMPI_UNPORTED: the components and extensions (FW/COMP, or
    dnl mpiext/NAME) that cannot serve on this series yet; configure does not
    dnl build them there (config/ompix_components.m4).
    AS_CASE([$OMPIX_OMPI_VERSION],
        [4.1.*], [OMPIX_OMPI_SERIES=41
                  OMPIX_OMPI_UNPORTED=""],
        [5.0.*], [OMPIX_OMPI_SERIES=50
                  OMPIX_OMPI_UNPORTED=""],
        [AC_MSG_ERROR([Open MPI 4.1 or 5.0 required: found ${OMPIX_OMPI_VERSION:-an unknown version} ($OMPI_INFO).
ompix builds against Open MPI's internal component interfaces, which change between
release series; use an Open MPI 4.1.x or 5.0.x installation (--with-ompi=DIR).])])
    AC_MSG_CHECKING([Open MPI release series])
    AC_MSG_RESULT([$OMPIX_OMPI_SERIES])
    AC_DEFINE_UNQUOTED([OMPIX_OMPI_SERIES], [$OMPIX_OMPI_SERIES],
        [Open MPI release series ompix is built against: 41 or 50])

    ompix_ompi_incdir=`$OMPI_INFO --parsable --path pkgincludedir | sed 's/^path:pkgincludedir://'`
    OMPIX_OMPI_COMPONENT_DIR=`$OMPI_INFO --parsable --path pkglibdir | sed 's/^path:pkglibdir://'`
    OMPIX_OMPI_DATA_DIR=`$OMPI_INFO --parsable --path pkgdatadir | sed 's/^path:pkgdatadir://'`
    AC_MSG_CHECKING([for Open MPI's internal headers])
    AS_IF([test -r "$ompix_ompi_incdir/ompi_config.h" && \
           test -r "$ompix_ompi_incdir/ompi/request/request.h" && \
           test -r "$ompix_ompi_incdir/opal/mca/base/base.h"],
          [AC_MSG_RESULT([$ompix_ompi_incdir])],
          [AC_MSG_RESULT([no])
           AC_MSG_ERROR([Open MPI's internal headers are not installed in $ompix_ompi_incdir.
Debian ships them in libopenmpi-dev; a source build needs --with-devel-headers.])])

    ompix_ompi_cppflags=""
    for ompix_dir in `$MPICC -showme:incdirs` "$ompix_ompi_incdir"; do
        ompix_ompi_cppflags="$ompix_ompi_cppflags -isystem $ompix_dir"
    done
    OMPIX_OMPI_CPPFLAGS="$ompix_ompi_cppflags"
    ompix_ompi_libdir=`$MPICC -showme:libdirs | cut -d' ' -f1`
    OMPIX_OMPI_LIBS="-L$ompix_ompi_libdir -lmpi"
    AS_IF([test -e "$ompix_ompi_libdir/libopen-pal.so"],
          [OMPIX_OMPI_LIBS="$OMPIX_OMPI_LIBS -lopen-pal"])
    dnl opal's common/ucx is a library of its own where Open MPI builds its
    dnl components as DSOs (4.1, Debian's packages); where it builds them
    dnl into its libraries (5.0's default) it is part of libopen-pal.
    AC_MSG_CHECKING([where opal's common/ucx is])
    AS_IF([ls "$ompix_ompi_libdir"/libmca_common_ucx.* >/dev/null 2>&1],
          [OMPIX_OMPI_COMMON_UCX_LIBS="-lmca_common_ucx"
           AC_MSG_RESULT([libmca_common_ucx])],
          [OMPIX_OMPI_COMMON_UCX_LIBS=""
           AC_MSG_RESULT([in Open MPI's libraries])])

    AC_SUBST([OMPIX_OMPI_VERSION])
    AC_SUBST([OMPIX_OMPI_SERIES])
    AC_SUBST([OMPIX_OMPI_COMMON_UCX_LIBS])
    AC_SUBST([OMPIX_OMPI_CPPFLAGS])
    AC_SUBST([OMPIX_OMPI_LIBS])
    AC_SUBST([OMPIX_OMPI_COMPONENT_DIR])
    AC_SUBST([OMPIX_OMPI_DATA_DIR])
])

dnl OMPIX_CHECK_OMPI_HEADERS_COMPILE: with the chosen compiler, the internal
dnl headers must compile (catches a mismatched compiler or missing -mcx16).
AC_DEFUN([OMPIX_CHECK_OMPI_HEADERS_COMPILE], [
    dnl opal's 128-bit compare-and-swap needs cmpxchg16b on x86_64.
    AS_CASE([$host_cpu], [x86_64], [
        ompix_save_CFLAGS="$CFLAGS"
        CFLAGS="$CFLAGS -mcx16"
        AC_MSG_CHECKING([whether $CC accepts -mcx16])
        AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
            [AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no]); CFLAGS="$ompix_save_CFLAGS"])])

    ompix_save_CPPFLAGS="$CPPFLAGS"
    CPPFLAGS="$CPPFLAGS $OMPIX_OMPI_CPPFLAGS"
    AC_MSG_CHECKING([whether Open MPI's internal headers compile])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include "ompi_config.h"
#include "ompi/request/request.h"
#if OMPI_MAJOR_VERSION * 10 + OMPI_MINOR_VERSION != $OMPIX_OMPI_SERIES
#error "headers are not from the series ompi_info reports"
#endif
]], [[return ompi_request_null.request.req_type;]])],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([Open MPI $OMPIX_OMPI_VERSION's internal headers do not compile with $CC $CFLAGS; see config.log])])
    dnl Installed Open MPI headers may include headers by source-tree paths
    dnl (Debian's ompi/op/op.h, opal/mca/common/ucx/common_ucx.h); ompix's
    dnl config/include supplies those, only when needed.
    m4_define([_OMPIX_INTERNAL_HEADERS], [AC_LANG_PROGRAM([[
#include "ompi_config.h"
#include "ompi/op/op.h"
#if defined(__has_include)
#if __has_include(<ucp/api/ucp.h>)
#include "opal/mca/common/ucx/common_ucx.h"
#endif
#endif
]], [[return NULL == &ompi_mpi_op_sum;]])])
    AC_MSG_CHECKING([whether ompi/op/op.h and opal's common_ucx.h compile])
    AC_COMPILE_IFELSE([_OMPIX_INTERNAL_HEADERS],
        [AC_MSG_RESULT([yes])],
        [ompix_abs_srcdir=`cd "$srcdir" && pwd`
         CPPFLAGS="$ompix_save_CPPFLAGS $OMPIX_OMPI_CPPFLAGS -isystem $ompix_abs_srcdir/config/include"
         AC_COMPILE_IFELSE([_OMPIX_INTERNAL_HEADERS],
            [AC_MSG_RESULT([with ompix's config/include])
             OMPIX_OMPI_CPPFLAGS="$OMPIX_OMPI_CPPFLAGS -isystem \$(abs_top_srcdir)/config/include"],
            [AC_MSG_RESULT([no])
             AC_MSG_ERROR([Open MPI's internal headers ompi/op/op.h or opal/mca/common/ucx/common_ucx.h do not compile; see config.log])])])
    CPPFLAGS="$ompix_save_CPPFLAGS"
])
