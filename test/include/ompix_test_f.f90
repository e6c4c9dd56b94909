! Copyright (c) 2026 The ompix developers.
!
! What every Fortran test shares (test/run compiles this module with each
! .f90 test and links it): the end of a test, whichever binding it uses.
module ompix_test_f
    implicit none
contains

    ! Sums the ranks' error counts: any error aborts (naming the test on
    ! rank 0), else MPI_Finalize.
    subroutine ompix_test_finish(name, errs)
        use mpi_f08
        character(len=*), intent(in) :: name
        integer, intent(in) :: errs
        integer :: total, rank

        call MPI_Allreduce(errs, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
        call MPI_Comm_rank(MPI_COMM_WORLD, rank)
        if (total /= 0) then
            if (rank == 0) print *, name, ': ', total, ' errors'
            call MPI_Abort(MPI_COMM_WORLD, 1)
        end if
        call MPI_Finalize()
    end subroutine ompix_test_finish

end module ompix_test_f
