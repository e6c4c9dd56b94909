! Copyright (c) 2026 The ompix developers.
!
! In an in-tree build ompix's mpi_f08 interfaces are in Open MPI's
! mpi_f08_ext module; the tests use the plugin build's name (test/run
! compiles this first with --mpi-prefix).
module ompix_f08
    use mpi_f08_ext
end module ompix_f08
