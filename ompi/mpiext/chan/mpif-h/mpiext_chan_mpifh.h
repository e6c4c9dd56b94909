! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! Channels for mpif.h programs (included by mpif-ext.h in an Open MPI
! tree, by ompix-f.h in the plugin build) and for the mpi_ext / ompix
! modules.  Written so that it reads as fixed and as free form: columns
! 7-72, a continued line ends with & in column 73 and goes on with & in
! column 6.  mpif.h declares no subroutines, so neither does this.

      character*(*) MPIX_CHAN_INFO_ADDRESS_BASE_INCREMENT
      parameter (MPIX_CHAN_INFO_ADDRESS_BASE_INCREMENT =                &
     &           'address_base_increment')
