! ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=60 ompi50=no ompi50_why="5.0 has the standard MPI_Allreduce_init and no MPIX_ name in its mpi_f08_ext"
!
! A persistent allreduce from Fortran: Open MPI 4.1 exposes
! MPIX_Allreduce_init to Fortran through its own pcollreq extension
! (use mpi_f08_ext), and coll/persist serves it.  Started and waited 20
! times with new inputs each time; every result is checked.  Open MPI 5.0
! has the standard MPI_Allreduce_init instead and no MPIX_ name: not run
! there.
program persist_allreduce_f08
    use ompix_test_f
    use mpi_f08
    use mpi_f08_ext, only : MPIX_Allreduce_init
    implicit none
    integer, parameter :: n = 5
    integer, asynchronous :: sbuf(n), rbuf(n)   ! used by MPI between calls
    integer :: rank, size, it, i, errs
    type(MPI_Request) :: req

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    call MPIX_Allreduce_init(sbuf, rbuf, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, &
                             MPI_INFO_NULL, req)
    errs = 0
    do it = 1, 20
        do i = 1, n
            sbuf(i) = rank * it + i
        end do
        rbuf = -1
        call MPI_Start(req)
        call MPI_Wait(req, MPI_STATUS_IGNORE)
        do i = 1, n
            if (rbuf(i) /= it * size * (size - 1) / 2 + size * i) errs = errs + 1
        end do
    end do
    call MPI_Request_free(req)
    call ompix_test_finish('persist_allreduce_f08', errs)
end program persist_allreduce_f08
