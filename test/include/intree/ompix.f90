! Copyright (c) 2026 The ompix developers.
!
! In an in-tree build ompix's use mpi interfaces are in Open MPI's mpi_ext
! module; the tests use the plugin build's name (test/run compiles this
! first with --mpi-prefix).
module ompix
    use mpi_ext
end module ompix
