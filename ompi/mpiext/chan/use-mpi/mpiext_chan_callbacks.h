! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! The callbacks of MPIX_Grequest_persistent_init (included by the use mpi
! and the use mpi_f08 interfaces alike): bind(C) functions that
! the library calls as C's, extra_state by value (an integer of C's
! intptr_t, MPI_ADDRESS_KIND in Open MPI), returning MPI_SUCCESS or an
! error class.  free_fn has the form of start_fn.  poll_fn sets completed
! to 1 once the operation is complete.
abstract interface
    integer(c_int) function MPIX_Grequest_start_function(extra_state) bind(C)
        use, intrinsic :: iso_c_binding, only : c_int, c_intptr_t
        implicit none
        integer(kind=c_intptr_t), value :: extra_state
    end function MPIX_Grequest_start_function
    integer(c_int) function MPIX_Grequest_poll_function(extra_state, completed) bind(C)
        use, intrinsic :: iso_c_binding, only : c_int, c_intptr_t
        implicit none
        integer(kind=c_intptr_t), value :: extra_state
        integer(kind=c_int), intent(out) :: completed
    end function MPIX_Grequest_poll_function
end interface
