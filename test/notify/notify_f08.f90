! ompix-test: np=2,4 tls=shm,tcp pml=ob1,ucx timeout=120 mca="osc rdma2,sm"
!
! The Fortran bindings of notified RMA (use mpi_f08, ompix_f08) on an
! MPI_Win_create window over a Fortran array: every rank puts one value
! into every rank's window with MPIX_Put_notify (slot = origin rank) and,
! as target, takes each with MPIX_Win_notify_waitsome and
! MPIX_Win_notify_reset (count exactly 1), checking the value it
! announces; then reads its right neighbour's array with
! MPIX_Win_read_notify (slot n) and checks it once notified; a
! notification request (MPIX_Win_notify_init) completes for a put to
! oneself.  MPIX_Win_set_num_notify and _get_num_notify size the slots,
! MPIX_Win_get_notify_value sees a count before it is taken, and a bad
! slot is refused through ierror (MPI_ERRORS_RETURN on the window).
program notify_f08
    use ompix_test_f
    use mpi_f08
    use ompix_f08
    implicit none
    integer, parameter :: m = 6
    integer, allocatable, asynchronous :: wbuf(:), rbuf(:)   ! RMA: used between calls
    integer :: rank, size, t, k, id, nslots, ierr, errs, right
    integer, asynchronous :: val(1)
    integer(kind=MPI_COUNT_KIND) :: old
    integer(kind=MPI_ADDRESS_KIND) :: wsize
    type(MPI_Win) :: win
    type(MPI_Request) :: nreq

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    right = mod(rank + 1, size)
    allocate(wbuf(0:size + m - 1), rbuf(m))
    wbuf = -1
    do k = 1, m
        wbuf(size + k - 1) = 1000 * rank + k
    end do
    wsize = 4 * (size + m)
    call MPI_Win_create(wbuf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
    call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN)
    call MPIX_Win_set_num_notify(win, MPI_INFO_NULL, size + 1)
    call MPIX_Win_get_num_notify(win, nslots)
    errs = merge(0, 1, nslots == size + 1)

    call MPI_Win_lock_all(0, win)
    val(1) = 10 * rank + 1
    do t = 0, size - 1
        call MPIX_Put_notify(val, 1, MPI_INTEGER, t, int(rank, MPI_ADDRESS_KIND), 1, &
                             MPI_INTEGER, rank, win)
        call MPI_Win_flush(t, win)
    end do
    do k = 1, size
        call MPIX_Win_notify_waitsome(win, 0, size, MPIX_NOTIFY_BLOCK, id)
        if (id < 0 .or. id >= size) then
            errs = errs + 1
            exit
        end if
        call MPIX_Win_get_notify_value(win, id, old)
        if (old /= 1) errs = errs + 1
        call MPIX_Win_notify_reset(win, id, old)
        if (old /= 1 .or. wbuf(id) /= 10 * id + 1) errs = errs + 1
    end do

    rbuf = -1
    call MPIX_Win_read_notify(rbuf, m, MPI_INTEGER, right, int(size, MPI_ADDRESS_KIND), m, &
                              MPI_INTEGER, size, win)
    call MPIX_Win_notify_waitsome(win, size, 1, MPIX_NOTIFY_BLOCK, id)
    call MPIX_Win_notify_reset(win, size, old)
    do k = 1, m
        if (rbuf(k) /= 1000 * right + k) errs = errs + 1
    end do
    if (id /= size .or. old /= 1) errs = errs + 1

    call MPIX_Win_notify_init(win, rank, nreq)
    call MPI_Start(nreq)
    call MPIX_Put_notify(val, 1, MPI_INTEGER, rank, int(rank, MPI_ADDRESS_KIND), 1, &
                         MPI_INTEGER, rank, win)
    call MPI_Win_flush(rank, win)
    call MPI_Wait(nreq, MPI_STATUS_IGNORE)
    call MPI_Request_free(nreq)

    call MPIX_Win_notify_reset(win, size + 5, old, ierr)
    if (ierr == MPI_SUCCESS) errs = errs + 1
    call MPI_Win_unlock_all(win)
    call MPI_Win_free(win)
    call ompix_test_finish('notify_f08', errs)
end program notify_f08
