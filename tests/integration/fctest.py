"""Helpers for fcsim integration tests: run bin/fcsim, read run.h5 / probes.csv, assert.

Every test prints its figures as lines starting with "FIGURE" (tests/run.sh shows them) and
exits non-zero on the first failed assertion."""
import csv
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# FCSIM_BIN: another build of the binary (parallel development builds: make BUILD=.. BIN=..)
FCSIM = os.environ.get("FCSIM_BIN") or os.path.join(ROOT, "bin", "fcsim")
OUT = os.path.join(ROOT, "tests", "out")


def fclib_real():
    """The folder of the real FCLIB problems (../shared/fclib-real from the project root; from a
    git worktree one level deeper, the nearest ancestor that has shared/fclib-real), or None."""
    d = ROOT
    while True:
        cand = os.path.join(os.path.dirname(d), "shared", "fclib-real")
        if os.path.isdir(cand):
            return cand
        if os.path.dirname(d) == d:
            return None
        d = os.path.dirname(d)


def outdir(name):
    d = os.path.join(OUT, name)
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(os.path.dirname(d), exist_ok=True)
    return d


def run(args, expect=0, timeout=600, quiet=True):
    """Run fcsim with args (list); assert the exit code; return the CompletedProcess."""
    cmd = [FCSIM] + list(args)
    if quiet and args and args[0] == "run" and "-q" not in args:
        cmd.append("-q")
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    if expect is not None and p.returncode != expect:
        print("command:", " ".join(cmd))
        print("stdout:", p.stdout[-3000:])
        print("stderr:", p.stderr[-3000:])
        fail("exit code %d, expected %d" % (p.returncode, expect))
    return p


def probes(rundir):
    """probes.csv as a dict column -> list of floats."""
    with open(os.path.join(rundir, "probes.csv")) as f:
        rows = list(csv.reader(f))
    head = rows[0]
    cols = {h: [] for h in head}
    for r in rows[1:]:
        for h, v in zip(head, r):
            cols[h].append(float(v))
    return cols


def stats(rundir):
    with open(os.path.join(rundir, "stats.csv")) as f:
        rows = list(csv.reader(f))
    head = rows[0]
    return {h: [float(r[i]) for r in rows[1:]] for i, h in enumerate(head)}


def figure(text):
    print("FIGURE " + text)
    sys.stdout.flush()


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)
    print("ok: " + msg)


def fclib_local_wq(path):
    """W (dense, from FCLIB's compressed sparse columns p, i, x) and q of an FCLIB local problem."""
    import h5py
    import numpy as np
    with h5py.File(path, "r") as f:
        g = f["fclib_local/W"]
        n, pp, ii, xx = int(g["n"][0]), g["p"][()], g["i"][()], g["x"][()]
        q = f["fclib_local/vectors/q"][()]
    W = np.zeros((n, n))
    for j in range(n):
        W[ii[pp[j]:pp[j + 1]], j] = xx[pp[j]:pp[j + 1]]
    return W, q


def mpi_env(tmpdir):
    """The environment of an mpiexec job as a user would start it: this test's empty TMPDIR, no
    Open MPI or PMIx setting of the caller's (OMPI_MCA_*, PMIX_*), root allowed (the CI runs as
    root), and ranks that yield their core while they wait (make check runs two tests at once on
    2 cores: doc/mpi.md)."""
    env = dict(os.environ, TMPDIR=tmpdir, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for k in list(env):
        if k.startswith("OMPI_MCA") or k.startswith("PMIX_"):
            del env[k]
    env["OMPI_MCA_mpi_yield_when_idle"] = "1"
    return env
