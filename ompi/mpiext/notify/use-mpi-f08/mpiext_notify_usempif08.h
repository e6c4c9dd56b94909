! -*- fortran -*-
! Copyright (c) 2026 The ompix developers.
!
! Notified RMA for use mpi_f08: the body of the mpi_f08_ext module (Open MPI tree)
! and of ompix's ompix_f08 module (plugin build); mpiext_notify_mpifh.h
! comes first.  Every interface is one C function of ../mpif-h,
! called directly (bind(C)); an absent ierror arrives as NULL.
! Buffers take any type and rank (assumed type; gfortran's NO_ARG_CHECK
! also lets a scalar through, as Open MPI's own interfaces do).

interface
    subroutine MPIX_Win_read_notify(origin_addr, origin_count, origin_type, &
        target_rank, target_disp, target_count, target_type, id, win, ierror) &
            bind(C, name="MPIX_Win_read_notify_f08")
        use :: mpi_f08_types, only : MPI_Datatype, MPI_Win
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*), asynchronous :: origin_addr
        integer, intent(in) :: origin_count
        type(MPI_Datatype), intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        type(MPI_Datatype), intent(in) :: target_type
        integer, intent(in) :: id
        type(MPI_Win), intent(in) :: win
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Win_read_notify
end interface
interface
    subroutine MPIX_Put_notify(origin_addr, origin_count, origin_type, &
        target_rank, target_disp, target_count, target_type, id, win, ierror) &
            bind(C, name="MPIX_Put_notify_f08")
        use :: mpi_f08_types, only : MPI_Datatype, MPI_Win
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*), intent(in), asynchronous :: origin_addr
        integer, intent(in) :: origin_count
        type(MPI_Datatype), intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        type(MPI_Datatype), intent(in) :: target_type
        integer, intent(in) :: id
        type(MPI_Win), intent(in) :: win
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Put_notify
end interface
interface
    subroutine MPIX_Accumulate_notify(origin_addr, origin_count, origin_type, &
        target_rank, target_disp, target_count, target_type, op, id, win, &
        ierror) &
            bind(C, name="MPIX_Accumulate_notify_f08")
        use :: mpi_f08_types, only : MPI_Datatype, MPI_Op, MPI_Win
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*), intent(in), asynchronous :: origin_addr
        integer, intent(in) :: origin_count
        type(MPI_Datatype), intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        type(MPI_Datatype), intent(in) :: target_type
        type(MPI_Op), intent(in) :: op
        integer, intent(in) :: id
        type(MPI_Win), intent(in) :: win
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Accumulate_notify
end interface
interface
    subroutine MPIX_Win_notify_waitsome(win, first, num, timeout_ms, id, &
        ierror) &
            bind(C, name="MPIX_Win_notify_waitsome_f08")
        use :: mpi_f08_types, only : MPI_Win
        implicit none
        type(MPI_Win), intent(in) :: win
        integer, intent(in) :: first
        integer, intent(in) :: num
        integer, intent(in) :: timeout_ms
        integer, intent(out) :: id
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Win_notify_waitsome
end interface
interface
    subroutine MPIX_Win_notify_reset(win, id, old, ierror) &
            bind(C, name="MPIX_Win_notify_reset_f08")
        use :: mpi_f08_types, only : MPI_Win
        use :: mpi_f08_types, only : MPI_COUNT_KIND
        implicit none
        type(MPI_Win), intent(in) :: win
        integer, intent(in) :: id
        integer(kind=MPI_COUNT_KIND), intent(out) :: old
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Win_notify_reset
end interface
interface
    subroutine MPIX_Win_set_num_notify(win, info, n, ierror) &
            bind(C, name="MPIX_Win_set_num_notify_f08")
        use :: mpi_f08_types, only : MPI_Info, MPI_Win
        implicit none
        type(MPI_Win), intent(in) :: win
        type(MPI_Info), intent(in) :: info
        integer, intent(in) :: n
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Win_set_num_notify
end interface
interface
    subroutine MPIX_Win_get_num_notify(win, n, ierror) &
            bind(C, name="MPIX_Win_get_num_notify_f08")
        use :: mpi_f08_types, only : MPI_Win
        implicit none
        type(MPI_Win), intent(in) :: win
        integer, intent(out) :: n
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Win_get_num_notify
end interface
interface
    subroutine MPIX_Win_notify_init(win, id, request, ierror) &
            bind(C, name="MPIX_Win_notify_init_f08")
        use :: mpi_f08_types, only : MPI_Request, MPI_Win
        implicit none
        type(MPI_Win), intent(in) :: win
        integer, intent(in) :: id
        type(MPI_Request), intent(out) :: request
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Win_notify_init
end interface

! The MPI Forum draft's calls.
interface
    subroutine MPIX_Get_accumulate_notify(origin_addr, origin_count, &
        origin_type, result_addr, result_count, result_type, target_rank, &
        target_disp, target_count, target_type, op, id, win, ierror) &
            bind(C, name="MPIX_Get_accumulate_notify_f08")
        use :: mpi_f08_types, only : MPI_Datatype, MPI_Op, MPI_Win
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
        type(*), dimension(*), intent(in), asynchronous :: origin_addr
        integer, intent(in) :: origin_count
        type(MPI_Datatype), intent(in) :: origin_type
        type(*), dimension(*), asynchronous :: result_addr
        integer, intent(in) :: result_count
        type(MPI_Datatype), intent(in) :: result_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        type(MPI_Datatype), intent(in) :: target_type
        type(MPI_Op), intent(in) :: op
        integer, intent(in) :: id
        type(MPI_Win), intent(in) :: win
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Get_accumulate_notify
end interface
interface
    subroutine MPIX_Rput_notify(origin_addr, origin_count, origin_type, &
        target_rank, target_disp, target_count, target_type, id, win, &
        request, ierror) &
            bind(C, name="MPIX_Rput_notify_f08")
        use :: mpi_f08_types, only : MPI_Datatype, MPI_Request, MPI_Win
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*), asynchronous :: origin_addr
        integer, intent(in) :: origin_count
        type(MPI_Datatype), intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        type(MPI_Datatype), intent(in) :: target_type
        integer, intent(in) :: id
        type(MPI_Win), intent(in) :: win
        type(MPI_Request), intent(out) :: request
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Rput_notify
end interface
interface
    subroutine MPIX_Raccumulate_notify(origin_addr, origin_count, &
        origin_type, target_rank, target_disp, target_count, target_type, &
        op, id, win, request, ierror) &
            bind(C, name="MPIX_Raccumulate_notify_f08")
        use :: mpi_f08_types, only : MPI_Datatype, MPI_Op, MPI_Request, MPI_Win
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        type(*), dimension(*), intent(in), asynchronous :: origin_addr
        integer, intent(in) :: origin_count
        type(MPI_Datatype), intent(in) :: origin_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        type(MPI_Datatype), intent(in) :: target_type
        type(MPI_Op), intent(in) :: op
        integer, intent(in) :: id
        type(MPI_Win), intent(in) :: win
        type(MPI_Request), intent(out) :: request
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Raccumulate_notify
end interface
interface
    subroutine MPIX_Rget_accumulate_notify(origin_addr, origin_count, &
        origin_type, result_addr, result_count, result_type, target_rank, &
        target_disp, target_count, target_type, op, id, win, request, &
        ierror) &
            bind(C, name="MPIX_Rget_accumulate_notify_f08")
        use :: mpi_f08_types, only : MPI_Datatype, MPI_Op, MPI_Request, MPI_Win
        use :: mpi_f08_types, only : MPI_ADDRESS_KIND
        implicit none
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: origin_addr
        !GCC$ ATTRIBUTES NO_ARG_CHECK :: result_addr
        type(*), dimension(*), intent(in), asynchronous :: origin_addr
        integer, intent(in) :: origin_count
        type(MPI_Datatype), intent(in) :: origin_type
        type(*), dimension(*), asynchronous :: result_addr
        integer, intent(in) :: result_count
        type(MPI_Datatype), intent(in) :: result_type
        integer, intent(in) :: target_rank
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
        integer, intent(in) :: target_count
        type(MPI_Datatype), intent(in) :: target_type
        type(MPI_Op), intent(in) :: op
        integer, intent(in) :: id
        type(MPI_Win), intent(in) :: win
        type(MPI_Request), intent(out) :: request
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Rget_accumulate_notify
end interface
interface
    subroutine MPIX_Win_notify_threshold(win, id, threshold, timeout_ms, &
        value, ierror) &
            bind(C, name="MPIX_Win_notify_threshold_f08")
        use :: mpi_f08_types, only : MPI_Win
        use :: mpi_f08_types, only : MPI_COUNT_KIND
        implicit none
        type(MPI_Win), intent(in) :: win
        integer, intent(in) :: id
        integer(kind=MPI_COUNT_KIND), intent(in) :: threshold
        integer, intent(in) :: timeout_ms
        integer(kind=MPI_COUNT_KIND), intent(out) :: value
        integer, optional, intent(out) :: ierror
    end subroutine MPIX_Win_notify_threshold
end interface

! Functions whose arguments are those of another one.
! (MPIX_Rput_notify's buffer has no INTENT(IN), so that MPIX_Rget_notify
! shares its interface, as MPIX_Get_notify shares MPIX_Win_read_notify's.)
procedure(MPIX_Rput_notify), bind(C, name="MPIX_Rget_notify_f08") :: MPIX_Rget_notify
procedure(MPIX_Win_read_notify), bind(C, name="MPIX_Get_notify_f08") :: MPIX_Get_notify
procedure(MPIX_Win_notify_reset), bind(C, name="MPIX_Win_get_notify_value_f08") :: MPIX_Win_get_notify_value
procedure(MPIX_Win_notify_reset), bind(C, name="MPIX_Win_reset_notify_value_f08") :: MPIX_Win_reset_notify_value

! The profiling entry points: the same interfaces, other symbols.
procedure(MPIX_Win_read_notify), bind(C, name="PMPIX_Win_read_notify_f08") :: PMPIX_Win_read_notify
procedure(MPIX_Put_notify), bind(C, name="PMPIX_Put_notify_f08") :: PMPIX_Put_notify
procedure(MPIX_Accumulate_notify), bind(C, name="PMPIX_Accumulate_notify_f08") :: PMPIX_Accumulate_notify
procedure(MPIX_Win_notify_waitsome), bind(C, name="PMPIX_Win_notify_waitsome_f08") :: PMPIX_Win_notify_waitsome
procedure(MPIX_Win_notify_reset), bind(C, name="PMPIX_Win_notify_reset_f08") :: PMPIX_Win_notify_reset
procedure(MPIX_Win_set_num_notify), bind(C, name="PMPIX_Win_set_num_notify_f08") :: PMPIX_Win_set_num_notify
procedure(MPIX_Win_get_num_notify), bind(C, name="PMPIX_Win_get_num_notify_f08") :: PMPIX_Win_get_num_notify
procedure(MPIX_Win_notify_init), bind(C, name="PMPIX_Win_notify_init_f08") :: PMPIX_Win_notify_init
procedure(MPIX_Win_read_notify), bind(C, name="PMPIX_Get_notify_f08") :: PMPIX_Get_notify
procedure(MPIX_Win_notify_reset), bind(C, name="PMPIX_Win_get_notify_value_f08") :: PMPIX_Win_get_notify_value
procedure(MPIX_Get_accumulate_notify), bind(C, name="PMPIX_Get_accumulate_notify_f08") :: PMPIX_Get_accumulate_notify
procedure(MPIX_Rput_notify), bind(C, name="PMPIX_Rput_notify_f08") :: PMPIX_Rput_notify
procedure(MPIX_Rput_notify), bind(C, name="PMPIX_Rget_notify_f08") :: PMPIX_Rget_notify
procedure(MPIX_Raccumulate_notify), bind(C, name="PMPIX_Raccumulate_notify_f08") :: PMPIX_Raccumulate_notify
procedure(MPIX_Rget_accumulate_notify), bind(C, name="PMPIX_Rget_accumulate_notify_f08") :: PMPIX_Rget_accumulate_notify
procedure(MPIX_Win_notify_threshold), bind(C, name="PMPIX_Win_notify_threshold_f08") :: PMPIX_Win_notify_threshold
procedure(MPIX_Win_notify_reset), bind(C, name="PMPIX_Win_reset_notify_value_f08") :: PMPIX_Win_reset_notify_value
