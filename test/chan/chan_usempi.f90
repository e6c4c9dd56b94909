! ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=60
!
! The use mpi bindings (use mpi, use ompix) and the Fortran profiling
! entry points: pairs of ranks bind an Ssend/Recv pair with
! MPIX_Bind_slack_channels (slack 2, address_base_increment 1 through
! MPIX_CHAN_INFO_ADDRESS_BASE_INCREMENT: each start moves the buffer by one
! element), exchange a few messages and unbind with MPIX_Iunbind_channels;
! PMPIX_Bind_channel, the profiling name, binds a second pair.  The data
! and every ierror are checked, and a negative count is refused with an
! error (MPI_ERRORS_RETURN) instead of touching the arrays.
program chan_usempi
    use ompix_test_f
    use mpi
    use ompix
    implicit none
    integer, parameter :: slack = 2, iters = 6
    integer, asynchronous :: buf(0:slack - 1), one   ! used by MPI between calls
    integer :: rank, size, peer, ierr, it, errs
    integer :: reqs(1), chans(1), slacks(1), infos(1), req2, chan2, st(MPI_STATUS_SIZE)
    logical :: sender

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    sender = mod(rank, 2) == 0
    peer = merge(rank + 1, rank - 1, sender)
    errs = 0
    buf = -1
    if (sender) then
        call MPI_Ssend_init(buf(0), 1, MPI_INTEGER, peer, 1, MPI_COMM_WORLD, reqs(1), ierr)
    else
        call MPI_Recv_init(buf(0), 1, MPI_INTEGER, peer, 1, MPI_COMM_WORLD, reqs(1), ierr)
    end if
    call MPI_Info_create(infos(1), ierr)
    call MPI_Info_set(infos(1), MPIX_CHAN_INFO_ADDRESS_BASE_INCREMENT, '1', ierr)
    slacks(1) = slack
    call MPIX_Bind_slack_channels(1, reqs, chans, slacks, infos, ierr)
    if (ierr /= MPI_SUCCESS) errs = errs + 1
    do it = 0, iters - 1
        if (sender) buf(mod(it, slack)) = 1000 * rank + it
        call MPI_Start(chans(1), ierr)
        call MPI_Wait(chans(1), st, ierr)
        if (.not. sender .and. buf(mod(it, slack)) /= 1000 * peer + it) errs = errs + 1
    end do
    call MPIX_Iunbind_channels(1, chans, infos, ierr)
    call MPI_Wait(chans(1), MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS .or. chans(1) /= MPI_REQUEST_NULL) errs = errs + 1

    one = rank
    if (sender) then
        call MPI_Ssend_init(one, 1, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, req2, ierr)
    else
        call MPI_Recv_init(one, 1, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, req2, ierr)
    end if
    call PMPIX_Bind_channel(req2, chan2, MPI_INFO_NULL, ierr)
    call MPI_Start(chan2, ierr)
    call MPI_Wait(chan2, MPI_STATUS_IGNORE, ierr)
    if (one /= merge(rank, peer, sender)) errs = errs + 1
    call MPIX_Unbind_channel(chan2, ierr)

    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPIX_Unbind_channels(-1, chans, ierr)
    if (ierr == MPI_SUCCESS) errs = errs + 1

    call MPI_Info_free(infos(1), ierr)
    call MPI_Request_free(reqs(1), ierr)
    call MPI_Request_free(req2, ierr)
    call ompix_test_finish('chan_usempi', errs)
end program chan_usempi
