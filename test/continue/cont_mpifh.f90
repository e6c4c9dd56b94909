! ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=60
!
! The mpif.h bindings (include 'mpif.h', then 'ompix-f.h'): a ring
! exchange on synchronous channels (MPI_Ssend_init, the flow control a
! loop needs) bound one by one with MPIX_Bind_slack_channel,
! completed by a continuation whose bind(C) callback reads INTEGER
! statuses (MPI_STATUS_SIZE), then MPIX_Iunbind_channel and
! MPIX_Unbind_channel.  The received values and the callback's statuses
! are checked.
module cont_mpifh_cb
    use, intrinsic :: iso_c_binding, only : c_int, c_intptr_t
    implicit none
    include 'mpif.h'
    integer :: calls = 0, bad = 0, expect_source = -1
contains
    subroutine done(statuses, cb_data) bind(C)
        integer(kind=c_int) :: statuses(MPI_STATUS_SIZE, *)
        integer(kind=c_intptr_t), value :: cb_data

        if (statuses(MPI_SOURCE, 1) /= expect_source .or. statuses(MPI_TAG, 1) /= 5) bad = bad + 1
        if (cb_data /= 7) bad = bad + 1
        calls = calls + 1
    end subroutine done
end module cont_mpifh_cb

program cont_mpifh
    use ompix_test_f
    use cont_mpifh_cb
    implicit none
    include 'ompix-f.h'
    integer :: rank, size, ierr, it, i, errs
    integer :: reqs(2), chans(2), cont
    ! Written and read by MPI outside the calls that name them.
    integer, asynchronous :: rbuf, sbuf, statuses(MPI_STATUS_SIZE, 2)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    expect_source = mod(rank + size - 1, size)
    call MPI_Recv_init(rbuf, 1, MPI_INTEGER, expect_source, 5, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Ssend_init(sbuf, 1, MPI_INTEGER, mod(rank + 1, size), 5, MPI_COMM_WORLD, &
                       reqs(2), ierr)
    ! A blocking bind waits for its partner's: even ranks bind their send
    ! first, odd ranks their receive (np is even).
    do it = 1, 2
        i = merge(3 - it, it, mod(rank, 2) == 0)
        call MPIX_Bind_slack_channel(reqs(i), chans(i), 1, MPI_INFO_NULL, ierr)
    end do
    call MPIX_Continue_init(MPI_INFO_NULL, cont, ierr)
    errs = 0
    do it = 1, 10
        sbuf = rank * 100 + it
        call MPI_Startall(2, chans, ierr)
        call MPIX_Continueall(2, chans, done, 7_MPI_ADDRESS_KIND, 0, &
                              statuses, cont, ierr)
        if (ierr /= MPI_SUCCESS) errs = errs + 1
        call MPI_Wait(cont, MPI_STATUS_IGNORE, ierr)
        if (rbuf /= expect_source * 100 + it .or. calls /= it) errs = errs + 1
    end do
    call MPI_Request_free(cont, ierr)
    call MPIX_Iunbind_channel(chans(1), MPI_INFO_NULL, ierr)
    call MPI_Wait(chans(1), MPI_STATUS_IGNORE, ierr)
    call MPIX_Unbind_channel(chans(2), ierr)
    if (chans(1) /= MPI_REQUEST_NULL .or. chans(2) /= MPI_REQUEST_NULL) errs = errs + 1
    call MPI_Request_free(reqs(1), ierr)
    call MPI_Request_free(reqs(2), ierr)
    errs = errs + bad
    call ompix_test_finish('cont_mpifh', errs)
end program cont_mpifh
