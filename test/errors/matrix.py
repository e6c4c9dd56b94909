#!/usr/bin/env python3
# Copyright (c) 2026 The ompix developers.
"""The error matrix, row by row, with crashes and hangs counted.

    test/errors/matrix.py [--tables rma,persist] [--tls shm,tcp] [--pml ob1,ucx]
                          [--osc rdma2,stock] [--np 2] [--row-timeout 30] [-v]

Compiles each table's program (test/errors/<table>.c, through pkg-config
ompix as test/run does) and runs it once per combination; when a row
crashes the job (no ROW line, the job ends) or hangs (no line for
--row-timeout seconds: the job is killed), the row is counted and the
program is started again at the next row (--from).  Prints one line per
row that is not ok and a table: rows, ok, crash, hang, silent (success
returned), wrong (another class, or the error handler not called once
with it), skip (a crash in Open MPI's binding layer, not run).  osc stock
selects the stock components (--mca osc ^rdma2).  Not a test/run case
(it reports, it does not judge): test/errors/*.c are.
"""
import argparse
import os
import re
import select
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
RUN = {"__file__": os.path.join(os.path.dirname(HERE), "run")}
exec(open(os.path.join(os.path.dirname(HERE), "run")).read().split("\ndef main():")[0], RUN)

ROW = re.compile(r"^ROW (\d+) (\S+) (.*)$")
# Tables whose rows depend on the osc component (rdma2: osc/rdma2 and the
# native notify path; stock: the stock components and the generic one).
OSC_TABLES = ("rma", "draft")
KINDS = ["ok", "crash", "hang", "silent", "wrong", "binding", "skip"]


def job(exe, np_, tls, pml, osc, start, row_timeout, extra, skip):
    """Runs from row `start`; returns ({row: (kind, text)}, next row or None)."""
    cmd = ["mpirun", "-np", str(np_), "--oversubscribe", "--bind-to", "none"]
    cmd += RUN["TLS"][tls] + RUN["PML"][pml]
    cmd += ["--mca", "osc", "rdma2,sm" if osc == "rdma2" else "^rdma2"] + extra
    cmd += [exe, "--from", str(start)] + skip
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                         start_new_session=True)
    rows, last, buf, out = {}, start - 1, b"", []
    deadline = time.time() + row_timeout
    hung = False
    while True:
        r, _, _ = select.select([p.stdout], [], [], max(0.0, deadline - time.time()))
        if not r:
            hung = True
            break
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            break
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            line = line.decode(errors="replace")
            out.append(line)
            m = ROW.match(line)
            if m:
                n, kind = int(m.group(1)), m.group(2)
                kind = {"handler": "wrong"}.get(kind, kind)
                rows[n] = (kind, m.group(3))
                last = max(last, n)
                deadline = time.time() + row_timeout
    if hung:
        os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    if not hung and p.returncode == 0 or any("ok (" in l or "FAILED (" in l for l in out[-3:]):
        return rows, None, out
    return rows, ("hang" if hung else "crash"), out


def table_rows(exe):
    out = subprocess.run(["mpirun", "-np", "1", exe, "--list"], capture_output=True, text=True,
                         env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                                  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")).stdout
    rows = {}
    for line in out.splitlines():
        m = ROW.match(line)
        if m:
            rows[int(m.group(1))] = (m.group(2), m.group(3))
    return rows


def run_combo(exe, listing, args, np_, tls, pml, osc):
    result, start = {}, 0
    order = sorted(listing)
    while start is not None and start <= (order[-1] if order else -1):
        skip = [a for i in order if listing[i][0] == "skip" for a in ("--skip", str(i))]
        rows, failure, out = job(exe, np_, tls, pml, osc, start, args.row_timeout, args.mca, skip)
        result.update(rows)
        if failure is None:
            break
        pending = [i for i in order if i >= start and i not in rows and listing[i][0] != "skip"]
        if not pending:
            break
        result[pending[0]] = (failure, listing[pending[0]][1])
        if args.verbose:
            print("\n".join("    " + l for l in out[-15:]))
        start = pending[0] + 1
    for i in order:
        if i not in result:
            result[i] = ("skip" if listing[i][0] == "skip" else "crash", listing[i][1])
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", default="rma,persist")
    ap.add_argument("--tls", default="shm,tcp")
    ap.add_argument("--pml", default="ob1")
    ap.add_argument("--osc", default="rdma2,stock")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--row-timeout", type=float, default=30)
    ap.add_argument("--mca", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    ap.add_argument("--exclude", help="rows whose 'call | input' matches this regex are not "
                    "run (counted as skip): e.g. rows that would flood /dev/shm on a build "
                    "that does not refuse them")
    ap.add_argument("--build-dir", default=os.path.join(HERE, "..", "build"),
                    help="where the programs are compiled (one per build measured)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    args.mca = [x for pair in args.mca for x in ("--mca",) + tuple(pair)]
    mpicc, _, flags = RUN["find_tools"](argparse.Namespace(mpi_prefix=None, ompi_prefix=None,
                                                           no_pkg_config=False))
    build = args.build_dir
    os.makedirs(build, exist_ok=True)
    print("%-8s %-4s %-4s %-6s %5s %5s %5s %5s %6s %5s %7s %5s" %
          (("table", "tls", "pml", "osc", "rows") + tuple(KINDS)))
    summary = []
    for table in args.tables.split(","):
        exe = os.path.join(build, "errors_matrix_" + table)
        ok, out = RUN["compile_test"](mpicc, flags, os.path.join(HERE, table + ".c"), exe)
        if not ok:
            sys.exit(out)
        listing = table_rows(exe)
        if args.exclude:
            for i, (kind, text) in list(listing.items()):
                if re.search(args.exclude, text):
                    listing[i] = ("skip", text)
        for tls in args.tls.split(","):
            for pml in args.pml.split(","):
                for osc in args.osc.split(","):
                    if table not in OSC_TABLES and osc != args.osc.split(",")[0]:
                        continue        # the other tables do not depend on the osc
                    res = run_combo(exe, listing, args, args.np, tls, pml, osc)
                    counts = {k: 0 for k in KINDS}
                    for i in sorted(res):
                        kind, text = res[i]
                        counts[kind] = counts.get(kind, 0) + 1
                        if kind not in ("ok", "skip"):
                            print("  %s %s %s %s row %d %s: %s" % (table, tls, pml, osc, i,
                                                                   kind, text))
                    summary.append("%-8s %-4s %-4s %-6s %5d %5d %5d %5d %6d %5d %7d %5d" %
                                   ((table, tls, pml, osc if table in OSC_TABLES else "-", len(res))
                                    + tuple(counts[k] for k in KINDS)))
                    print(summary[-1], flush=True)
    print("\n".join(["", "summary"] + summary))


if __name__ == "__main__":
    main()
