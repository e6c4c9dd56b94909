#!/bin/sh
# Enable deb-src entries derived from this machine's own apt sources, so that
# `apt-get source openmpi` can fetch the Open MPI source matching the installed
# packages. No mirror name is hard-coded: we copy whatever the machine uses.
set -eu
out=/etc/apt/sources.list.d/ompix-deb-src.sources
[ -f "$out" ] && exit 0
tmp=$(mktemp)
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    [ "$f" = "$out" ] && continue
    # Only Debian's own archives: skip third-party repositories.
    grep -q '^Signed-By: .*debian-archive-keyring' "$f" || continue
    sed -e 's/^Types: deb$/Types: deb-src/' "$f" >> "$tmp"
    echo >> "$tmp"
done
if [ -f /etc/apt/sources.list ]; then
    grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > "$tmp.list" || true
    if [ -s "$tmp.list" ]; then
        cp "$tmp.list" /etc/apt/sources.list.d/ompix-deb-src.list
    fi
    rm -f "$tmp.list"
fi
if [ -s "$tmp" ]; then
    cp "$tmp" "$out"
fi
rm -f "$tmp"
apt-get update -qq
