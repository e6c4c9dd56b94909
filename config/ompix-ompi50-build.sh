#!/bin/bash
# Copyright (c) 2026 The ompix developers.
#
# Builds a lean Open MPI 5.0 for ompix's plugin build against the 5.0 series:
# fetches Debian 13's openmpi source package (5.0.7) with `apt-get source`,
# unpacks its upstream tarball, configures it with its internal (developer) headers installed, as Debian's
# libopenmpi-dev ships them for 4.1, against Debian 12's UCX, hwloc and
# libevent, with the tarball's PRRTE and OpenPMIx (5.0.7's PRRTE needs PMIx
# 4.2.4 or later; Debian 12 has 4.2.2), without Fortran, Java, OpenSHMEM, ROMIO
# or documentation, and installs it into PREFIX.  Prints the wall and CPU
# time of configure and of make+install (CI budgets its legs by them).
# --src builds another 5.0 source tree the same way (the in-tree build,
# config/ompix-intree-build.sh, passes its copy with ompix dropped in);
# --fetch-only fetches and unpacks the source into WORK, prints its
# directory and stops.
#
#   config/ompix-ompi50-build.sh [--prefix DIR] [--work DIR] [--jobs N]
#                                [--src DIR | --fetch-only] [--no-deps]
#                                [-- extra configure args]
#
# The Debian 13 deb-src line is derived from this machine's own apt sources
# (the Debian 12 entries' archive, suite renamed), and used through a private
# apt state under WORK: the machine's apt configuration is left as it is.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
prefix=/opt/openmpi-5.0
work="${TMPDIR:-/tmp}/ompix-ompi50"
jobs=$(nproc)
deps=1
src=""
fetch_only=0
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --src) src=$(cd "$2" && pwd); shift 2 ;;
        --fetch-only) fetch_only=1; shift ;;
        --no-deps) deps=0; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '3,23p' "$0"; exit 0 ;;
        *) echo "ompix-ompi50-build: unknown argument $1" >&2; exit 2 ;;
    esac
done

# --fetch-only prints the source's directory alone on stdout (fd 3): all
# else goes to stderr.
[ $fetch_only = 0 ] || exec 3>&1 1>&2

log() { echo "ompix-ompi50-build: $*"; }
# Debian 13 is the release that ships Open MPI 5.0; Debian 12 the one whose
# archive entries this machine's sources name.
old_suite=bookworm
new_suite=trixie

if [ $deps -eq 1 ] && [ "$(id -u)" = 0 ]; then
    # A fresh machine has no package lists yet.
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        build-essential flex perl dpkg-dev libucx-dev \
        libhwloc-dev libevent-dev zlib1g-dev >/dev/null
fi

# ompix_ompi50_sources: the deb-src entries for Debian 13, one per Debian
# archive this machine uses for Debian 12 (its security archive skipped: the
# source package is in the release itself).
ompix_ompi50_sources() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        grep -q '^Signed-By: .*debian-archive-keyring' "$f" || continue
        grep -q "^Suites: .*\b$old_suite\b" "$f" || continue
        awk -v s="$new_suite" '
            /^$/ { if (keep) print blk "\n"; blk = ""; keep = 0; next }
            /^Types:/ { blk = blk "Types: deb-src\n"; next }
            /^Suites:/ { if ($0 ~ / '"$old_suite"'( |$)/) keep = 1
                         blk = blk "Suites: " s "\n"; next }
            /^#/ { next }
            { blk = blk $0 "\n" }
            END { if (keep) print blk }' "$f"
    done
    if [ -f /etc/apt/sources.list ]; then
        grep -E "^deb [^ ]+ $old_suite " /etc/apt/sources.list |
            sed -e 's/^deb /deb-src /' -e "s/ $old_suite / $new_suite /" |
            sed -e 's/^deb-src \([^ ]*\) .*/Types: deb-src\nURIs: \1\nSuites: '"$new_suite"'\nComponents: main\n/' || true
    fi
}

mkdir -p "$work/apt/lists/partial" "$work/apt/parts"
apt_opts=(-o "Dir::Etc::SourceList=$work/apt/none.list"
          -o "Dir::Etc::SourceParts=$work/apt/parts"
          -o "Dir::State::Lists=$work/apt/lists"
          -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=")
# The build directory: one per source tree, so that the in-tree build's
# and a stock build can share WORK (and the fetched source).
build="$work/build"
if [ -n "$src" ]; then
    build="$work/build-$(basename "$src")"
    [ -f "$src/configure" ] ||
        { echo "ompix-ompi50-build: $src has no configure (run its autogen.pl)" >&2; exit 1; }
fi
[ -n "$src" ] || src=$(ls -d "$work"/openmpi-5.0.* 2>/dev/null | head -n 1 || true)
if [ -z "$src" ] || [ ! -f "$src/configure" ]; then
    : > "$work/apt/none.list"
    # One entry per archive: a machine with deb-src lines of its own for
    # Debian 12 (config/ompix-deb-src.sh) derives each archive twice.
    ompix_ompi50_sources | awk -v RS= '!seen[$0]++ { print $0 "\n" }' \
        > "$work/apt/parts/debian13-src.sources"
    [ -s "$work/apt/parts/debian13-src.sources" ] ||
        { echo "ompix-ompi50-build: no Debian archive in this machine's apt sources" >&2; exit 1; }
    log "fetching Debian 13's openmpi source package"
    apt-get "${apt_opts[@]}" update -qq
    (cd "$work" && apt-get "${apt_opts[@]}" source -qq --download-only "openmpi/$new_suite" >/dev/null)
    # The upstream tarball, without Debian's patches: they edit Makefile.am
    # and configure.ac (for Debian's own layout), which would make the build
    # rerun automake; the tarball's generated files are consistent.
    tar -C "$work" -xJf "$(ls "$work"/openmpi_5.0.*.orig.tar.xz | head -n 1)"
    src=$(ls -d "$work"/openmpi-5.0.* | head -n 1)
fi
version=$(sed -n 's/^major=//p;s/^minor=//p' "$src/VERSION" | paste -sd.)
[ "$version" = 5.0 ] ||
    { echo "ompix-ompi50-build: $src is Open MPI $version, not 5.0" >&2; exit 1; }
if [ $fetch_only = 1 ]; then
    echo "$src" >&3
    exit 0
fi

# Lean: C only; no docs (the tarball's prebuilt man pages are installed, no
# Sphinx run); no ROMIO, OpenSHMEM or Java; the transports are ob1's
# self/sm/tcp and UCX.  --with-devel-headers installs the internal headers
# that MCA components compile against.
conf=(--prefix="$prefix" --with-devel-headers --disable-mpi-fortran
      --disable-oshmem --disable-mpi-java --disable-io-romio --disable-sphinx
      --with-ucx --with-pmix=internal --with-hwloc=external
      --with-libevent=external --with-prrte=internal
      --without-ofi --without-psm2 --without-cuda --without-ucc
      --without-hcoll --without-xpmem --without-knem
      --disable-dependency-tracking --enable-silent-rules)

# ompix_ompi50_fix_headers: --with-devel-headers installs the frameworks'
# headers but not those of the components opal_config.h selects as their
# implementation (MCA_<fw>_..._HEADER: 5.0.7's threads/pthreads and
# timer/linux install none), which the framework headers include: copy
# them from the source tree.
ompix_ompi50_fix_headers() {
    local inc="$prefix/include/openmpi" h
    for h in $(sed -n 's/^#define MCA_[A-Za-z_]*HEADER "\(..*\)"$/\1/p' "$inc/opal_config.h"); do
        if [ ! -e "$inc/$h" ] && [ -e "$src/$h" ]; then
            mkdir -p "$(dirname "$inc/$h")"
            cp "$(dirname "$src/$h")"/*.h "$(dirname "$inc/$h")/"
        fi
    done
}

rm -rf "$build"
mkdir -p "$build"
cd "$build"
# Wall and CPU time of each step: on a shared machine the CPU time (user +
# sys, over all jobs) is what a quiet one would need, divided by its cores.
TIMEFORMAT="ompix-ompi50-build: %R s wall, %U s user + %S s sys CPU"
log "configure"
time nice -n 10 "$src/configure" -q "${conf[@]}" "${extra[@]}" > configure.out
log "make -j$jobs and make install"
time { nice -n 10 make -s -j"$jobs" > make.out && nice -n 10 make -s install > install.out; }
ompix_ompi50_fix_headers
log "installed Open MPI $("$prefix/bin/ompi_info" --parsable --version | sed -n 's/^Open MPI v//p') into $prefix"
