#!/bin/sh
# Copyright (c) 2026 The ompix developers.
#
# One command from a fresh Debian 12 machine (as root): install what ompix
# needs, build it against the system's Open MPI 4.1, install it (library and
# header under /usr/local, components into Open MPI's component directory),
# then run the demo or the test suite.
#
#   config/ompix-quickstart.sh demo
#   config/ompix-quickstart.sh test [test/run options]
#
# OMPIX_CONFIGURE_FLAGS adds configure options (CI uses --enable-werror).
set -eu
what=${1:-demo}
[ $# -gt 0 ] && shift
top=$(cd "$(dirname "$0")/.." && pwd)

case "$what" in
    demo|test) ;;
    *) echo "usage: $0 demo|test [test/run options]" >&2; exit 2 ;;
esac

if [ "$(id -u)" = 0 ]; then
    echo "== installing packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq libopenmpi-dev openmpi-bin libucx-dev autoconf automake \
        libtool pkg-config make gcc g++ gfortran python3 valgrind >/dev/null
else
    echo "== not root: assuming the packages are installed"
fi

echo "== building ompix"
cd "$top"
./autogen.sh >/dev/null 2>&1 || ./autogen.sh
mkdir -p _build
cd _build
# shellcheck disable=SC2086
../configure -q ${OMPIX_CONFIGURE_FLAGS:-}
make -s -j"$(nproc)"
make -s install >/dev/null
command -v ldconfig >/dev/null && ldconfig || true

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "$top"
if [ "$what" = demo ]; then
    exec examples/run-demo
fi
echo "== running the tests"
exec test/run "$@"
