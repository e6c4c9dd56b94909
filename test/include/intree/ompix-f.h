! Copyright (c) 2026 The ompix developers.
!
! In an in-tree build ompix's mpif.h declarations come with Open MPI's
! mpif-ext.h; the tests include the plugin build's name.
      include 'mpif-ext.h'
