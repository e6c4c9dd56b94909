dnl -*- autoconf -*-
dnl Copyright (c) 2026 The ompix developers.
dnl
dnl OMPIX_CHECK_UCX: find UCX's ucp (--with-ucx[=DIR]).  Components that
dnl need UCX test $ompix_have_ucx from their configure.m4 and decline to
dnl build without it.  Substitutes UCX_CPPFLAGS, UCX_LDFLAGS, UCX_LIBS.

AC_DEFUN([OMPIX_CHECK_UCX], [
    AC_ARG_WITH([ucx],
        [AS_HELP_STRING([--with-ucx(=DIR)],
            [build the components that use UCX, with UCX from DIR (default: search the system; --without-ucx disables them)])])
    ompix_have_ucx=0
    UCX_CPPFLAGS=""
    UCX_LDFLAGS=""
    UCX_LIBS=""
    AS_IF([test "$with_ucx" != "no"], [
        AS_IF([test -n "$with_ucx" && test "$with_ucx" != "yes"],
              [UCX_CPPFLAGS="-I$with_ucx/include"
               AS_IF([test -d "$with_ucx/lib64"],
                     [UCX_LDFLAGS="-L$with_ucx/lib64"],
                     [UCX_LDFLAGS="-L$with_ucx/lib"])])
        ompix_save_CPPFLAGS="$CPPFLAGS"
        ompix_save_LDFLAGS="$LDFLAGS"
        CPPFLAGS="$CPPFLAGS $UCX_CPPFLAGS"
        LDFLAGS="$LDFLAGS $UCX_LDFLAGS"
        AC_CHECK_HEADER([ucp/api/ucp.h],
            [AC_CHECK_LIB([ucp], [ucp_rkey_ptr],
                [ompix_have_ucx=1; UCX_LIBS="-lucp -lucs"])])
        CPPFLAGS="$ompix_save_CPPFLAGS"
        LDFLAGS="$ompix_save_LDFLAGS"
        AS_IF([test $ompix_have_ucx -eq 0 && test -n "$with_ucx"],
              [AC_MSG_ERROR([UCX was requested (--with-ucx) but ucp/api/ucp.h or libucp was not found])])
    ])
    AC_SUBST([UCX_CPPFLAGS])
    AC_SUBST([UCX_LDFLAGS])
    AC_SUBST([UCX_LIBS])
])
