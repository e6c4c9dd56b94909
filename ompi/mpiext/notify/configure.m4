# -*- shell-script -*-
# Copyright (c) 2026 The ompix developers.
#
# Same file in an Open MPI 4.1 source tree and in ompix's plugin build.
# Notified RMA runs natively on osc/rdma2's windows when that component is
# there and on standard MPI calls over any other osc component, so it can
# always build.

AC_DEFUN([OMPI_MPIEXT_notify_CONFIG], [
    AC_CONFIG_FILES([
        ompi/mpiext/notify/Makefile
        ompi/mpiext/notify/c/Makefile
        ompi/mpiext/notify/c/profile/Makefile
        ompi/mpiext/notify/mpif-h/Makefile
        ompi/mpiext/notify/use-mpi/Makefile
        ompi/mpiext/notify/use-mpi-f08/Makefile
    ])

    AS_IF([test "$ENABLE_notify" = "1" || \
           test "$ENABLE_EXT_ALL" = "1"],
          [$1],
          [$2])
])
