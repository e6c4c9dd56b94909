! ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=60
!
! The Fortran bindings of bundles and persistent generalized requests (use
! mpi_f08, ompix_f08): on a ring, round 0 of a bundle receives from the
! left and sends to the right (MPI_Recv_init, MPI_Ssend_init), round 1 is a
! persistent generalized request whose bind(C) callbacks check the value
! just received (start_fn), complete at the second poll (poll_fn) and count
! the free (free_fn), extra_state by value.  Ten MPI_Start/MPI_Wait of the
! bundle; every value and count is checked.
module bundle_f08_cb
    use, intrinsic :: iso_c_binding, only : c_int, c_intptr_t
    use mpi_f08, only : MPI_SUCCESS
    implicit none
    integer, asynchronous :: rbuf = -1
    integer :: expect = -1, starts = 0, polls = 0, frees = 0, bad = 0
contains
    integer(c_int) function unpack_start(extra_state) bind(C)
        integer(kind=c_intptr_t), value :: extra_state

        if (extra_state /= 99 .or. rbuf /= expect) bad = bad + 1
        starts = starts + 1
        polls = 0
        unpack_start = MPI_SUCCESS
    end function unpack_start

    integer(c_int) function unpack_poll(extra_state, completed) bind(C)
        integer(kind=c_intptr_t), value :: extra_state
        integer(kind=c_int), intent(out) :: completed

        if (extra_state /= 99) bad = bad + 1
        polls = polls + 1
        completed = merge(1, 0, polls >= 2)
        unpack_poll = MPI_SUCCESS
    end function unpack_poll

    integer(c_int) function unpack_free(extra_state) bind(C)
        integer(kind=c_intptr_t), value :: extra_state

        if (extra_state /= 99) bad = bad + 1
        frees = frees + 1
        unpack_free = MPI_SUCCESS
    end function unpack_free
end module bundle_f08_cb

program bundle_f08
    use ompix_test_f
    use mpi_f08
    use ompix_f08
    use bundle_f08_cb
    implicit none
    type(MPI_Request) :: members(3), bundle
    integer, asynchronous :: sbuf
    integer :: rank, size, left, it, i, errs

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    left = mod(rank + size - 1, size)
    call MPI_Recv_init(rbuf, 1, MPI_INTEGER, left, 4, MPI_COMM_WORLD, members(1))
    call MPI_Ssend_init(sbuf, 1, MPI_INTEGER, mod(rank + 1, size), 4, MPI_COMM_WORLD, members(2))
    call MPIX_Grequest_persistent_init(unpack_start, unpack_poll, unpack_free, &
                                       99_MPI_ADDRESS_KIND, members(3))
    call MPIX_Bundle_init(2, [2, 1], members, MPI_INFO_NULL, bundle)
    errs = 0
    do it = 1, 10
        sbuf = 100 * rank + it
        expect = 100 * left + it
        call MPI_Start(bundle)
        call MPI_Wait(bundle, MPI_STATUS_IGNORE)
        if (starts /= it .or. polls < 2) errs = errs + 1
    end do
    call MPI_Request_free(bundle)
    do i = 1, 3
        call MPI_Request_free(members(i))
    end do
    if (frees /= 1) errs = errs + 1
    call ompix_test_finish('bundle_f08', errs + bad)
end program bundle_f08
