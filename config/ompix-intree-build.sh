#!/bin/bash
# Copyright (c) 2026 The ompix developers.
#
# The in-tree build: copies ompix's extension and component directories into
# an Open MPI 4.1.x source tree (by default Debian's source package matching
# the installed Open MPI), regenerates its build system with autogen.pl,
# configures with the ompix extensions enabled, builds and installs.  No Open
# MPI file is modified: the copy is a scratch tree under --work.
#
#   config/ompix-intree-build.sh [--src DIR] [--prefix DIR] [--work DIR]
#                                [--jobs N] [--no-deps] [-- extra configure args]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
prefix=/opt/ompix-openmpi
src=""
work="${TMPDIR:-/tmp}/ompix-intree"
jobs=$(nproc)
deps=1
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --src) src=$2; shift 2 ;;
        --prefix) prefix=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --no-deps) deps=0; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '3,12p' "$0"; exit 0 ;;
        *) echo "ompix-intree-build: unknown argument $1" >&2; exit 2 ;;
    esac
done

log() { echo "ompix-intree-build: $*"; }

if [ $deps -eq 1 ] && [ "$(id -u)" = 0 ]; then
    # What autogen.pl and Open MPI's configure need, with the same external
    # PMIx, hwloc and libevent that Debian's Open MPI uses.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        build-essential autoconf automake libtool flex perl dpkg-dev \
        libucx-dev libpmix-dev libhwloc-dev libevent-dev zlib1g-dev >/dev/null
fi

mkdir -p "$work"
if [ -z "$src" ]; then
    srcver=$(dpkg-query -W -f='${source:Version}' libopenmpi-dev)
    upstream=${srcver%%-*}
    src="$work/openmpi-$upstream"
    if [ ! -f "$src/autogen.pl" ]; then
        log "fetching Debian's Open MPI $srcver source package"
        sh "$top/config/ompix-deb-src.sh"
        (cd "$work" && apt-get source -qq "openmpi=$srcver" >/dev/null)
    fi
fi
[ -f "$src/autogen.pl" ] || { echo "ompix-intree-build: $src is not an Open MPI source tree" >&2; exit 1; }
version=$(sed -n 's/^major=//p;s/^minor=//p' "$src/VERSION" | paste -sd.)
case "$version" in
    4.1) ;;
    *) echo "ompix-intree-build: Open MPI 4.1.x required, $src is $version" >&2; exit 1 ;;
esac

tree="$work/tree"
log "copying $src to $tree"
rm -rf "$tree"
cp -a "$src" "$tree"

exts=(affinity pcollreq)
for d in "$top"/ompi/mpiext/*/; do
    name=$(basename "$d")
    rm -rf "$tree/ompi/mpiext/$name"
    cp -a "$d" "$tree/ompi/mpiext/$name"
    exts+=("$name")
done
for d in "$top"/ompi/mca/*/*/; do
    [ -d "$d" ] || continue
    fw=$(basename "$(dirname "$d")")
    rm -rf "$tree/ompi/mca/$fw/$(basename "$d")"
    cp -a "$d" "$tree/ompi/mca/$fw/"
done

cd "$tree"
log "autogen.pl --force"
./autogen.pl --force > "$work/autogen.log" 2>&1 || { tail -30 "$work/autogen.log"; exit 1; }

ext_list=$(IFS=,; echo "${exts[*]}")
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
log "configure --prefix=$prefix --enable-mpi-ext=$ext_list"
./configure --prefix="$prefix" --enable-mpi-ext="$ext_list" --with-ucx \
    --with-pmix="/usr/lib/$multiarch/pmix2" --with-libevent=external --with-hwloc=external \
    --disable-mpi-fortran --disable-oshmem --with-devel-headers \
    ${extra[@]+"${extra[@]}"} > "$work/configure.log" 2>&1 \
    || { tail -30 "$work/configure.log"; exit 1; }

log "make -j$jobs install"
make -j"$jobs" > "$work/make.log" 2>&1 || { grep -B5 -A5 -m5 "error" "$work/make.log"; tail -20 "$work/make.log"; exit 1; }
make install > "$work/install.log" 2>&1 || { tail -30 "$work/install.log"; exit 1; }
for ext in continue notify; do
    grep -q "OMPI_HAVE_MPI_EXT_${ext^^}" "$prefix/include/mpi-ext.h" \
        || { echo "ompix-intree-build: $ext extension missing from $prefix/include/mpi-ext.h" >&2; exit 1; }
done
log "installed Open MPI with ompix into $prefix (logs in $work)"
