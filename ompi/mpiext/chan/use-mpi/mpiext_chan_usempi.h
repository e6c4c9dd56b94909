! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! Channels for use mpi: the body of the mpi_ext module (Open MPI tree) and of
! ompix's ompix module (plugin build); mpiext_chan_mpifh.h comes first.
! Every interface is one C function of ../mpif-h.

#include "mpiext_chan_callbacks.h"

interface
    subroutine MPIX_Bind_channel(req_in, req_out, info, ierror)
        implicit none
        integer, intent(in) :: req_in
        integer, intent(out) :: req_out
        integer, intent(in) :: info
        integer, intent(out) :: ierror
    end subroutine MPIX_Bind_channel
end interface
interface
    subroutine MPIX_Ibind_channel(req_in, req_out, info, ierror)
        implicit none
        integer, intent(in) :: req_in
        integer, intent(out), asynchronous :: req_out
        integer, intent(in) :: info
        integer, intent(out) :: ierror
    end subroutine MPIX_Ibind_channel
end interface
interface
    subroutine MPIX_Bind_channels(n, reqs_in, reqs_out, infos, ierror)
        implicit none
        integer, intent(in) :: n
        integer, intent(in) :: reqs_in(*)
        integer, intent(out) :: reqs_out(*)
        integer, intent(in) :: infos(*)
        integer, intent(out) :: ierror
    end subroutine MPIX_Bind_channels
end interface
interface
    subroutine MPIX_Ibind_channels(n, reqs_in, reqs_out, infos, ierror)
        implicit none
        integer, intent(in) :: n
        integer, intent(in) :: reqs_in(*)
        integer, intent(out), asynchronous :: reqs_out(*)
        integer, intent(in) :: infos(*)
        integer, intent(out) :: ierror
    end subroutine MPIX_Ibind_channels
end interface
interface
    subroutine MPIX_Bind_slack_channel(req_in, req_out, slack, info, ierror)
        implicit none
        integer, intent(in) :: req_in
        integer, intent(out) :: req_out
        integer, intent(in) :: slack
        integer, intent(in) :: info
        integer, intent(out) :: ierror
    end subroutine MPIX_Bind_slack_channel
end interface
interface
    subroutine MPIX_Ibind_slack_channel(req_in, req_out, slack, info, ierror)
        implicit none
        integer, intent(in) :: req_in
        integer, intent(out), asynchronous :: req_out
        integer, intent(in) :: slack
        integer, intent(in) :: info
        integer, intent(out) :: ierror
    end subroutine MPIX_Ibind_slack_channel
end interface
interface
    subroutine MPIX_Bind_slack_channels(n, reqs_in, reqs_out, slacks, infos, &
        ierror)
        implicit none
        integer, intent(in) :: n
        integer, intent(in) :: reqs_in(*)
        integer, intent(out) :: reqs_out(*)
        integer, intent(in) :: slacks(*)
        integer, intent(in) :: infos(*)
        integer, intent(out) :: ierror
    end subroutine MPIX_Bind_slack_channels
end interface
interface
    subroutine MPIX_Ibind_slack_channels(n, reqs_in, reqs_out, slacks, infos, &
        ierror)
        implicit none
        integer, intent(in) :: n
        integer, intent(in) :: reqs_in(*)
        integer, intent(out), asynchronous :: reqs_out(*)
        integer, intent(in) :: slacks(*)
        integer, intent(in) :: infos(*)
        integer, intent(out) :: ierror
    end subroutine MPIX_Ibind_slack_channels
end interface
interface
    subroutine MPIX_Unbind_channel(chan, ierror)
        implicit none
        integer, intent(inout) :: chan
        integer, intent(out) :: ierror
    end subroutine MPIX_Unbind_channel
end interface
interface
    subroutine MPIX_Iunbind_channel(chan, info, ierror)
        implicit none
        integer, intent(inout) :: chan
        integer, intent(in) :: info
        integer, intent(out) :: ierror
    end subroutine MPIX_Iunbind_channel
end interface
interface
    subroutine MPIX_Unbind_channels(n, chans, ierror)
        implicit none
        integer, intent(in) :: n
        integer, intent(inout) :: chans(*)
        integer, intent(out) :: ierror
    end subroutine MPIX_Unbind_channels
end interface
interface
    subroutine MPIX_Iunbind_channels(n, chans, infos, ierror)
        implicit none
        integer, intent(in) :: n
        integer, intent(inout) :: chans(*)
        integer, intent(in) :: infos(*)
        integer, intent(out) :: ierror
    end subroutine MPIX_Iunbind_channels
end interface
interface
    subroutine MPIX_Bundle_init(nrounds, round_sizes, members, info, bundle, &
        ierror)
        implicit none
        integer, intent(in) :: nrounds
        integer, intent(in) :: round_sizes(*)
        integer, intent(in) :: members(*)
        integer, intent(in) :: info
        integer, intent(out) :: bundle
        integer, intent(out) :: ierror
    end subroutine MPIX_Bundle_init
end interface
interface
    subroutine MPIX_Grequest_persistent_init(start_fn, poll_fn, free_fn, &
        extra_state, request, ierror)
        use :: mpi, only : MPI_ADDRESS_KIND
        import :: MPIX_Grequest_start_function, MPIX_Grequest_poll_function
        implicit none
        procedure(MPIX_Grequest_start_function) :: start_fn
        procedure(MPIX_Grequest_poll_function) :: poll_fn
        procedure(MPIX_Grequest_start_function) :: free_fn
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
        integer, intent(out) :: request
        integer, intent(out) :: ierror
    end subroutine MPIX_Grequest_persistent_init
end interface

! The profiling entry points: the same interfaces, other symbols.
procedure(MPIX_Bind_channel) :: PMPIX_Bind_channel
procedure(MPIX_Ibind_channel) :: PMPIX_Ibind_channel
procedure(MPIX_Bind_channels) :: PMPIX_Bind_channels
procedure(MPIX_Ibind_channels) :: PMPIX_Ibind_channels
procedure(MPIX_Bind_slack_channel) :: PMPIX_Bind_slack_channel
procedure(MPIX_Ibind_slack_channel) :: PMPIX_Ibind_slack_channel
procedure(MPIX_Bind_slack_channels) :: PMPIX_Bind_slack_channels
procedure(MPIX_Ibind_slack_channels) :: PMPIX_Ibind_slack_channels
procedure(MPIX_Unbind_channel) :: PMPIX_Unbind_channel
procedure(MPIX_Iunbind_channel) :: PMPIX_Iunbind_channel
procedure(MPIX_Unbind_channels) :: PMPIX_Unbind_channels
procedure(MPIX_Iunbind_channels) :: PMPIX_Iunbind_channels
procedure(MPIX_Bundle_init) :: PMPIX_Bundle_init
procedure(MPIX_Grequest_persistent_init) :: PMPIX_Grequest_persistent_init
