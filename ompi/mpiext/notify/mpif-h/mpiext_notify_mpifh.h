! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! Notified RMA for mpif.h programs (included by mpif-ext.h in an Open MPI
! tree, by ompix-f.h in the plugin build) and for the mpi_ext / ompix
! modules.  Written so that it reads as fixed and as free form (columns
! 7-72).  mpif.h declares no subroutines, so neither does this.

      integer MPIX_NOTIFY_BLOCK, MPIX_NOTIFY_NONE
      parameter (MPIX_NOTIFY_BLOCK = -1)
      parameter (MPIX_NOTIFY_NONE = -1)
