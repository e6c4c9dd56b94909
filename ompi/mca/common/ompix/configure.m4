# -*- shell-script -*-
# Copyright (c) 2026 The ompix developers.
#
# Same file in an Open MPI 4.1 source tree and in ompix's plugin build.
#
# common/ompix is what several ompix components and extensions share: UCX
# bring-up, node-local shared segments, atomics, the progress thread and
# the registry through which an extension reaches a component.  It always
# builds; its UCX part only where UCX is found (in the plugin build
# ompix's configure has searched already: $ompix_have_ucx and
# UCX_CPPFLAGS/LDFLAGS/LIBS; in an Open MPI tree OMPI_CHECK_UCX searches).

# MCA_ompi_common_ompix_COMPILE_MODE: in an Open MPI tree the library is
# linked into libmpi.  The registry must exist once per process and be
# reachable from the MPI extensions, which Open MPI links into libmpi
# before any DSO component is built; a libmpi that needed a DSO built
# after it could not link.  (The plugin build makes it a shared library
# that libompix and the components both link.)
AC_DEFUN([MCA_ompi_common_ompix_COMPILE_MODE], [
    AC_MSG_CHECKING([for MCA component $2:$3 compile mode])
    $4="static"
    AC_MSG_RESULT([$$4])
])

# MCA_ompi_common_ompix_CONFIG(action-if-can-compile, [action-if-cant-compile])
AC_DEFUN([MCA_ompi_common_ompix_CONFIG], [
    AC_CONFIG_FILES([ompi/mca/common/ompix/Makefile])

    common_ompix_have_ucx=no
    m4_ifdef([OMPIX_CHECK_UCX],
        [AS_IF([test "$ompix_have_ucx" = "1"],
               [common_ompix_have_ucx=yes
                common_ompix_CPPFLAGS="$UCX_CPPFLAGS"
                common_ompix_LDFLAGS="$UCX_LDFLAGS"
                common_ompix_LIBS="$UCX_LIBS $OMPIX_OMPI_COMMON_UCX_LIBS"])],
        [OMPI_CHECK_UCX([common_ompix],
                        [common_ompix_have_ucx=yes
                         AS_IF([test "$BUILD_opal_common_ucx_DSO" = "1"],
                               [common_ompix_LIBS="$common_ompix_LIBS \$(OPAL_TOP_BUILDDIR)/opal/mca/common/ucx/lib\$(OPAL_LIB_PREFIX)\$(OPAL_LIB_NAME)mca_common_ucx.la"])],
                        [common_ompix_have_ucx=no])])
    AM_CONDITIONAL([MCA_COMMON_OMPIX_HAVE_UCX], [test "$common_ompix_have_ucx" = "yes"])
    AC_MSG_CHECKING([whether common/ompix has UCX support])
    AC_MSG_RESULT([$common_ompix_have_ucx])

    $1

    AC_SUBST([common_ompix_CPPFLAGS])
    AC_SUBST([common_ompix_LDFLAGS])
    AC_SUBST([common_ompix_LIBS])
])dnl
