#!/usr/bin/env python3
# Copyright (c) 2026 The ompix developers.
# ompix-test: kind=script timeout=900 valgrind=no
"""A failed peer ends the job, and nothing is left behind (issue 28.2).

    test/kill/kill.py [--cases lockall,chan,...] [--tls shm,tcp] [--bound 30]

Runs test/kill/kill_job.c on 2 ranks once per case and transport: rank 1
SIGKILLs itself in the middle of an osc/rdma2 lock_all epoch, a channel
ping-pong, a persistent allreduce loop, a continuation wait, a read-notify
pipeline, before or inside MPI_Win_allocate/MPI_Win_create, and after a
MPI_Win_allocate of 2^50 bytes failed.  Each job must end by itself
(mpirun exits non-zero) within --bound seconds; no timing assert beyond
that.  Then nothing the job made may remain: every /dev/shm name and
System V segment its ranks mapped (they list /proc/self/maps before the
kill), and every /dev/shm name that carries the job's id.  Prints the
seconds from the kill to mpirun's exit per case (the table of the issue's
closing note); what a failed case left is removed.

Against an in-tree build (test/run --mpi-prefix) the prefix comes in
OMPIX_TEST_MPI_PREFIX, against another Open MPI (test/run --ompi-prefix)
in OMPIX_TEST_OMPI_PREFIX; otherwise mpicc and mpirun from PATH, with
ompix through pkg-config as test/run compiles.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = {"__file__": os.path.join(os.path.dirname(HERE), "run")}
exec(open(RUN["__file__"]).read().split("\ndef main():")[0], RUN)

CASES = ["lockall", "chan", "persist", "cont", "readnotify", "huge",
         "alloc_before", "alloc_inside", "create_before", "create_inside"]
# The cases on pml ucx as well (shm: UCX's posix segments come first there).
UCX_CASES = ["lockall", "chan", "readnotify"]


def tools():
    args = argparse.Namespace(mpi_prefix=os.environ.get("OMPIX_TEST_MPI_PREFIX"),
                              ompi_prefix=os.environ.get("OMPIX_TEST_OMPI_PREFIX"),
                              no_pkg_config=False)
    return RUN["find_tools"](args)


def indent(text):
    return "\n".join("    " + l for l in text.rstrip("\n").split("\n")[-80:])


def sysv_ids():
    with open("/proc/sysvipc/shm") as f:
        return {l.split()[1] for l in f.readlines()[1:] if l.split()}


def read_ranks(outdir):
    """{rank: [(word, value), ...]} from the files the ranks wrote."""
    ranks = {}
    for r in (0, 1):
        path = os.path.join(outdir, "rank%d" % r)
        if os.path.exists(path):
            with open(path) as f:
                ranks[r] = [tuple(l.rstrip("\n").split(" ", 1)) for l in f if " " in l]
    return ranks


def leftovers(ranks):
    """What the job made that still exists: /dev/shm paths and System V ids."""
    paths, ids, jobs = set(), set(), set()
    for lines in ranks.values():
        for word, val in lines:
            if word == "SEG":
                paths.add(val)
            elif word == "SYSV":
                ids.add(val)
            elif word == "JOB" and val:
                jobs.add("%x" % int(val))
    for name in os.listdir("/dev/shm"):
        if any(".%s." % j in name for j in jobs):
            paths.add(os.path.join("/dev/shm", name))
    return sorted(p for p in paths if os.path.exists(p)), sorted(ids & sysv_ids())


def remove(paths, ids):
    for p in paths:
        try:
            os.unlink(p)
        except OSError:
            pass
    for i in ids:
        subprocess.run(["ipcrm", "-m", i], stderr=subprocess.DEVNULL)


def mpirun_cmd(mpirun, exe, case, tls, pml, outdir):
    cmd = [mpirun, "-np", "2", "--oversubscribe", "--bind-to", "none"]
    cmd += RUN["TLS"][tls] + RUN["PML"][pml] + ["--mca", "osc", "rdma2,sm"]
    return cmd + [exe, case, outdir]


def judge(case, rc, secs, ranks, out, bound):
    """The problems of one finished (or killed) job."""
    bad = []
    if rc is None:
        bad.append("did not end within %d s" % bound)
    elif rc == 0:
        bad.append("mpirun exited 0")
    if not any(w == "KILL" for w, _ in ranks.get(1, [])):
        bad.append("the victim did not reach its kill")
    if 0 not in ranks:
        bad.append("the survivor wrote nothing")
    if "check failed" in out or "kill_job:" in out:
        bad.append("the program failed")
    if case == "huge":
        classes = [v for r in ranks.values() for w, v in r if w == "HUGE"]
        if len(classes) != 2 or "0" in classes:
            bad.append("MPI_Win_allocate(2^50) classes %s, expected an error on both" % classes)
    return bad


def run_one(mpirun, exe, case, tls, pml, bound):
    outdir = tempfile.mkdtemp(prefix="ompix-kill-")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    p = subprocess.Popen(mpirun_cmd(mpirun, exe, case, tls, pml, outdir), env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=bound + 30)   # start-up is not the bound's
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, rc = p.communicate()[0], None
    end = time.time()
    ranks = read_ranks(outdir)
    shutil.rmtree(outdir, ignore_errors=True)
    kill_at = [float(v) for w, v in ranks.get(1, []) if w == "KILL"]
    secs = end - kill_at[0] if kill_at else None
    if rc is not None and secs is not None and secs > bound:
        rc = None
    bad = judge(case, rc, secs, ranks, out, bound)
    paths, ids = leftovers(ranks)
    if paths or ids:
        bad.append("left behind: %s" % " ".join(paths + ["sysv:" + i for i in ids]))
        remove(paths, ids)
    return secs, bad, out


def run_started(mpirun, exe, case, tls, pml, bound):
    """run_one, once more when no rank got past MPI_Init (a start-up
    failure on a loaded machine is not what this test judges; the first
    attempt's output is shown)."""
    secs, bad, out = run_one(mpirun, exe, case, tls, pml, bound)
    if "the survivor wrote nothing" in bad and "the victim did not reach its kill" in bad:
        print("%s %s %s: no rank started; once more after:\n%s" % (case, tls, pml, indent(out)))
        secs, bad, out = run_one(mpirun, exe, case, tls, pml, bound)
    return secs, bad, out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--tls", default="shm,tcp")
    ap.add_argument("--bound", type=float, default=30.0,
                    help="seconds from the kill to the end of the job")
    args = ap.parse_args()
    mpicc, mpirun, flags = tools()
    build = tempfile.mkdtemp(prefix="ompix-kill-build-")
    try:
        exe = os.path.join(build, "kill_job")
        ok, out = RUN["compile_test"](mpicc, flags, os.path.join(HERE, "kill_job.c"), exe)
        if not ok:
            print(out)
            return 1
        failed = run_all(args, mpirun, exe)
    finally:
        shutil.rmtree(build, ignore_errors=True)
    print("kill: %s" % ("%d case(s) failed" % failed if failed else "ok"))
    return 1 if failed else 0


def run_all(args, mpirun, exe):
    """Every case and transport; prints the table, returns the failures."""
    have = subprocess.run([exe, "--list"], capture_output=True, text=True).stdout.split()
    failed = 0
    print("%-14s %-4s %-4s %s" % ("case", "tls", "pml", "seconds from the kill to mpirun's exit"))
    for tls in args.tls.split(","):
        for case in args.cases.split(","):
            if case not in have and "_" not in case:
                continue        # chan: no channel extension in this Open MPI (5.0)
            for pml in ["ob1"] + (["ucx"] if tls == "shm" and case in UCX_CASES else []):
                secs, bad, out = run_started(mpirun, exe, case, tls, pml, args.bound)
                failed += bool(bad)
                print("%-14s %-4s %-4s %s%s" % (case, tls, pml,
                                                "-" if secs is None else "%.1f" % secs,
                                                "  FAIL: " + "; ".join(bad) if bad else ""),
                      flush=True)
                if bad:
                    print(indent(out))
    return failed

if __name__ == "__main__":
    sys.exit(main())
