/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Plugin build only.  Debian's libopenmpi-dev installs ompi/op/op.h but
 * not this header, which op.h includes for one macro (converting a C int
 * to a Fortran INTEGER when calling a Fortran user op).  configure puts
 * this directory on the include path only when the installed headers lack
 * the real one.
 */
#ifndef OMPIX_FINT_2_INT_SHIM_H
#define OMPIX_FINT_2_INT_SHIM_H

#define OMPI_INT_2_FINT(a) ((MPI_Fint) (a))
#define OMPI_FINT_2_INT(a) ((int) (a))

#endif
