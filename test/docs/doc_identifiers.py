#!/usr/bin/env python3
# ompix-test: kind=script timeout=120 intree=no intree_why="reads the sources, not a build: the plugin leg runs it"
# Copyright (c) 2026 The ompix developers.
"""Check that every name the docs quote in backticks still exists.

    test/docs/doc_identifiers.py [--root DIR] [--verbose] [DOC ...]

Docs: README.md, docs/*.md, test/*/README.md and every README-design.md
under ompi/ (or the DOCs given).  Fenced code blocks are skipped; every
`code span` is split into words and each word is judged by what it looks
like.  Anything not matched by a rule below (MPI names, Open MPI's and
UCX's symbols, shell commands and options, values, prose) is ignored.

* Paths: a word with a "/", ending in .c .h .md .m4 .am .ac .sh .py
  .supp, or starting with Makefile.  It must exist relative to the top of the tree or to the doc's
  directory; a bare file name may also live anywhere in the tree, or be
  produced by the build (named in a Makefile.am, configure.ac, *.m4 or
  autogen.sh, like mpi-ext.h).  <placeholder> and * match like a glob
  (`test/<feature>/*.c` must match some file).  A path the top-level
  .gitignore covers is a build product and counts as existing.  Not
  checked: absolute paths, <header.h>, words whose first component is
  not in the tree (coll/persist, DIR/lib, all/any/some), and paths into
  Open MPI's own tree (ompi/op/op.h; ompi/mca/<fw>/<comp> or
  ompi/mpiext/<ext> directories ompix does not have).  A test's name as
  test/run prints it (continue/cont_p2p) must be a test.
* file.c:function (or file.h:function, function()) : the file as above,
  and a definition of the function in it (or a function-like #define).
* MCA parameters <fw>_<comp>_<name> of a component ompix has
  (ompi/mca/<fw>/<comp>, e.g. osc_rdma2_cma, coll_persist_priority; a
  trailing =value or value word is dropped): the component's sources must
  register "<name>" (the string literal passed to
  mca_base_component_var_register).  A word of that form that is instead a
  C identifier (a type or function spelled like that) or a file's stem
  also passes.
* Info keys mpi_continue_<key>[=value]: "mpi_continue_<key>" must appear
  as a string literal in the sources (they are not MCA parameters).
* ompix identifiers, by prefix: ompix_, OMPIX_, MPIX_, OMPI_HAVE_MPI_EXT_,
  mca_common_ompix_, and for each of ompix's components and extensions
  mca_<fw>_<comp>_, <comp>_ (rdma2_, persist_, ...) and mpiext_<ext>_: the
  word must occur as a whole word in the sources (every file of the tree
  except *.md, what .gitignore covers, build directories and this
  directory), or be a file's stem.  A word ending in "_" names a prefix
  and is skipped; MPIX_*_init and OMPI_HAVE_MPI_EXT_<NAME> match as
  patterns.
* A README-design.md with a "Files" section must name every *.c and *.h
  under its own directory there (by path or file name).

Prints one line per stale name (doc:line: `token`: why) and a summary;
exits 1 if any is stale.  test/run runs it as the case docs/doc_identifiers.
"""

import argparse
import fnmatch
import glob
import os
import re
import sys

PATH_EXT = (".c", ".h", ".md", ".m4", ".am", ".ac", ".sh", ".py", ".supp")
FIXED_PREFIXES = ["ompix_", "OMPIX_", "MPIX_", "OMPI_HAVE_MPI_EXT_", "mca_common_ompix_"]
INFO_PREFIXES = ["mpi_continue_"]
BUILD_FILES = ("Makefile.am", "configure.ac", "autogen.sh")
OPEN_MPI_TOPS = ("ompi", "opal", "orte", "oshmem")
SKIP_DIRS = {".git", "autom4te.cache"}


class GitIgnore:
    """The top-level .gitignore, enough of it for ompix's patterns."""

    def __init__(self, root):
        self.root = root
        self.pats = []
        try:
            with open(os.path.join(root, ".gitignore")) as f:
                lines = f.read().splitlines()
        except OSError:
            lines = []
        for line in lines:
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("!"):
                continue
            dir_only = line.endswith("/")
            pat = line.rstrip("/")
            anchored = pat.startswith("/") or "/" in pat
            self.pats.append((pat.lstrip("/"), dir_only, anchored))

    def tops(self):
        return {p.split("/")[0] for p, _, a in self.pats
                if a and not re.search(r"[*?\[]", p.split("/")[0])}

    def ignored(self, rel):
        parts = rel.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            is_dir = i < len(parts) or os.path.isdir(os.path.join(self.root, sub))
            for pat, dir_only, anchored in self.pats:
                if dir_only and not is_dir:
                    continue
                if fnmatch.fnmatchcase(sub if anchored else parts[i - 1], pat):
                    return True
        return False


class Tree:
    def __init__(self, root):
        self.root = root
        self.ign = GitIgnore(root)
        self.files = []          # relative paths, not ignored
        for d, dirs, files in os.walk(root):
            rel = os.path.relpath(d, root)
            rel = "" if rel == "." else rel
            keep = []
            for x in sorted(dirs):
                sub = os.path.join(rel, x)
                if x in SKIP_DIRS or self.ign.ignored(sub):
                    continue
                if os.path.exists(os.path.join(root, sub, "config.status")):
                    continue     # a build directory
                keep.append(x)
            dirs[:] = keep
            for x in sorted(files):
                sub = os.path.join(rel, x)
                if not self.ign.ignored(sub):
                    self.files.append(sub)
        self.basenames = {}
        self.stems = set()
        for f in self.files:
            b = os.path.basename(f)
            self.basenames.setdefault(b, []).append(f)
            self.stems.add(b.split(".")[0])
        self.tops = set(os.listdir(root)) | self.ign.tops()
        # ompix's components and extensions
        self.components = set()
        for mk in glob.glob(os.path.join(root, "ompi", "mca", "*", "*", "Makefile.am")):
            fw, comp = mk.split(os.sep)[-3:-1]
            self.components.add((fw, comp))
        self.extensions = {os.path.basename(os.path.dirname(p)) for p in
                           glob.glob(os.path.join(root, "ompi", "mpiext", "*", "configure.m4"))}
        self.prefixes = list(FIXED_PREFIXES)
        for fw, comp in sorted(self.components):
            self.prefixes += ["mca_%s_%s_" % (fw, comp), "%s_" % comp]
        for ext in sorted(self.extensions):
            self.prefixes.append("mpiext_%s_" % ext)
        # the corpus: every source file's text
        self.texts = {}
        for f in self.files:
            if f.endswith(".md") or f.startswith("test" + os.sep + "docs" + os.sep):
                continue
            try:
                with open(os.path.join(root, f), "rb") as fh:
                    data = fh.read()
            except OSError:
                continue
            if b"\0" in data:
                continue
            self.texts[f] = data.decode("utf-8", "replace")
        self.corpus = "\n".join(self.texts.values())
        self.words = set(re.findall(r"\w+", self.corpus))
        self.literals = set(re.findall(r'"([^"\\\n]*)"', self.corpus))
        self.build_text = "\n".join(t for f, t in self.texts.items()
                                    if os.path.basename(f) in BUILD_FILES or f.endswith(".m4"))

    # -- paths
    def exists(self, rel):
        rel = os.path.normpath(rel)
        if rel.startswith(".."):
            return False
        pat = re.sub(r"<[^>]*>", "*", rel)
        if glob.glob(os.path.join(self.root, pat)):
            return True
        return "*" not in pat and self.ign.ignored(rel)

    def generated(self, base):
        return re.search(r"(?<![\w.-])" + re.escape(base) + r"(?![\w-])", self.build_text)

    def resolve(self, word, docdir):
        """(status, files): status is 'ok', 'skip' or 'missing'."""
        word = word.rstrip("/")
        if "/" not in word:
            pat = re.sub(r"<[^>]*>", "*", word)
            here = glob.glob(os.path.join(self.root, docdir, pat))
            if here:
                return "ok", [os.path.relpath(h, self.root) for h in here]
            found = [f for b, fs in self.basenames.items() if fnmatch.fnmatchcase(b, pat)
                     for f in fs]
            if found:
                return "ok", found
            if "*" not in pat and self.generated(word):
                return "ok", []
            return "missing", []
        if word.startswith("./"):
            word = word[2:]
            return ("ok", [word]) if self.exists(word) else ("missing", [])
        if self.exists(os.path.join(docdir, word)):
            return "ok", [os.path.normpath(os.path.join(docdir, word))]
        parts = word.split("/")
        if parts[0] not in self.tops:
            if os.path.isdir(os.path.join(self.root, "test", parts[0])):
                # a test's name, as test/run prints it (continue/cont_p2p)
                for cand in ("test/" + word, "test/%s.c" % word, "test/%s.py" % word):
                    if self.exists(cand):
                        return "ok", [cand]
                return "missing", []
            return "skip", []
        if parts[0] in OPEN_MPI_TOPS and not self.ours(parts):
            return "skip", []
        if self.exists(word):
            return "ok", [word]
        return "missing", []

    def ours(self, parts):
        """Whether a path under ompi/ lies in ompix's tree, not Open MPI's."""
        def isdir(p):
            return bool(glob.glob(os.path.join(self.root, re.sub(r"<[^>]*>", "*", p))))
        if len(parts) < 2:
            return True
        if parts[1] == "mca":
            n = min(len(parts), 4)
            return isdir("/".join(parts[:n]))
        if parts[1] == "mpiext":
            n = min(len(parts), 3)
            return isdir("/".join(parts[:n]))
        return False

    def defines(self, files, func):
        name = re.escape(func)
        defn = re.compile(
            r"^(?:[A-Za-z_][\w \t\*]*?[\s\*])?" + name +
            r"\s*\((?:[^;{}()]|\([^()]*\))*\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?\{"
            r"|^\s*#\s*define\s+" + name + r"\(", re.M | re.S)
        for f in files:
            text = self.texts.get(f)
            if text is None:
                try:
                    with open(os.path.join(self.root, f)) as fh:
                        text = fh.read()
                except OSError:
                    continue
            if defn.search(text):
                return True
        return False

    # -- identifiers
    def occurs(self, word):
        if "*" in word or "<" in word:
            rx = re.escape(word).replace(r"\*", r"\w*")
            rx = re.sub(r"<[^>]*>", r"\\w+", rx.replace("\\<", "<").replace("\\>", ">"))
            return bool(re.search(r"\b" + rx + r"\b", self.corpus))
        return word in self.words

    def component_of(self, word):
        for fw, comp in sorted(self.components, key=lambda c: -len(c[0] + c[1])):
            pre = "%s_%s_" % (fw, comp)
            if word.startswith(pre) and len(word) > len(pre):
                return fw, comp, word[len(pre):]
        return None

    def registers(self, fw, comp, name):
        d = os.path.join("ompi", "mca", fw, comp) + os.sep
        lit = '"%s"' % name
        return any(f.startswith(d) and lit in t for f, t in self.texts.items())


def code_spans(text):
    """(line, span) for every inline code span outside fenced blocks."""
    lines = text.split("\n")
    fence = None
    for i, line in enumerate(lines):
        m = re.match(r"\s*(```+|~~~+)", line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            lines[i] = ""
        elif m:
            fence = m.group(1)
            lines[i] = ""
    text = "\n".join(lines)
    for m in re.finditer(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", text, re.S):
        span = m.group(2)
        if "\n\n" in span:
            continue
        yield text.count("\n", 0, m.start()) + 1, " ".join(span.split())


WORD_STRIP_L = "\"'([{$&*"
WORD_STRIP_R = "\"',;.)]}:"


def norm(word):
    """A word of a code span without the punctuation around it."""
    word = word.lstrip(WORD_STRIP_L)
    word = re.sub(r"\(\)[,;.:]*$", "", word)
    return word.rstrip(WORD_STRIP_R)


def judge(tree, word, docdir):
    """(kind, verdict, reason); verdict None = not checked."""
    if not word or (word.startswith("<") and word.endswith(">")):
        return "other", None, ""
    if word.startswith("-") or word.startswith("/"):
        return "other", None, ""
    m = re.match(r"^([\w./<>*-]+\.[ch]):(\w+)$", word)
    if m:
        st, files = tree.resolve(m.group(1), docdir)
        if st == "missing":
            return "file:function", False, "no such file " + m.group(1)
        if st == "skip":
            return "file:function", None, ""
        if not tree.defines(files, m.group(2)):
            return "file:function", False, "%s defines no function %s" % (m.group(1), m.group(2))
        return "file:function", True, ""
    if re.match(r"^[\w.<>*/-]+$", word) and ("/" in word or word.endswith(PATH_EXT)
                                             or word.startswith("Makefile.")):
        if word.endswith(".") or re.search(r"\.\.|//", word):
            return "other", None, ""
        st, _ = tree.resolve(word, docdir)
        if st == "skip":
            return "path", None, ""
        return "path", st == "ok", "no such file or directory"
    ident = re.sub(r"[(\[].*$", "", word).split("=")[0]
    if not re.match(r"^[A-Za-z_][\w*<>]*$", ident) or ident.endswith("_"):
        return "other", None, ""
    for pre in INFO_PREFIXES:
        if ident.startswith(pre):
            ok = ident in tree.literals
            return "info key", ok, 'no string literal "%s" in the sources' % ident
    comp = tree.component_of(ident)
    if comp:
        fw, c, name = comp
        ok = (tree.registers(fw, c, name) or tree.occurs(ident) or ident in tree.stems)
        return "MCA parameter", ok, '%s/%s registers no parameter "%s"' % (fw, c, name)
    for pre in tree.prefixes:
        if ident.startswith(pre):
            ok = tree.occurs(ident) or ident in tree.stems
            return "identifier", ok, "not in the sources"
    return "other", None, ""


def files_section(tree, doc, text):
    """README-design.md: the Files section names every .c/.h of its directory."""
    m = re.search(r"^(#+)\s+(?:source\s+)?files\b.*$", text, re.M | re.I)
    if not m:
        return []
    level = len(m.group(1))
    end = re.compile(r"^#{1,%d}\s" % level, re.M).search(text, m.end())
    section = text[m.end():end.start() if end else len(text)]
    line = text.count("\n", 0, m.start()) + 1
    docdir = os.path.dirname(doc)
    named = set()
    for _, span in code_spans(section):
        for w in span.split():
            w = norm(w)
            named.add(os.path.normpath(os.path.join(docdir, w)))
            named.add(os.path.basename(w))
    have = sorted(f for f in tree.files
                  if f.startswith(docdir + os.sep) and f.endswith((".c", ".h")))
    return [(line, os.path.relpath(f, docdir),
             "in %s/ but not in this file's Files section" % docdir)
            for f in have if f not in named and os.path.basename(f) not in named]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    ap.add_argument("--verbose", action="store_true",
                    help="print every checked word with its kind and verdict")
    ap.add_argument("docs", nargs="*", help="docs to check (default: all)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    tree = Tree(root)
    docs = [os.path.relpath(os.path.abspath(d), root) for d in args.docs]
    if not docs:
        pats = ["README.md", "docs/*.md", "test/*/README.md", "ompi/**/README-design.md"]
        for p in pats:
            docs += sorted(os.path.relpath(f, root)
                           for f in glob.glob(os.path.join(root, p), recursive=True))
    stale = []
    checked = 0
    for doc in docs:
        with open(os.path.join(root, doc)) as f:
            text = f.read()
        docdir = os.path.dirname(doc)
        seen = set()
        for line, span in code_spans(text):
            for w in span.split():
                w = norm(w)
                kind, ok, why = judge(tree, w, docdir)
                if ok is None:
                    continue
                checked += 1
                if args.verbose:
                    print("%s:%d: %-14s %-5s %s" % (doc, line, kind, "ok" if ok else "STALE", w))
                if not ok and (w, why) not in seen:
                    seen.add((w, why))
                    stale.append("%s:%d: `%s`: %s (%s)" % (doc, line, w, why, kind))
        if os.path.basename(doc) == "README-design.md":
            for line, name, why in files_section(tree, doc, text):
                stale.append("%s:%d: `%s`: %s" % (doc, line, name, why))
    for s in stale:
        print(s)
    print("doc_identifiers: %d names checked in %d docs, %d stale" % (checked, len(docs), len(stale)))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
