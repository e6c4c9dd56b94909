! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! Continuations for mpif.h programs (included by mpif-ext.h in an Open
! MPI tree, by ompix-f.h in the plugin build) and for the mpi_ext / ompix
! modules.  Written so that it reads as fixed and as free form: columns
! 7-72, a continued line ends with & in column 73 and goes on with & in
! column 6.  mpif.h declares no subroutines, so neither does this.

      integer MPIX_CONT_IMMEDIATE, MPIX_CONT_PERSISTENT
      parameter (MPIX_CONT_IMMEDIATE = 1)
      parameter (MPIX_CONT_PERSISTENT = 2)

      character*(*) MPIX_CONT_INFO_POLL_ONLY
      character*(*) MPIX_CONT_INFO_THREAD
      character*(*) MPIX_CONT_INFO_ENQUEUE_COMPLETE
      character*(*) MPIX_CONT_INFO_MAX_POLL
      character*(*) MPIX_CONT_INFO_ASYNC_SIGNAL_SAFE
      parameter (MPIX_CONT_INFO_POLL_ONLY = 'mpi_continue_poll_only')
      parameter (MPIX_CONT_INFO_THREAD = 'mpi_continue_thread')
      parameter (MPIX_CONT_INFO_ENQUEUE_COMPLETE =                      &
     &           'mpi_continue_enqueue_complete')
      parameter (MPIX_CONT_INFO_MAX_POLL = 'mpi_continue_max_poll')
      parameter (MPIX_CONT_INFO_ASYNC_SIGNAL_SAFE =                     &
     &           'mpi_continue_async_signal_safe')
