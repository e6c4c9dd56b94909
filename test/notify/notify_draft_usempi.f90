! ompix-test: np=1,2,3 tls=shm,tcp pml=ob1 timeout=120 mca="osc pt2pt"
!
! notify_draft_f08.f90 with the use mpi bindings (use mpi, use ompix) on
! the generic path (osc pt2pt; pml ob1 only, see notify_draft_gen.c): the
! MPI Forum draft's calls: MPIX_Get_accumulate_notify, MPIX_Rput_notify,
! MPIX_Rget_notify, MPIX_Raccumulate_notify, MPIX_Rget_accumulate_notify,
! MPIX_Win_notify_threshold and MPIX_Win_reset_notify_value, and the
! profiling name PMPIX_Win_notify_threshold, on an MPI_Win_create window
! over a Fortran array.  Under lock_all every rank r, toward every rank t
! (itself included): get_accumulate_notify(+1) into a(r) (result 0),
! rput_notify of 100*r+t+1 into b(r), rget_notify of t's c(r) (checked
! once the request completed), raccumulate_notify(+1) and
! rget_accumulate_notify(+1) into a(r) (result 2: same-origin accumulates
! to one location are ordered), each on its own slot (kind*size + r).  As
! target, each rank waits for every slot with MPIX_Win_notify_threshold
! (1) and checks its memory (a(r) = 3 once the three accumulate slots
! are set), takes each count with MPIX_Win_reset_notify_value (exactly 1).
! A threshold of 2 with timeout 0 returns the count 1 reached; a slot
! outside the window's is refused through ierror (MPI_ERR_ARG, the
! draft's MPI_ERR_RMA_NOTIFICATION) with MPI_ERRORS_RETURN.
program notify_draft_usempi
    use ompix_test_f
    use mpi
    use ompix
    implicit none
    integer, parameter :: nk = 5
    integer, allocatable, asynchronous :: wbuf(:)
    integer, asynchronous :: one(1), res(1), got(1), pval(1)
    integer :: rank, size, t, r, k, ierr, errs, cls
    integer(kind=MPI_COUNT_KIND) :: v
    integer(kind=MPI_ADDRESS_KIND) :: wsize
    integer :: win
    integer :: req

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    ! a(r) = wbuf(r), b(r) = wbuf(size + r), c(r) = wbuf(2*size + r)
    allocate(wbuf(0:3 * size - 1))
    wbuf = 0
    do r = 0, size - 1
        wbuf(2 * size + r) = -(1000 * rank + r + 3)
    end do
    wsize = 4 * 3 * size
    call MPI_Win_create(wbuf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
    errs = 0
    one(1) = 1

    call MPI_Win_lock_all(0, win, ierr)
    do t = 0, size - 1
        res(1) = -1
        call MPIX_Get_accumulate_notify(one, 1, MPI_INTEGER, res, 1, MPI_INTEGER, t, &
            int(rank, MPI_ADDRESS_KIND), 1, MPI_INTEGER, MPI_SUM, 0 * size + rank, win, ierr)
        call MPI_Win_flush(t, win, ierr)
        if (res(1) /= 0) errs = errs + 1
        pval(1) = 100 * rank + t + 1
        call MPIX_Rput_notify(pval, 1, MPI_INTEGER, t, int(size + rank, MPI_ADDRESS_KIND), &
            1, MPI_INTEGER, 1 * size + rank, win, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        got(1) = 0
        call MPIX_Rget_notify(got, 1, MPI_INTEGER, t, int(2 * size + rank, MPI_ADDRESS_KIND), &
            1, MPI_INTEGER, 2 * size + rank, win, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        if (got(1) /= -(1000 * t + rank + 3)) errs = errs + 1
        call MPIX_Raccumulate_notify(one, 1, MPI_INTEGER, t, int(rank, MPI_ADDRESS_KIND), 1, &
            MPI_INTEGER, MPI_SUM, 3 * size + rank, win, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        res(1) = -1
        call MPIX_Rget_accumulate_notify(one, 1, MPI_INTEGER, res, 1, MPI_INTEGER, t, &
            int(rank, MPI_ADDRESS_KIND), 1, MPI_INTEGER, MPI_SUM, 4 * size + rank, win, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        if (res(1) /= 2) errs = errs + 1
        call MPI_Win_flush(t, win, ierr)
    end do

    do k = 0, nk - 1
        do r = 0, size - 1
            call MPIX_Win_notify_threshold(win, k * size + r, 1_MPI_COUNT_KIND, &
                                           MPIX_NOTIFY_BLOCK, v, ierr)
            if (v /= 1) errs = errs + 1
        end do
    end do
    call MPI_Win_sync(win, ierr)
    do r = 0, size - 1
        if (wbuf(r) /= 3 .or. wbuf(size + r) /= 100 * r + rank + 1) errs = errs + 1
    end do
    ! The threshold is not reached: the timeout returns the count there.
    call PMPIX_Win_notify_threshold(win, rank, 2_MPI_COUNT_KIND, 0, v, ierr)
    if (v /= 1) errs = errs + 1
    do k = 0, nk - 1
        do r = 0, size - 1
            call MPIX_Win_reset_notify_value(win, k * size + r, v, ierr)
            if (v /= 1) errs = errs + 1
        end do
    end do
    call MPIX_Win_reset_notify_value(win, 65536, v, ierr)
    call MPI_Error_class(ierr, cls, k)
    if (cls /= MPI_ERR_ARG) errs = errs + 1
    call MPIX_Win_notify_threshold(win, -1, 1_MPI_COUNT_KIND, 0, v, ierr)
    if (ierr == MPI_SUCCESS) errs = errs + 1
    call MPI_Win_unlock_all(win, ierr)
    call MPI_Win_free(win, ierr)
    call ompix_test_finish('notify_draft_usempi', errs)
end program notify_draft_usempi
