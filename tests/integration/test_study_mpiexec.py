#!/usr/bin/python3
"""Studies over MPI ranks (issue 29 item 3; doc/mpi.md "Studies over ranks", doc/study.md):
`study refine` and `study compare` start each run under the launcher of --mpiexec.

 1. study refine of the cantilever (tet4, levels 0 and 1) with --mpiexec "mpiexec -q -n 2": every
    run's run.h5 records 2 ranks, and each level's quantity (the strain energy) equals the one of
    the same study without a launcher to 1e-9 relative (a direct solve's round-off, cond(A) eps,
    doc/mpi.md "Accuracy": the distributed assembly and MUMPS sum in another order);
 2. study compare with --mpiexec over two time steps: 2 ranks per run, the probes equal to the
    1-rank study's to the same tolerance;
 3. the study killed with SIGKILL (no chance to stop its runs): every rank of its run ends by
    itself within a few seconds (the watchdog asks whether the study still exists, since a rank's
    parent is the launcher) and removes its run's folder;
 4. SIGINT: the study stops its runs (the launcher forwards the signal), nothing left, exit 130.
Bad launchers (empty, not in PATH) are in test_bad_input.py."""
import csv
import os
import shutil
import signal
import subprocess
import time

import h5py

from fctest import ROOT, FCSIM, outdir, run, probes, check, figure

t_start = time.time()
CASE = "cases/cantilever.json"
TET4 = ["--set", "bodies[0].mesh.order=1"]
LAUNCH = "mpiexec -q -n 2"
# mpi_yield_when_idle: waiting ranks give their core away (make check runs two tests at once; test_mpi.py)
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_mpi_yield_when_idle="1")
os.environ.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_mpi_yield_when_idle="1")
check(shutil.which("mpiexec") is not None, "mpiexec is installed (openmpi-bin, with petsc-dev: scripts/deps.sh)")


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def ranks(h5):
    with h5py.File(h5, "r") as f:
        return int(f["fcsim"].attrs["ranks"])


def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


# --- 1. study refine under the launcher --------------------------------------------------------
d1, d1s = outdir("study_mpiexec/refine_mpi"), outdir("study_mpiexec/refine_one")
run(["study", "refine", CASE, "--levels", "0,1", "-j", "1", "--mpiexec", LAUNCH, "-o", d1, "-q"] + TET4)
run(["study", "refine", CASE, "--levels", "0,1", "-j", "2", "-o", d1s, "-q"] + TET4)
rm, rs = rows(os.path.join(d1, "study.csv")), rows(os.path.join(d1s, "study.csv"))
nr = [ranks(os.path.join(d1, "level_%s" % r["level"], "run.h5")) for r in rm]
dq = max(rel(float(a["quantity"]), float(b["quantity"])) for a, b in zip(rm, rs))
figure("study refine --mpiexec '%s': ranks per run %s, DoFs %s, strain energy vs 1 rank max rel diff %.2e (tolerance 1e-9)"
       % (LAUNCH, nr, [r["dofs"] for r in rm], dq))
check(len(rm) == 2 and nr == [2, 2], "each level ran on 2 ranks")
check([r["dofs"] for r in rm] == [r["dofs"] for r in rs], "the same meshes")
check(dq <= 1e-9, "the quantity equals the 1-rank study's to 1e-9 relative")

# --- 2. study compare under the launcher -------------------------------------------------------
d2, d2s = outdir("study_mpiexec/compare_mpi"), outdir("study_mpiexec/compare_one")
axis = ["--axis", "dt=0.25,0.5"]
run(["study", "compare", CASE, "--mpiexec", LAUNCH, "-o", d2, "-q"] + axis + TET4)
run(["study", "compare", CASE, "-o", d2s, "-q"] + axis + TET4)
cells = sorted(x for x in os.listdir(d2) if os.path.isdir(os.path.join(d2, x)))
worst, nrc = 0.0, []
for c in cells:
    nrc.append(ranks(os.path.join(d2, c, "run.h5")))
    pm, ps = probes(os.path.join(d2, c)), probes(os.path.join(d2s, c))
    # each probe's scale: its largest |value| over its components and the run (tip_x, tip_y,
    # tip_z are one probe: a component that is zero but for round-off has no scale of its own)
    name = lambda k: k.rsplit("_", 1)[0] if k[-2:] in ("_x", "_y", "_z") else k
    scale = {}
    for k in ps:
        scale[name(k)] = max(scale.get(name(k), 0.0), max(abs(v) for v in ps[k]))
    for k in pm:
        if k in ("step", "time"):
            continue
        worst = max(worst, max(abs(a - b) for a, b in zip(pm[k], ps[k])) / max(scale[name(k)], 1e-300))
figure("study compare --mpiexec: %d cells, ranks per run %s, probes vs 1 rank max diff %.2e of each probe's scale (its largest |component| over the run) (tolerance 1e-9)" % (len(cells), nrc, worst))
check(len(cells) == 2 and nrc == [2, 2], "both cells ran on 2 ranks")
check(worst <= 1e-9, "the probes equal the 1-rank study's to 1e-9")


def ranks_of(tag):
    """pids of fcsim processes whose command line holds tag (the study's output folder)."""
    out = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            cmd = open("/proc/%s/cmdline" % p, "rb").read().split(b"\0")
        except OSError:
            continue
        if cmd and os.path.basename(cmd[0]) == b"fcsim" and any(tag.encode() in a for a in cmd[1:]) and b"run" in cmd:
            out.append(int(p))
    # a rank's mesh sandbox (a fork of it while Gmsh meshes, doc/mesh.md) has its command line:
    # count the ranks only, the processes whose parent is not one of them
    def ppid(q):
        try:
            return int(open("/proc/%d/stat" % q).read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return -1
    return [q for q in out if ppid(q) not in out]


def long_study(d):
    # one long level (output.every: the size estimate refuses 4e5 steps of fields where less is free)
    cmd = [FCSIM, "study", "refine", CASE, "--levels", "0", "--mpiexec", LAUNCH, "-o", d, "--set", "time.t_end=1e5", "--set", "output.every=1000000"] + TET4
    p = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.time()
    while len(ranks_of(d)) < 2 and time.time() - t0 < 60:
        time.sleep(0.1)
    time.sleep(1.5)  # the ranks are in their time loop
    return p


# --- 3. SIGKILL of the study: its ranks end by themselves -------------------------------------
d3 = outdir("study_mpiexec/killed")
p = long_study(d3)
before = ranks_of(d3)
p.kill()
p.wait()
t_k = time.time()
while ranks_of(d3) and time.time() - t_k < 20:
    time.sleep(0.1)
gone = time.time() - t_k
left = ranks_of(d3)
figure("SIGKILL of the study: ranks %s gone after %.2f s, left %s" % (before, gone, left))
check(len(before) == 2 and not left, "both ranks of the run ended after the study was killed")
time.sleep(0.5)
# the run's own folder (inside the study's temporary one) was removed by its ranks; the killed
# study's folder itself, holding the run's log, is removed by the next command on d3 (fsutil.h)
runs_left = [os.path.join(x, y) for x in os.listdir(os.path.dirname(d3)) if x.startswith("killed.partial")
             for y in os.listdir(os.path.join(os.path.dirname(d3), x)) if os.path.isdir(os.path.join(os.path.dirname(d3), x, y))]
check(not runs_left, "the ranks removed their run's folder (%s)" % runs_left)

# --- 4. SIGINT: the launcher forwards it, the study exits 130 ---------------------------------
d4 = outdir("study_mpiexec/interrupt")
p = long_study(d4)
before = ranks_of(d4)
p.send_signal(signal.SIGINT)
rc = p.wait(timeout=60)
t_i = time.time()
while ranks_of(d4) and time.time() - t_i < 20:
    time.sleep(0.1)
left = ranks_of(d4)
stale = [x for x in os.listdir(os.path.dirname(d4)) if x.startswith("interrupt")]
figure("SIGINT of the study: exit %d, ranks %s, left %s, folders left %s" % (rc, before, left, stale))
check(rc == 130, "exit status 130 after SIGINT")
check(len(before) == 2 and not left and not stale, "no rank and no folder left")
figure("test_study_mpiexec: %.1f s" % (time.time() - t_start))
