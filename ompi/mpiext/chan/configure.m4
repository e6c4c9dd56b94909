# -*- shell-script -*-
# Copyright (c) 2026 The ompix developers.
#
# Same file in an Open MPI 4.1 source tree and in ompix's plugin build.
# Channels need only Open MPI's PML and request engines (the engine,
# pml/chan, is found at run time through common/ompix's registry), so they
# can always build.

AC_DEFUN([OMPI_MPIEXT_chan_CONFIG], [
    AC_CONFIG_FILES([
        ompi/mpiext/chan/Makefile
        ompi/mpiext/chan/c/Makefile
        ompi/mpiext/chan/c/profile/Makefile
        ompi/mpiext/chan/mpif-h/Makefile
        ompi/mpiext/chan/use-mpi/Makefile
        ompi/mpiext/chan/use-mpi-f08/Makefile
    ])

    AS_IF([test "$ENABLE_chan" = "1" || \
           test "$ENABLE_EXT_ALL" = "1"],
          [$1],
          [$2])
])
