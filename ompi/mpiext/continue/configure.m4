# -*- shell-script -*-
# Copyright (c) 2026 The ompix developers.
#
# Same file in an Open MPI 4.1 source tree and in ompix's plugin build.
# Continuations only use Open MPI's request and progress engines, so they
# can always build.

AC_DEFUN([OMPI_MPIEXT_continue_CONFIG], [
    AC_CONFIG_FILES([
        ompi/mpiext/continue/Makefile
        ompi/mpiext/continue/c/Makefile
        ompi/mpiext/continue/c/profile/Makefile
        ompi/mpiext/continue/mpif-h/Makefile
        ompi/mpiext/continue/use-mpi/Makefile
        ompi/mpiext/continue/use-mpi-f08/Makefile
    ])

    AS_IF([test "$ENABLE_continue" = "1" || \
           test "$ENABLE_EXT_ALL" = "1"],
          [$1],
          [$2])
])
