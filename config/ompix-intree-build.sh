#!/bin/bash
# Copyright (c) 2026 The ompix developers.
#
# The in-tree build: copies ompix's extension and component directories into
# an Open MPI source tree, regenerates its build system with autogen.pl,
# configures with the ompix extensions enabled, builds and installs.  No Open
# MPI file is modified: the copy is a scratch tree under --work.
#
# Open MPI 4.1 (--series 4.1, the default): by default Debian 12's source
# package matching the installed Open MPI, configured with the same external
# PMIx, hwloc and libevent as Debian's.  Open MPI 5.0 (--series 5.0): by
# default Debian 13's 5.0.7, fetched, configured, built and installed lean by
# config/ompix-ompi50-build.sh (which is given the tree).  --src names
# another source tree of either series.  What config/ompix_ompi.m4 lists as
# not ported to the series (OMPIX_OMPI_UNPORTED) is not copied in.
#
#   config/ompix-intree-build.sh [--series 4.1|5.0 | --src DIR] [--prefix DIR]
#                                [--work DIR] [--jobs N] [--no-deps]
#                                [-- extra configure args]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
prefix=/opt/ompix-openmpi
src=""
series=""
work=""
jobs=$(nproc)
deps=1
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --src) src=$(cd "$2" && pwd); shift 2 ;;
        --series) series=$2; shift 2 ;;
        --prefix) prefix=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --no-deps) deps=0; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '3,19p' "$0"; exit 0 ;;
        *) echo "ompix-intree-build: unknown argument $1" >&2; exit 2 ;;
    esac
done

log() { echo "ompix-intree-build: $*"; }

# ompix_intree_series DIR: an Open MPI source tree's release series (4.1, 5.0).
ompix_intree_series() {
    sed -n 's/^major=//p;s/^minor=//p' "$1/VERSION" | paste -sd.
}

[ -z "$src" ] || series=$(ompix_intree_series "$src")
series=${series:-4.1}
case "$series" in
    4.1) work=${work:-${TMPDIR:-/tmp}/ompix-intree} ;;
    5.0) work=${work:-${TMPDIR:-/tmp}/ompix-intree-5.0} ;;
    *) echo "ompix-intree-build: Open MPI 4.1 or 5.0 required, not $series" >&2; exit 1 ;;
esac

if [ $deps -eq 1 ] && [ "$(id -u)" = 0 ]; then
    # What autogen.pl and Open MPI's configure need, with the same external
    # PMIx, hwloc and libevent that Debian's Open MPI uses (4.1; 5.0 builds
    # its own PMIx, and config/ompix-ompi50-build.sh installs the rest).
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        build-essential autoconf automake libtool flex perl dpkg-dev \
        libucx-dev libpmix-dev libhwloc-dev libevent-dev zlib1g-dev >/dev/null
fi

mkdir -p "$work"
if [ -z "$src" ] && [ "$series" = 5.0 ]; then
    nodeps=()
    [ $deps -eq 1 ] || nodeps=(--no-deps)
    src=$("$top/config/ompix-ompi50-build.sh" --fetch-only --work "$work" ${nodeps[@]+"${nodeps[@]}"})
elif [ -z "$src" ]; then
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
[ "$(ompix_intree_series "$src")" = "$series" ] ||
    { echo "ompix-intree-build: $src is Open MPI $(ompix_intree_series "$src"), not $series" >&2; exit 1; }

# ompix_intree_unported: OMPIX_OMPI_UNPORTED's value for this series in
# config/ompix_ompi.m4 (FW/COMP and mpiext/NAME words), where the plugin
# build reads it too.
ompix_intree_unported() {
    awk -v want="[$series.*]" '
        index($0, want) { found = 1 }
        found && /OMPIX_OMPI_UNPORTED="/ {
            sub(/.*OMPIX_OMPI_UNPORTED="/, ""); sub(/".*/, ""); print; exit }
    ' "$top/config/ompix_ompi.m4"
}
unported=" $(ompix_intree_unported) "

tree="$work/tree"
log "copying $src to $tree"
rm -rf "$tree"
cp -a "$src" "$tree"

exts=()
comps=()
for d in "$top"/ompi/mpiext/*/; do
    name=$(basename "$d")
    case "$unported" in *" mpiext/$name "*) log "not ported to $series: mpiext/$name"; continue ;; esac
    rm -rf "$tree/ompi/mpiext/$name"
    cp -a "$d" "$tree/ompi/mpiext/$name"
    exts+=("$name")
done
for d in "$top"/ompi/mca/*/*/; do
    [ -d "$d" ] || continue
    fw=$(basename "$(dirname "$d")")
    comp=$(basename "$d")
    case "$unported" in *" $fw/$comp "*) log "not ported to $series: $fw/$comp"; continue ;; esac
    rm -rf "$tree/ompi/mca/$fw/$comp"
    cp -a "$d" "$tree/ompi/mca/$fw/"
    [ "$fw" = common ] || comps+=("$fw:$comp")
done

cd "$tree"
log "autogen.pl --force"
TIMEFORMAT="ompix-intree-build: %R s wall, %U s user + %S s sys CPU"
time ./autogen.pl --force > "$work/autogen.log" 2>&1 || { tail -30 "$work/autogen.log"; exit 1; }

if [ "$series" = 5.0 ]; then
    # Lean, as the 5.0 that the plugin build is tested against, with every
    # extension (5.0's default: ours among them).
    "$top/config/ompix-ompi50-build.sh" --src "$tree" --prefix "$prefix" --work "$work" \
        --jobs "$jobs" --no-deps -- ${extra[@]+"${extra[@]}"}
else
    ext_list=$(IFS=,; echo "affinity,pcollreq,${exts[*]}")
    multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
    log "configure --prefix=$prefix --enable-mpi-ext=$ext_list"
    time ./configure --prefix="$prefix" --enable-mpi-ext="$ext_list" --with-ucx \
        --with-pmix="/usr/lib/$multiarch/pmix2" --with-libevent=external --with-hwloc=external \
        --disable-mpi-fortran --disable-oshmem --with-devel-headers \
        ${extra[@]+"${extra[@]}"} > "$work/configure.log" 2>&1 \
        || { tail -30 "$work/configure.log"; exit 1; }
    log "make -j$jobs install"
    time make -j"$jobs" > "$work/make.log" 2>&1 || { grep -B5 -A5 -m5 "error" "$work/make.log"; tail -20 "$work/make.log"; exit 1; }
    make install > "$work/install.log" 2>&1 || { tail -30 "$work/install.log"; exit 1; }
fi
for ext in "${exts[@]}"; do
    grep -q "OMPI_HAVE_MPI_EXT_${ext^^}" "$prefix/include/mpi-ext.h" \
        || { echo "ompix-intree-build: $ext extension missing from $prefix/include/mpi-ext.h" >&2; exit 1; }
done
# ompi_info lists every component and documents its parameters.
info=$("$prefix/bin/ompi_info" --parsable --all)
for c in "${comps[@]}"; do
    grep -q "^mca:$c:version:" <<< "$info" && grep -q "^mca:$c:param:" <<< "$info" ||
        { echo "ompix-intree-build: ompi_info does not list ${c/://} or its parameters" >&2; exit 1; }
done
log "installed Open MPI $series with ompix into $prefix (logs in $work)"
