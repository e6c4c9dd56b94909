# -*- shell-script -*-
# Copyright (c) 2026 The ompix developers.
#
# Same file in an Open MPI 4.1 source tree and in ompix's plugin build.
# osc/rdma2 needs UCX's ucp.  In the plugin build ompix's configure has
# already looked for UCX (OMPIX_CHECK_UCX sets $ompix_have_ucx and
# UCX_CPPFLAGS/UCX_LDFLAGS/UCX_LIBS); in an Open MPI tree Open MPI's own
# OMPI_CHECK_UCX does the search.

# MCA_ompi_osc_rdma2_CONFIG(action-if-can-compile, [action-if-cant-compile])
AC_DEFUN([MCA_ompi_osc_rdma2_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/osc/rdma2/Makefile])

    m4_ifdef([OMPIX_CHECK_UCX],
        [AS_IF([test "$ompix_have_ucx" = "1"],
               [osc_rdma2_happy=yes
                osc_rdma2_CPPFLAGS="$UCX_CPPFLAGS"
                osc_rdma2_LDFLAGS="$UCX_LDFLAGS"
                osc_rdma2_LIBS="$UCX_LIBS"],
               [osc_rdma2_happy=no])],
        [OMPI_CHECK_UCX([osc_rdma2],
                        [osc_rdma2_happy=yes],
                        [osc_rdma2_happy=no])])

    AS_IF([test "$osc_rdma2_happy" = "yes"], [$1], [$2])

    AC_SUBST([osc_rdma2_CPPFLAGS])
    AC_SUBST([osc_rdma2_LDFLAGS])
    AC_SUBST([osc_rdma2_LIBS])
])dnl
