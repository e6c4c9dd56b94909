#!/usr/bin/env python3
# ompix-test: kind=script timeout=120
# Copyright (c) 2026 The ompix developers.
"""Check that every function and callback type ompix's installed headers
declare has a man page that `man -w NAME` finds in the install.

    test/docs/man_pages.py [--prefix DIR] [--verbose]

The install: --prefix, else OMPIX_TEST_MPI_PREFIX (test/run --mpi-prefix:
an Open MPI tree built with ompix, headers in include/openmpi/mpiext),
else the prefix of pkg-config's ompix (the plugin build, headers in
include/ompix/openmpi/mpiext).  The headers checked are the public ones
ompix's sources install (ompi_HEADERS of ompi/mpiext/*/c/Makefile.am)
for every extension the install's <mpi-ext.h> says is built
(OMPI_HAVE_MPI_EXT_<NAME>; the channel extension is not built against Open
MPI 5.0), read from the install, so the check covers what users got; each
must be installed.  Names: every MPIX_ identifier declared as a function or as a
function type (typedef void MPIX_X(...), typedef int (*MPIX_X)(...)).

Each name is looked up with `man -w NAME` and MANPATH the install's
share/man only, as on a fresh install where man-db never indexed the NAME
lines: a page file MPIX_X.3 must exist.  A page that is a `.so` link
must name a page that exists there too.  Exits 1 listing what is missing.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def public_headers(built):
    """The header file names the mpiext Makefile.am files of the extensions
    in BUILT install."""
    names = []
    for am in sorted(glob.glob(os.path.join(TOP, "ompi", "mpiext", "*", "c", "Makefile.am"))):
        if os.path.basename(os.path.dirname(os.path.dirname(am))) not in built:
            continue
        with open(am) as f:
            text = f.read().replace("\\\n", " ")
        m = re.search(r"^ompi_HEADERS\s*=(.*)$", text, re.M)
        if m:
            names += m.group(1).split()
    return names


def built_extensions(prefix):
    """The extensions the install's <mpi-ext.h> declares (the plugin
    build's in include/ompix, an Open MPI tree's in include), by its
    OMPI_HAVE_MPI_EXT_<NAME> macros; every extension of the source tree
    when it has none."""
    exts = [os.path.basename(d) for d in glob.glob(os.path.join(TOP, "ompi", "mpiext", "*"))
            if os.path.isdir(os.path.join(d, "c"))]
    for sub in ("include/ompix", "include"):
        path = os.path.join(prefix, sub, "mpi-ext.h")
        if os.path.exists(path):
            with open(path) as f:
                text = f.read()
            return {e for e in exts if re.search(r"#\s*define\s+OMPI_HAVE_MPI_EXT_%s\b"
                                                 % e.upper(), text)}
    return set(exts)


def find_prefix(args):
    """(prefix, header directory) of the install, or exit."""
    if args.prefix:
        prefix = args.prefix
    elif os.environ.get("OMPIX_TEST_MPI_PREFIX"):
        prefix = os.environ["OMPIX_TEST_MPI_PREFIX"]
    else:
        try:
            prefix = subprocess.check_output(["pkg-config", "--variable=prefix", "ompix"],
                                             text=True).strip()
        except (OSError, subprocess.CalledProcessError):
            sys.exit("man_pages: no install found (pkg-config ompix fails; give --prefix)")
    for sub in ("include/ompix/openmpi/mpiext", "include/openmpi/mpiext"):
        incdir = os.path.join(prefix, sub)
        if os.path.isdir(incdir):
            return prefix, incdir
    sys.exit("man_pages: %s has no include/ompix/openmpi/mpiext or include/openmpi/mpiext"
             % prefix)


def strip_c(text):
    """The header without comments and preprocessor lines."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"\\\n", " ", text)
    return re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)


def declared_names(path):
    """MPIX_ functions and function types the header declares."""
    with open(path) as f:
        text = strip_c(f.read())
    names = set()
    for decl in text.split(";"):
        decl = " ".join(decl.split())
        typedef = re.search(r"\btypedef\b.*?\(\s*\*\s*(MPIX_\w+)\s*\)\s*\(", decl) or \
            re.search(r"\btypedef\b[^(]*?\b(MPIX_\w+)\s*\(", decl)
        if typedef:
            names.add(typedef.group(1))
            continue
        # A prototype: the first call-like name after a return type.
        func = re.search(r"^[\w\s\*]*?\b(MPIX_\w+)\s*\(", decl.split("{")[-1].split("}")[-1]
                         .strip())
        if func:
            names.add(func.group(1))
    return names


def man_lookup(name, mandir):
    """The page file `man -w` finds for NAME under MANDIR, or None."""
    if shutil.which("man"):
        env = dict(os.environ, MANPATH=mandir, MANOPT="", LC_ALL="C")
        p = subprocess.run(["man", "-w", name], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, env=env)
        path = p.stdout.strip().split("\n")[0] if 0 == p.returncode else ""
        return path if path.startswith(mandir) else None
    # Without man(1), what man -w reads: the page file by its name.
    found = glob.glob(os.path.join(mandir, "man3", name + ".3*"))
    return found[0] if found else None


def so_target(page, mandir):
    """Whether a .so link page names an existing page (True when PAGE is
    not a link)."""
    with open(page, "rb") as f:
        first = f.read(200).decode("latin-1").split("\n")[0]
    m = re.match(r"\.so\s+(\S+)", first)
    if not m:
        return True
    return bool(glob.glob(os.path.join(mandir, m.group(1)) + "*"))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prefix", help="the install to check")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    prefix, incdir = find_prefix(args)
    mandir = os.path.join(prefix, "share", "man")
    headers = public_headers(built_extensions(prefix))
    if not headers:
        sys.exit("man_pages: no ompi_HEADERS in ompi/mpiext/*/c/Makefile.am")
    problems, names = [], set()
    for h in headers:
        path = os.path.join(incdir, h)
        if not os.path.exists(path):
            problems.append("%s: not installed in %s" % (h, incdir))
            continue
        names |= declared_names(path)
    for name in sorted(names):
        page = man_lookup(name, mandir)
        if page is None:
            problems.append("%s: man -w finds no page under %s" % (name, mandir))
        elif not so_target(page, mandir):
            problems.append("%s: %s is a .so link to a page that is not installed"
                            % (name, page))
        elif args.verbose:
            print("%s: %s" % (name, page))
    for p in problems:
        print(p)
    print("man_pages: %d names declared in %d headers, %d problems"
          % (len(names), len(headers), len(problems)))
    return 1 if problems or not names else 0


if __name__ == "__main__":
    sys.exit(main())
