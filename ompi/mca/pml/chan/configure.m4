# -*- shell-script -*-
# Copyright (c) 2026 The ompix developers.
#
# Same file in an Open MPI 4.1 source tree and in ompix's plugin build.
# pml/chan needs UCX's ucp.  In the plugin build ompix's configure has
# already looked for UCX (OMPIX_CHECK_UCX sets $ompix_have_ucx and
# UCX_CPPFLAGS/UCX_LDFLAGS/UCX_LIBS); in an Open MPI tree Open MPI's own
# OMPI_CHECK_UCX does the search.

# MCA_ompi_pml_chan_CONFIG(action-if-can-compile, [action-if-cant-compile])
AC_DEFUN([MCA_ompi_pml_chan_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/pml/chan/Makefile])

    m4_ifdef([OMPIX_CHECK_UCX],
        [AS_IF([test "$ompix_have_ucx" = "1"],
               [pml_chan_happy=yes
                pml_chan_CPPFLAGS="$UCX_CPPFLAGS"
                pml_chan_LDFLAGS="$UCX_LDFLAGS"
                pml_chan_LIBS="$UCX_LIBS"],
               [pml_chan_happy=no])],
        [OMPI_CHECK_UCX([pml_chan],
                        [pml_chan_happy=yes],
                        [pml_chan_happy=no])])

    AS_IF([test "$pml_chan_happy" = "yes"], [$1], [$2])

    AC_SUBST([pml_chan_CPPFLAGS])
    AC_SUBST([pml_chan_LDFLAGS])
    AC_SUBST([pml_chan_LIBS])
])dnl
