! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! Channels for use mpi_f08: the body of the mpi_f08_ext module (Open MPI tree) and of
! ompix's ompix_f08 module (plugin build); mpiext_chan_mpifh.h comes first.
! Every interface is one C function of ../mpif-h,
! called directly (bind(C)); an absent ierror arrives as NULL.

#include "../use-mpi/mpiext_chan_callbacks.h"

interface
    subroutine MPIX_Bind_channel(req_in, req_out, info, ierror) &
            bind(C, name="MPIX_Bind_channel_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        type(MPI_Request), intent(in) :: req_in
        type(MPI_Request), intent(out) :: req_out
        type(MPI_Info), intent(in) :: info
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Bind_channel
end interface
interface
    subroutine MPIX_Ibind_channel(req_in, req_out, info, ierror) &
            bind(C, name="MPIX_Ibind_channel_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        type(MPI_Request), intent(in) :: req_in
        type(MPI_Request), intent(out), asynchronous :: req_out
        type(MPI_Info), intent(in) :: info
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Ibind_channel
end interface
interface
    subroutine MPIX_Bind_channels(n, reqs_in, reqs_out, infos, ierror) &
            bind(C, name="MPIX_Bind_channels_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        integer, intent(in) :: n
        type(MPI_Request), intent(in) :: reqs_in(*)
        type(MPI_Request), intent(out) :: reqs_out(*)
        type(MPI_Info), intent(in) :: infos(*)
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Bind_channels
end interface
interface
    subroutine MPIX_Ibind_channels(n, reqs_in, reqs_out, infos, ierror) &
            bind(C, name="MPIX_Ibind_channels_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        integer, intent(in) :: n
        type(MPI_Request), intent(in) :: reqs_in(*)
        type(MPI_Request), intent(out), asynchronous :: reqs_out(*)
        type(MPI_Info), intent(in) :: infos(*)
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Ibind_channels
end interface
interface
    subroutine MPIX_Bind_slack_channel(req_in, req_out, slack, info, ierror) &
            bind(C, name="MPIX_Bind_slack_channel_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        type(MPI_Request), intent(in) :: req_in
        type(MPI_Request), intent(out) :: req_out
        integer, intent(in) :: slack
        type(MPI_Info), intent(in) :: info
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Bind_slack_channel
end interface
interface
    subroutine MPIX_Ibind_slack_channel(req_in, req_out, slack, info, ierror) &
            bind(C, name="MPIX_Ibind_slack_channel_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        type(MPI_Request), intent(in) :: req_in
        type(MPI_Request), intent(out), asynchronous :: req_out
        integer, intent(in) :: slack
        type(MPI_Info), intent(in) :: info
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Ibind_slack_channel
end interface
interface
    subroutine MPIX_Bind_slack_channels(n, reqs_in, reqs_out, slacks, infos, &
        ierror) &
            bind(C, name="MPIX_Bind_slack_channels_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        integer, intent(in) :: n
        type(MPI_Request), intent(in) :: reqs_in(*)
        type(MPI_Request), intent(out) :: reqs_out(*)
        integer, intent(in) :: slacks(*)
        type(MPI_Info), intent(in) :: infos(*)
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Bind_slack_channels
end interface
interface
    subroutine MPIX_Ibind_slack_channels(n, reqs_in, reqs_out, slacks, infos, &
        ierror) &
            bind(C, name="MPIX_Ibind_slack_channels_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        integer, intent(in) :: n
        type(MPI_Request), intent(in) :: reqs_in(*)
        type(MPI_Request), intent(out), asynchronous :: reqs_out(*)
        integer, intent(in) :: slacks(*)
        type(MPI_Info), intent(in) :: infos(*)
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Ibind_slack_channels
end interface
interface
    subroutine MPIX_Unbind_channel(chan, ierror) &
            bind(C, name="MPIX_Unbind_channel_f08")
        use :: mpi_f08_types, only : MPI_Request
        implicit none
        type(MPI_Request), intent(inout) :: chan
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Unbind_channel
end interface
interface
    subroutine MPIX_Iunbind_channel(chan, info, ierror) &
            bind(C, name="MPIX_Iunbind_channel_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        type(MPI_Request), intent(inout) :: chan
        type(MPI_Info), intent(in) :: info
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Iunbind_channel
end interface
interface
    subroutine MPIX_Unbind_channels(n, chans, ierror) &
            bind(C, name="MPIX_Unbind_channels_f08")
        use :: mpi_f08_types, only : MPI_Request
        implicit none
        integer, intent(in) :: n
        type(MPI_Request), intent(inout) :: chans(*)
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Unbind_channels
end interface
interface
    subroutine MPIX_Iunbind_channels(n, chans, infos, ierror) &
            bind(C, name="MPIX_Iunbind_channels_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        integer, intent(in) :: n
        type(MPI_Request), intent(inout) :: chans(*)
        type(MPI_Info), intent(in) :: infos(*)
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Iunbind_channels
end interface
interface
    subroutine MPIX_Bundle_init(nrounds, round_sizes, members, info, bundle, &
        ierror) &
            bind(C, name="MPIX_Bundle_init_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Request
        implicit none
        integer, intent(in) :: nrounds
        integer, intent(in) :: round_sizes(*)
        type(MPI_Request), intent(in) :: members(*)
        type(MPI_Info), intent(in) :: info
        type(MPI_Request), intent(out) :: bundle
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Bundle_init
end interface
interface
    subroutine MPIX_Grequest_persistent_init(start_fn, poll_fn, free_fn, &
        extra_state, request, ierror) &
            bind(C, name="MPIX_Grequest_persistent_init_f08")
        use :: mpi_f08_types, only : MPI_Request
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        import :: MPIX_Grequest_start_function, MPIX_Grequest_poll_function
        implicit none
        procedure(MPIX_Grequest_start_function) :: start_fn
        procedure(MPIX_Grequest_poll_function) :: poll_fn
        procedure(MPIX_Grequest_start_function) :: free_fn
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
        type(MPI_Request), intent(out) :: request
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Grequest_persistent_init
end interface

! The profiling entry points: the same interfaces, other symbols.
procedure(MPIX_Bind_channel), bind(C, name="PMPIX_Bind_channel_f08") :: PMPIX_Bind_channel
procedure(MPIX_Ibind_channel), bind(C, name="PMPIX_Ibind_channel_f08") :: PMPIX_Ibind_channel
procedure(MPIX_Bind_channels), bind(C, name="PMPIX_Bind_channels_f08") :: PMPIX_Bind_channels
procedure(MPIX_Ibind_channels), bind(C, name="PMPIX_Ibind_channels_f08") :: PMPIX_Ibind_channels
procedure(MPIX_Bind_slack_channel), bind(C, name="PMPIX_Bind_slack_channel_f08") :: PMPIX_Bind_slack_channel
procedure(MPIX_Ibind_slack_channel), bind(C, name="PMPIX_Ibind_slack_channel_f08") :: PMPIX_Ibind_slack_channel
procedure(MPIX_Bind_slack_channels), bind(C, name="PMPIX_Bind_slack_channels_f08") :: PMPIX_Bind_slack_channels
procedure(MPIX_Ibind_slack_channels), bind(C, name="PMPIX_Ibind_slack_channels_f08") :: PMPIX_Ibind_slack_channels
procedure(MPIX_Unbind_channel), bind(C, name="PMPIX_Unbind_channel_f08") :: PMPIX_Unbind_channel
procedure(MPIX_Iunbind_channel), bind(C, name="PMPIX_Iunbind_channel_f08") :: PMPIX_Iunbind_channel
procedure(MPIX_Unbind_channels), bind(C, name="PMPIX_Unbind_channels_f08") :: PMPIX_Unbind_channels
procedure(MPIX_Iunbind_channels), bind(C, name="PMPIX_Iunbind_channels_f08") :: PMPIX_Iunbind_channels
procedure(MPIX_Bundle_init), bind(C, name="PMPIX_Bundle_init_f08") :: PMPIX_Bundle_init
procedure(MPIX_Grequest_persistent_init), bind(C, name="PMPIX_Grequest_persistent_init_f08") :: PMPIX_Grequest_persistent_init
