#!/usr/bin/env python3
# ompix-test: kind=script timeout=60 intree=no intree_why="reads the sources, not a build: the plugin leg runs it"
# Copyright (c) 2026 The ompix developers.
"""Check that ompix states one version and one list of what it provides.

    test/docs/version.py

The version: configure.ac's AC_INIT, MCA_COMMON_OMPIX_VERSION of
ompi/mca/common/ompix/common_ompix_version.h (what ompi_info shows as
<fw>_<comp>_ompix_version; an Open MPI tree builds without our configure)
and the top entry of NEWS must agree.  What it provides
(MCA_COMMON_OMPIX_MPI_EXTENSIONS, MCA_COMMON_OMPIX_COMPONENTS, shown as
<fw>_<comp>_ompix_provides) must name exactly the directories
ompi/mpiext/<ext> and ompi/mca/<fw>/<comp> (common/ompix aside).
Exits 1 saying what differs.
"""

import glob
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read(path):
    with open(os.path.join(TOP, path)) as f:
        return f.read()


def header_string(text, macro):
    m = re.search(r'#define\s+%s\s+"([^"]*)"' % macro, text)
    return m.group(1) if m else None


def main():
    problems = []
    ac = re.search(r"AC_INIT\(\[ompix\],\s*\[([^\]]+)\]", read("configure.ac"))
    header = read("ompi/mca/common/ompix/common_ompix_version.h")
    ours = header_string(header, "MCA_COMMON_OMPIX_VERSION")
    news = re.search(r"^(\d+\.\d+\.\d+\S*)", read("NEWS"), re.M)
    versions = {"configure.ac AC_INIT": ac and ac.group(1),
                "common_ompix_version.h": ours,
                "NEWS (first entry)": news and news.group(1)}
    if None in versions.values() or len(set(versions.values())) != 1:
        problems.append("versions differ: %s" % versions)

    exts = sorted(os.path.basename(d.rstrip("/"))
                  for d in glob.glob(os.path.join(TOP, "ompi", "mpiext", "*", "")))
    comps = sorted("/".join(d.rstrip("/").split("/")[-2:])
                   for d in glob.glob(os.path.join(TOP, "ompi", "mca", "*", "*", "")))
    comps = [c for c in comps if not c.startswith("common/")]
    for macro, want in (("MCA_COMMON_OMPIX_MPI_EXTENSIONS", exts),
                        ("MCA_COMMON_OMPIX_COMPONENTS", comps)):
        got = sorted(x.strip() for x in (header_string(header, macro) or "").split(","))
        if got != want:
            problems.append("%s names %s; the tree has %s" % (macro, got, want))
    for p in problems:
        print(p)
    print("version: %s, %d problems" % (ours, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
