! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! Continuations for use mpi: the body of the mpi_ext module (Open MPI tree)
! and of ompix's ompix module (plugin build); mpiext_continue_mpifh.h
! comes first.  Every interface is one C function of ../mpif-h.

! The callback: a bind(C) procedure, which the library calls as C's
! MPIX_Continue_cb_function: the statuses (the array passed at
! registration; not to be read if that was MPI_STATUSES_IGNORE) and
! cb_data by value, as an integer of C's intptr_t (MPI_ADDRESS_KIND in
! Open MPI; c_intptr_t keeps the interface interoperable).
abstract interface
    subroutine MPIX_Continue_cb_function(array_of_statuses, cb_data) bind(C)
        use, intrinsic :: iso_c_binding, only : c_int, c_intptr_t
        use :: mpi, only : MPI_STATUS_SIZE
        implicit none
        integer(kind=c_int) :: array_of_statuses(MPI_STATUS_SIZE, *)
        integer(kind=c_intptr_t), value :: cb_data
    end subroutine MPIX_Continue_cb_function
end interface

interface
    subroutine MPIX_Continue_init(info, cont_req, ierror)
        implicit none
        integer, intent(in) :: info
        integer, intent(out) :: cont_req
        integer, intent(out) :: ierror
    end subroutine MPIX_Continue_init
end interface
interface
    subroutine MPIX_Continue(op_request, cb, cb_data, flags, status, &
        cont_req, ierror)
        use :: mpi, only : MPI_ADDRESS_KIND, MPI_STATUS_SIZE
        import :: MPIX_Continue_cb_function
        implicit none
        integer, intent(inout) :: op_request
        procedure(MPIX_Continue_cb_function) :: cb
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: cb_data
        integer, intent(in) :: flags
        integer :: status(MPI_STATUS_SIZE)
        integer, intent(in) :: cont_req
        integer, intent(out) :: ierror
    end subroutine MPIX_Continue
end interface
interface
    subroutine MPIX_Continueall(count, array_of_op_requests, cb, cb_data, &
        flags, array_of_statuses, cont_req, ierror)
        use :: mpi, only : MPI_ADDRESS_KIND, MPI_STATUS_SIZE
        import :: MPIX_Continue_cb_function
        implicit none
        integer, intent(in) :: count
        integer, intent(inout) :: array_of_op_requests(*)
        procedure(MPIX_Continue_cb_function) :: cb
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: cb_data
        integer, intent(in) :: flags
        integer :: array_of_statuses(MPI_STATUS_SIZE, *)
        integer, intent(in) :: cont_req
        integer, intent(out) :: ierror
    end subroutine MPIX_Continueall
end interface

! The profiling entry points: the same interfaces, other symbols.
procedure(MPIX_Continue_init) :: PMPIX_Continue_init
procedure(MPIX_Continue) :: PMPIX_Continue
procedure(MPIX_Continueall) :: PMPIX_Continueall
