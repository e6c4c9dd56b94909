! ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=60
!
! The Fortran bindings (use mpi_f08, ompix_f08): continuations with a
! Fortran callback (bind(C)).  Each rank receives from its left neighbour
! and sends to its right one on a ring; MPIX_Continueall hands both
! requests to a callback that checks the receive's status (source, tag,
! count, through MPI_Get_count) and the data, counting calls through
! cb_data.  MPIX_Continue on a request to MPI_PROC_NULL with
! MPIX_CONT_IMMEDIATE runs its callback inside the call.  The handles
! taken over become MPI_REQUEST_NULL.
module cont_f08_cb
    use, intrinsic :: iso_c_binding, only : c_intptr_t
    use mpi_f08
    implicit none
    integer, target :: calls = 0, bad = 0
    integer :: expect_source = -1, expect_value = -1
    integer, asynchronous :: rbuf = -1
contains
    subroutine ring_done(statuses, cb_data) bind(C)
        type(MPI_Status) :: statuses(*)
        integer(kind=c_intptr_t), value :: cb_data
        integer :: count

        call MPI_Get_count(statuses(1), MPI_INTEGER, count)
        if (statuses(1)%MPI_SOURCE /= expect_source .or. statuses(1)%MPI_TAG /= 7) bad = bad + 1
        if (count /= 1 .or. rbuf /= expect_value .or. cb_data /= 42) bad = bad + 1
        calls = calls + 1
    end subroutine ring_done

    subroutine null_done(statuses, cb_data) bind(C)
        type(MPI_Status) :: statuses(*)
        integer(kind=c_intptr_t), value :: cb_data

        if (statuses(1)%MPI_SOURCE /= MPI_PROC_NULL .or. cb_data /= -3) bad = bad + 1
        calls = calls + 10
    end subroutine null_done
end module cont_f08_cb

program cont_f08
    use ompix_test_f
    use mpi_f08
    use ompix_f08
    use cont_f08_cb
    implicit none
    type(MPI_Request) :: cont, reqs(2), nreq
    type(MPI_Status), asynchronous :: statuses(2), status
    integer :: rank, size, errs, ierr
    integer, asynchronous :: sbuf
    logical :: flag

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    expect_source = mod(rank + size - 1, size)
    expect_value = 100 + expect_source
    sbuf = 100 + rank
    call MPIX_Continue_init(MPI_INFO_NULL, cont)
    call MPI_Irecv(rbuf, 1, MPI_INTEGER, expect_source, 7, MPI_COMM_WORLD, reqs(1))
    call MPI_Isend(sbuf, 1, MPI_INTEGER, mod(rank + 1, size), 7, MPI_COMM_WORLD, reqs(2))
    call MPIX_Continueall(2, reqs, ring_done, 42_MPI_ADDRESS_KIND, 0, statuses, cont, ierr)
    errs = 0
    if (ierr /= MPI_SUCCESS .or. any(reqs /= MPI_REQUEST_NULL)) errs = errs + 1
    call MPI_Wait(cont, MPI_STATUS_IGNORE)
    if (calls /= 1) errs = errs + 1

    call MPI_Irecv(rbuf, 1, MPI_INTEGER, MPI_PROC_NULL, 7, MPI_COMM_WORLD, nreq)
    call MPIX_Continue(nreq, null_done, -3_MPI_ADDRESS_KIND, MPIX_CONT_IMMEDIATE, status, cont)
    if (calls /= 11 .or. nreq /= MPI_REQUEST_NULL) errs = errs + 1
    call MPI_Test(cont, flag, MPI_STATUS_IGNORE)
    if (.not. flag) errs = errs + 1
    call MPI_Request_free(cont)

    errs = errs + bad
    call ompix_test_finish('cont_f08', errs)
end program cont_f08
