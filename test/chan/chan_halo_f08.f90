! ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=120
!
! The Fortran bindings (use mpi_f08, ompix_f08): a 1-D halo exchange with
! non-periodic boundaries, the ends' requests to MPI_PROC_NULL, its four
! persistent requests bound into channels with one MPIX_Bind_channels
! (ierror left out) and unbound with MPIX_Unbind_channels, then bound
! again with MPIX_Ibind_channels, completed by MPI_Waitall on the four
! requests (the channels' Fortran handles are stored then), used and
! unbound.  Every rank checks its halos against its neighbours' values on
! every iteration, then
! the error path: a bind of a request that is not persistent returns
! MPI_ERR_REQUEST through ierror (MPI_ERRORS_RETURN) and leaves the output
! MPI_REQUEST_NULL.
program chan_halo_f08
    use ompix_test_f
    use mpi_f08
    use ompix_f08
    implicit none
    integer, parameter :: n = 8, iters = 50
    integer, asynchronous :: u(0:n+1)   ! used by MPI between calls
    type(MPI_Request) :: reqs(4), bad(1), out(1)
    type(MPI_Request), asynchronous :: chans(4)   ! MPIX_Ibind_channels stores them later
    type(MPI_Info) :: infos(4)
    integer :: rank, size, left, right, it, ierr, eclass, errs, round

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    left = merge(MPI_PROC_NULL, rank - 1, rank == 0)
    right = merge(MPI_PROC_NULL, rank + 1, rank == size - 1)
    call MPI_Recv_init(u(0), 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, reqs(1))
    call MPI_Recv_init(u(n+1), 1, MPI_INTEGER, right, 2, MPI_COMM_WORLD, reqs(2))
    call MPI_Ssend_init(u(1), 1, MPI_INTEGER, left, 2, MPI_COMM_WORLD, reqs(3))
    call MPI_Ssend_init(u(n), 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, reqs(4))
    infos = MPI_INFO_NULL
    ierr = MPI_SUCCESS
    errs = 0
    do round = 1, 2
        if (round == 1) then
            call MPIX_Bind_channels(4, reqs, chans, infos)
        else
            call MPIX_Ibind_channels(4, reqs, chans, infos, ierr)
            call MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE)
        end if
        if (ierr /= MPI_SUCCESS .or. any(chans == MPI_REQUEST_NULL)) errs = errs + 1
        do it = 1, iters
            call exchange(it)
        end do
        call MPIX_Unbind_channels(4, chans, ierr)
        if (ierr /= MPI_SUCCESS .or. any(chans /= MPI_REQUEST_NULL)) errs = errs + 1
    end do

    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Irecv(u(0), 1, MPI_INTEGER, MPI_PROC_NULL, 3, MPI_COMM_WORLD, bad(1))
    call MPIX_Bind_channel(bad(1), out(1), MPI_INFO_NULL, ierr)
    if (ierr == MPI_SUCCESS .or. out(1) /= MPI_REQUEST_NULL) errs = errs + 1
    call MPI_Error_class(ierr, eclass)
    if (eclass /= MPI_ERR_REQUEST) errs = errs + 1
    call MPI_Wait(bad(1), MPI_STATUS_IGNORE)

    do it = 1, 4
        call MPI_Request_free(reqs(it))
    end do
    call ompix_test_finish('chan_halo_f08', errs)

contains

    subroutine exchange(it)
        integer, intent(in) :: it

        u = -1
        u(1) = value(rank, it, 1)
        u(n) = value(rank, it, n)
        call MPI_Startall(4, chans)
        call MPI_Waitall(4, chans, MPI_STATUSES_IGNORE)
        if (left /= MPI_PROC_NULL .and. u(0) /= value(left, it, n)) errs = errs + 1
        if (right /= MPI_PROC_NULL .and. u(n+1) /= value(right, it, 1)) errs = errs + 1
        if (left == MPI_PROC_NULL .and. u(0) /= -1) errs = errs + 1
    end subroutine exchange

    integer function value(r, it, i)
        integer, intent(in) :: r, it, i
        value = r * 1000 + it * 10 + i
    end function value

end program chan_halo_f08
