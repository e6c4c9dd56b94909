! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! Continuations for use mpi_f08: the body of the mpi_f08_ext module (Open MPI tree)
! and of ompix's ompix_f08 module (plugin build); mpiext_continue_mpifh.h
! comes first.  Every interface is one C function of ../mpif-h,
! called directly (bind(C)); an absent ierror arrives as NULL.

! The callback: a bind(C) procedure, which the library calls as C's
! MPIX_Continue_cb_function: the statuses (the array passed at
! registration; not to be read if that was MPI_STATUSES_IGNORE) and
! cb_data by value, as an integer of C's intptr_t (MPI_ADDRESS_KIND in
! Open MPI; c_intptr_t keeps the interface interoperable).
abstract interface
    subroutine MPIX_Continue_cb_function(array_of_statuses, cb_data) bind(C)
        use, intrinsic :: iso_c_binding, only : c_intptr_t
        use :: mpi_f08_types, only : MPI_Status
        implicit none
        type(MPI_Status) :: array_of_statuses(*)
        integer(kind=c_intptr_t), value :: cb_data
    end subroutine MPIX_Continue_cb_function
end interface

interface
    subroutine MPIX_Continue_init(info, cont_req, ierror) &
            bind(C, name="MPIX_Continue_init_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        type(MPI_Info), intent(in) :: info
        type(MPI_Request), intent(out) :: cont_req
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Continue_init
end interface
interface
    subroutine MPIX_Continue(op_request, cb, cb_data, flags, status, &
        cont_req, ierror) &
            bind(C, name="MPIX_Continue_f08")
        use :: mpi_f08_types, only : MPI_Request, MPI_Status
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        import :: MPIX_Continue_cb_function
        implicit none
        type(MPI_Request), intent(inout) :: op_request
        procedure(MPIX_Continue_cb_function) :: cb
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: cb_data
        integer, intent(in) :: flags
        type(MPI_Status) :: status
        type(MPI_Request), intent(in) :: cont_req
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Continue
end interface
interface
    subroutine MPIX_Continueall(count, array_of_op_requests, cb, cb_data, &
        flags, array_of_statuses, cont_req, ierror) &
            bind(C, name="MPIX_Continueall_f08")
        use :: mpi_f08_types, only : MPI_Request, MPI_Status
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        import :: MPIX_Continue_cb_function
        implicit none
        integer, intent(in) :: count
        type(MPI_Request), intent(inout) :: array_of_op_requests(*)
        procedure(MPIX_Continue_cb_function) :: cb
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: cb_data
        integer, intent(in) :: flags
        type(MPI_Status) :: array_of_statuses(*)
        type(MPI_Request), intent(in) :: cont_req
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Continueall
end interface

! The profiling entry points: the same interfaces, other symbols.
procedure(MPIX_Continue_init), bind(C, name="PMPIX_Continue_init_f08") :: PMPIX_Continue_init
procedure(MPIX_Continue), bind(C, name="PMPIX_Continue_f08") :: PMPIX_Continue
procedure(MPIX_Continueall), bind(C, name="PMPIX_Continueall_f08") :: PMPIX_Continueall
