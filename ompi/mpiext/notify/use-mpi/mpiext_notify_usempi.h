! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! Notified RMA for use mpi: the body of the mpi_ext module (Open MPI tree)
! and of ompix's ompix module (plugin build); mpiext_notify_mpifh.h
! comes first.  Every interface is one C function of ../mpif-h.
! Buffers take any type and rank (assumed type; gfortran's NO_ARG_CHECK
! also lets a scalar through, as Open MPI's own interfaces do).

interface
    subroutine MPIX_Win_read_notify(origin_addr, origin_count, origin_type, &
        target_rank, target_disp, target_count, target_type, id, win, ierror)
        use :: mpi, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*) :: origin_addr
        integer, intent(in) :: origin_count
        integer, intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        integer, intent(in) :: target_type
        integer, intent(in) :: id
        integer, intent(in) :: win
        integer, intent(out) :: ierror
    end subroutine MPIX_Win_read_notify
end interface
interface
    subroutine MPIX_Put_notify(origin_addr, origin_count, origin_type, &
        target_rank, target_disp, target_count, target_type, id, win, ierror)
        use :: mpi, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*), intent(in) :: origin_addr
        integer, intent(in) :: origin_count
        integer, intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        integer, intent(in) :: target_type
        integer, intent(in) :: id
        integer, intent(in) :: win
        integer, intent(out) :: ierror
    end subroutine MPIX_Put_notify
end interface
interface
    subroutine MPIX_Accumulate_notify(origin_addr, origin_count, origin_type, &
        target_rank, target_disp, target_count, target_type, op, id, win, &
        ierror)
        use :: mpi, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*), intent(in) :: origin_addr
        integer, intent(in) :: origin_count
        integer, intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        integer, intent(in) :: target_type
        integer, intent(in) :: op
        integer, intent(in) :: id
        integer, intent(in) :: win
        integer, intent(out) :: ierror
    end subroutine MPIX_Accumulate_notify
end interface
interface
    subroutine MPIX_Win_notify_waitsome(win, first, num, timeout_ms, id, &
        ierror)
        implicit none
        integer, intent(in) :: win
        integer, intent(in) :: first
        integer, intent(in) :: num
        integer, intent(in) :: timeout_ms
        integer, intent(out) :: id
        integer, intent(out) :: ierror
    end subroutine MPIX_Win_notify_waitsome
end interface
interface
    subroutine MPIX_Win_notify_reset(win, id, old, ierror)
        use :: mpi, only : MPI_COUNT_KIND
        implicit none
        integer, intent(in) :: win
        integer, intent(in) :: id
        integer(kind=MPI_COUNT_KIND), intent(out) :: old
        integer, intent(out) :: ierror
    end subroutine MPIX_Win_notify_reset
end interface
interface
    subroutine MPIX_Win_set_num_notify(win, info, n, ierror)
        implicit none
        integer, intent(in) :: win
        integer, intent(in) :: info
        integer, intent(in) :: n
        integer, intent(out) :: ierror
    end subroutine MPIX_Win_set_num_notify
end interface
interface
    subroutine MPIX_Win_get_num_notify(win, n, ierror)
        implicit none
        integer, intent(in) :: win
        integer, intent(out) :: n
        integer, intent(out) :: ierror
    end subroutine MPIX_Win_get_num_notify
end interface
interface
    subroutine MPIX_Win_notify_init(win, id, request, ierror)
        implicit none
        integer, intent(in) :: win
        integer, intent(in) :: id
        integer, intent(out) :: request
        integer, intent(out) :: ierror
    end subroutine MPIX_Win_notify_init
end interface

! The MPI Forum draft's calls.
interface
    subroutine MPIX_Get_accumulate_notify(origin_addr, origin_count, &
        origin_type, result_addr, result_count, result_type, target_rank, &
        target_disp, target_count, target_type, op, id, win, ierror)
        use :: mpi, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
        type(*), dimension(*), intent(in) :: origin_addr
        integer, intent(in) :: origin_count
        integer, intent(in) :: origin_type
        type(*), dimension(*) :: result_addr
        integer, intent(in) :: result_count
        integer, intent(in) :: result_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        integer, intent(in) :: target_type
        integer, intent(in) :: op
        integer, intent(in) :: id
        integer, intent(in) :: win
        integer, intent(out) :: ierror
    end subroutine MPIX_Get_accumulate_notify
end interface
interface
    subroutine MPIX_Rput_notify(origin_addr, origin_count, origin_type, &
        target_rank, target_disp, target_count, target_type, id, win, &
        request, ierror)
        use :: mpi, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*) :: origin_addr
        integer, intent(in) :: origin_count
        integer, intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        integer, intent(in) :: target_type
        integer, intent(in) :: id
        integer, intent(in) :: win
        integer, intent(out) :: request
        integer, intent(out) :: ierror
    end subroutine MPIX_Rput_notify
end interface
interface
    subroutine MPIX_Raccumulate_notify(origin_addr, origin_count, &
        origin_type, target_rank, target_disp, target_count, target_type, &
        op, id, win, request, ierror)
        use :: mpi, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*), intent(in) :: origin_addr
        integer, intent(in) :: origin_count
        integer, intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        integer, intent(in) :: target_type
        integer, intent(in) :: op
        integer, intent(in) :: id
        integer, intent(in) :: win
        integer, intent(out) :: request
        integer, intent(out) :: ierror
    end subroutine MPIX_Raccumulate_notify
end interface
interface
    subroutine MPIX_Rget_accumulate_notify(origin_addr, origin_count, &
        origin_type, result_addr, result_count, result_type, target_rank, &
        target_disp, target_count, target_type, op, id, win, request, &
        ierror)
        use :: mpi, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
        type(*), dimension(*), intent(in) :: origin_addr
        integer, intent(in) :: origin_count
        integer, intent(in) :: origin_type
        type(*), dimension(*) :: result_addr
        integer, intent(in) :: result_count
        integer, intent(in) :: result_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        integer, intent(in) :: target_type
        integer, intent(in) :: op
        integer, intent(in) :: id
        integer, intent(in) :: win
        integer, intent(out) :: request
        integer, intent(out) :: ierror
    end subroutine MPIX_Rget_accumulate_notify
end interface
interface
    subroutine MPIX_Win_notify_threshold(win, id, threshold, timeout_ms, &
        value, ierror)
        use :: mpi, only : MPI_COUNT_KIND
        implicit none
        integer, intent(in) :: win
        integer, intent(in) :: id
        integer(kind=MPI_COUNT_KIND), intent(in) :: threshold
        integer, intent(in) :: timeout_ms
        integer(kind=MPI_COUNT_KIND), intent(out) :: value
        integer, intent(out) :: ierror
    end subroutine MPIX_Win_notify_threshold
end interface

! Functions whose arguments are those of another one.
! (MPIX_Rput_notify's buffer has no INTENT(IN), so that MPIX_Rget_notify
! shares its interface, as MPIX_Get_notify shares MPIX_Win_read_notify's.)
procedure(MPIX_Rput_notify) :: MPIX_Rget_notify
procedure(MPIX_Win_read_notify) :: MPIX_Get_notify
procedure(MPIX_Win_notify_reset) :: MPIX_Win_get_notify_value
procedure(MPIX_Win_notify_reset) :: MPIX_Win_reset_notify_value

! The profiling entry points: the same interfaces, other symbols.
procedure(MPIX_Win_read_notify) :: PMPIX_Win_read_notify
procedure(MPIX_Put_notify) :: PMPIX_Put_notify
procedure(MPIX_Accumulate_notify) :: PMPIX_Accumulate_notify
procedure(MPIX_Win_notify_waitsome) :: PMPIX_Win_notify_waitsome
procedure(MPIX_Win_notify_reset) :: PMPIX_Win_notify_reset
procedure(MPIX_Win_set_num_notify) :: PMPIX_Win_set_num_notify
procedure(MPIX_Win_get_num_notify) :: PMPIX_Win_get_num_notify
procedure(MPIX_Win_notify_init) :: PMPIX_Win_notify_init
procedure(MPIX_Win_read_notify) :: PMPIX_Get_notify
procedure(MPIX_Win_notify_reset) :: PMPIX_Win_get_notify_value
procedure(MPIX_Get_accumulate_notify) :: PMPIX_Get_accumulate_notify
procedure(MPIX_Rput_notify) :: PMPIX_Rput_notify
procedure(MPIX_Rput_notify) :: PMPIX_Rget_notify
procedure(MPIX_Raccumulate_notify) :: PMPIX_Raccumulate_notify
procedure(MPIX_Rget_accumulate_notify) :: PMPIX_Rget_accumulate_notify
procedure(MPIX_Win_notify_threshold) :: PMPIX_Win_notify_threshold
procedure(MPIX_Win_notify_reset) :: PMPIX_Win_reset_notify_value
