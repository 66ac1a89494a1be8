"""fcsim study compare as a matrix of variants, and study refine over the time step
(src/study/compare.c, src/study/refine.c --over dt, doc/study.md).

1. The matrix: cases/block_on_floor.json (4 steps of 0.01 s) over solver = nsgs, lemke:k=16 (a
   variant with an option, as fclib compare takes it), compliance = exact, schur, dt = 0.01,
   0.02, -j 2: compare.csv has the 2 x 2 x 2 = 8 cells of the cross product in order, each cell
   a run of its own; two cells rerun here as a single `fcsim run` with the same --set and
   option give the same probes (the study adds nothing to a run); the end values, the cost
   split (sums of stats.csv's timing columns) and the probe difference against the first cell
   (interpolated in time: the dt = 0.02 cells have half the rows) recomputed here from the
   runs' own files; with nsgs the Schur compliance gives the exact one's probes to round-off
   (it is an exact reformulation of W, doc/schur.md); lemke:k=16 really ran with k = 16 (its
   log). A case without contacts over integrator x level: 4 cells, level 1 on the finer mesh.
2. study refine --over dt: a tet4 unit cube clamped at its base under a sudden shear force on
   its top, undamped, at t = 0.05 s (about a quarter of its fundamental period, where the top
   moves fastest, so the displacement is sensitive to the phase error) with dt = 5e-4,
   2.5e-4, 1.25e-4 s. Every mode of this 2-elements-per-edge mesh is resolved (the study's
   orders are steady from dt = 2e-3 down: measured 0.70, 0.90, 0.98, 1.00 for backward Euler and
   1.90, 2.01, 2.00, 2.00 for the midpoint rule), so the observed orders are the schemes' own:
   1 for backward Euler and 2 for the midpoint rule (Hairer, Norsett & Wanner, Solving ODEs I,
   §II.7), asserted within 0.05 (measured 0.982 and 2.003 on these levels); both Richardson
   values are the same limit (5.5e-5 relative measured; 2e-4 asserted: backward Euler's
   extrapolation with p = 0.98 keeps an O(dt^2) remainder).
3. Bad input: an unknown axis, solver, solver option, a bad option value, a malformed variant,
   bad dt / level / compliance / integrator values, an axis given twice, a --set of a key an
   axis sets, too many cells, an option of the case that only the run reads (its line is the
   study's), study refine --over with an unknown value or with --bodies: exit 2, one line,
   nothing written. fclib compare refuses an
   unknown solver option the same way (the parser is shared)."""
import csv
import json
import math
import os
import re
import subprocess
import time

import numpy as np

from fctest import ROOT, FCSIM, OUT, outdir, run, probes, stats, check, figure, fail

t_start = time.time()
FLOOR = "cases/block_on_floor.json"
BASE = ["--set", "time.t_end=0.04", "--set", "output.vtk=false"]
# lemke's pyramid (k sides) is not the Coulomb cone: its common error stays ~1e-4 (the default
# tol 1e-10 would fail every step), so every cell is judged at tol 1e-3 / max_error 1e-2
TOL = ["--set", "contact_solver.tol=1e-3", "--set", "contact_solver.max_error=1e-2"]


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(f))


# --- 1. the matrix ------------------------------------------------------------------------------
d1 = outdir("study_compare/matrix")
t0 = time.time()
p = run(["study", "compare", FLOOR, "--axis", "solver=nsgs,lemke:k=16", "--axis", "compliance=exact,schur", "--axis", "dt=0.01,0.02",
         "-j", "2", "-q", "-o", d1] + BASE + TOL)
wall = time.time() - t0
rows = rows_of(os.path.join(d1, "compare.csv"))
cells = [(s, c, t) for s in ("nsgs", "lemke:k=16") for c in ("exact", "schur") for t in ("0.01", "0.02")]
check([(r["solver"], r["compliance"], r["dt"]) for r in rows] == cells, "compare.csv: the 8 cells of the cross product, the first axis slowest (%d rows)" % len(rows))
check(all(r["run"] == "__".join(c) and os.path.isfile(os.path.join(d1, r["run"], "probes.csv")) and os.path.isfile(os.path.join(d1, r["run"] + ".log")) for r, c in zip(rows, cells)),
      "one run folder and log per cell, named by its values")
check(all(r["status"] == "ok" and r["exit_status"] == "0" for r in rows), "every cell ran and converged")
check(all(int(r["steps"]) == int(r["converged_steps"]) == (4 if r["dt"] == "0.01" else 2) for r in rows), "dt 0.01: 4 steps, dt 0.02: 2 steps to t_end = 0.04")
figure("study compare 2x2x2 matrix (block on floor, 0.04 s): %.1f s with -j 2; " % wall + "; ".join(
    "%s %s it/step, contact solve %.2g s, max probe diff %s" % (r["run"], r["mean_contact_it"], float(r["contact_solve_time"]), r["max_probe_difference"]) for r in rows))

# the cost split and the end values are the run's own numbers
for r in rows:
    st = stats(os.path.join(d1, r["run"]))
    pr = probes(os.path.join(d1, r["run"]))
    for col in ("assembly_time", "factor_time", "w_time", "detect_time", "contact_solve_time", "output_time", "step_time"):
        if abs(float(r[col]) - sum(st[col])) > 1e-12 * max(1.0, sum(st[col])):
            fail("%s: %s %s is not the sum of its stats.csv column (%r)" % (r["run"], col, r[col], sum(st[col])))
    ends = [k for k in r if k.startswith("end_")]
    if not ends or any(float(r[k]) != pr[k[4:]][-1] for k in ends):
        fail("%s: the end_ columns are not the last row of its probes.csv" % r["run"])
    # the solver columns are written with 7 digits (%.6e, as before the matrix): 1e-6 relative
    if abs(float(r["mean_contact_it"]) - np.mean(st["contact_it"])) > 1e-6 * np.mean(st["contact_it"]):
        fail("%s: mean_contact_it" % r["run"])
check(True, "cost split columns = sums of each run's stats.csv timings; end_* = the last row of its probes.csv; contact iterations = its stats")

# the probe difference against the first cell, recomputed with numpy.interp
ref = probes(os.path.join(d1, rows[0]["run"]))
cols = [c for c in ref if c not in ("step", "time")]


def diff(pr):
    out = 0.0
    for c in cols:
        m = re.match(r"(.*)_([xyz])$", c)
        group = [m.group(1) + "_" + a for a in "xyz"] if m and all(m.group(1) + "_" + a in ref for a in "xyz") else [c]
        den = max(max(abs(v) for v in ref[g]) for g in group)
        inside = [k for k, t in enumerate(ref["time"]) if pr["time"][0] <= t <= pr["time"][-1]]
        y = np.interp(np.array(ref["time"])[inside], pr["time"], pr[c])
        num = max(abs(y - np.array(ref[c])[inside]))
        if den > 0:
            out = max(out, num / den)
    return out


for r in rows:
    got, want = float(r["max_probe_difference"]), diff(probes(os.path.join(d1, r["run"])))
    if abs(got - want) > 1e-6 * want:  # %.6e in compare.csv
        fail("%s: max_probe_difference %r, recomputed %r" % (r["run"], got, want))
check(float(rows[0]["max_probe_difference"]) == 0 and float(rows[1]["max_probe_difference"]) > 1e-3,
      "max_probe_difference = numpy.interp's at the first cell's times (0 for itself; dt 0.02 differs: %s)" % rows[1]["max_probe_difference"])
# Schur's compliance is the exact W, reformulated (doc/schur.md): nsgs, a fixed sequence of
# sweeps, lands on the same iterates to round-off. (lemke's pivoting is not continuous in W: a
# round-off difference of W may choose another pivot, and at its common error ~3e-4 the two
# answers differ by O(1) of the probes: measured 1.3; not asserted.)
for s in ("nsgs",):
    for t in ("0.01", "0.02"):
        a, b = probes(os.path.join(d1, "%s__exact__%s" % (s, t))), probes(os.path.join(d1, "%s__schur__%s" % (s, t)))
        dmax = max(abs(x - y) / max(1e-30, max(abs(v) for v in a[c])) for c in cols for x, y in zip(a[c], b[c]) if max(abs(v) for v in a[c]) > 0)
        if dmax > 1e-9:
            fail("%s dt %s: schur differs from exact by %.3g" % (s, t, dmax))
check(True, "compliance schur = exact to round-off (1e-9) with nsgs at both dt")
log = open(os.path.join(d1, "lemke:k=16__exact__0.01.log")).read()
check("-fc_contact_solver_lemke_k 16" in log.splitlines()[0] and "contact_solver.type=\"lemke\"" in log.splitlines()[0], "the lemke:k=16 cells ran with -fc_contact_solver_lemke_k 16 (the log's command line)")
# each cell is what a single `fcsim run` of that variant gives
for cell, extra in (("nsgs__schur__0.02", ["--set", "contact_solver.type=\"nsgs\"", "--set", "compliance.type=\"schur\"", "--set", "time.dt=0.02"]),
                    ("lemke:k=16__exact__0.01", ["--set", "contact_solver.type=\"lemke\"", "--set", "compliance.type=\"exact\"", "--set", "time.dt=0.01", "-fc_contact_solver_lemke_k", "16"])):
    ds = outdir("study_compare/single_" + cell.replace(":", "_"))
    # a study's runs get one BLAS thread each (src/fcsim.c): the same here, else a threaded BLAS
    # sums in another order (measured: 1e-14 relative differences with the Schur compliance)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    ps = subprocess.run([FCSIM, "run", FLOOR] + BASE + TOL + extra + ["-o", ds, "-q"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    check(ps.returncode == 0, "%s: the single run exits 0 (%s)" % (cell, ps.stderr.strip()))
    a, b = probes(ds), probes(os.path.join(d1, cell))
    check(a.keys() == b.keys() and all(a[c] == b[c] for c in a), "%s: its probes.csv = a single fcsim run of that variant (every value equal)" % cell)

# the figure of the matrix (scripts/plot_study_compare.py): PNG and PDF; a folder without a
# compare.csv is one line, exit 2
pp = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "plot_study_compare.py"), d1], cwd=ROOT, capture_output=True, text=True, timeout=120)
check(pp.returncode == 0 and all(os.path.getsize(os.path.join(d1, "compare." + e)) > 1000 for e in ("png", "pdf")), "plot_study_compare.py draws compare.png and compare.pdf (%s)" % pp.stderr.strip())
pp = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "plot_study_compare.py"), os.path.join(d1, "nsgs__exact__0.01")], cwd=ROOT, capture_output=True, text=True, timeout=120)
check(pp.returncode == 2 and pp.stderr.count("\n") == 1 and "compare.csv" in pp.stderr, "plot_study_compare.py on a folder without compare.csv: one line, exit 2 (%s)" % pp.stderr.strip())

# one axis other than solver, on a case without contacts: the integrator and the mesh level
d1b = outdir("study_compare/integrator_level")
run(["study", "compare", "cases/bar_dynamic.json", "--axis", "integrator=backward_euler,midpoint", "--axis", "level=0,1", "--set", "time.t_end=0.002",
     "--set", "output.vtk=false", "-j", "2", "-q", "-o", d1b])
rows_b = rows_of(os.path.join(d1b, "compare.csv"))
check([(r["integrator"], r["level"]) for r in rows_b] == [(i, l) for i in ("backward_euler", "midpoint") for l in ("0", "1")] and all(r["status"] == "ok" for r in rows_b),
      "integrator x level on a case without contacts: 4 cells, all ok")
import h5py
with h5py.File(os.path.join(d1b, "backward_euler__0", "run.h5"), "r") as h:
    n0 = h["bodies/bar/mesh/cells"].shape[0]
with h5py.File(os.path.join(d1b, "midpoint__1", "run.h5"), "r") as h:
    n1 = h["bodies/bar/mesh/cells"].shape[0]
check(n1 > 4 * n0, "level 1 cells have the refined mesh (%d vs %d tetrahedra)" % (n1, n0))
# the same study again to the same -o: its own earlier output (run folders and their <run>.log
# beside them) is replaced, as a run's is
pr2 = subprocess.run([FCSIM, "study", "compare", "cases/bar_dynamic.json", "--axis", "integrator=backward_euler,midpoint", "--axis", "level=0,1", "--set", "time.t_end=0.002",
                      "--set", "output.vtk=false", "-j", "2", "-q", "-o", d1b], cwd=ROOT, capture_output=True, text=True, timeout=600)
check(pr2.returncode == 0 and len(rows_of(os.path.join(d1b, "compare.csv"))) == 4, "a second study to the same -o replaces the first (exit %d: %s)" % (pr2.returncode, pr2.stderr.strip()))

# --- 2. study refine over the time step ----------------------------------------------------------
cube = os.path.join(OUT, "study_compare", "cube_shake.json")
with open(cube, "w") as f:
    json.dump({"name": "cube_shake",
               "description": "tet4 unit cube clamped at z = 0, sudden shear force 1000 N on z = 1, undamped",
               "time": {"integrator": "backward_euler", "dt": 5e-4, "t_end": 0.05},
               "bodies": [{"name": "cube", "mesh": {"file": os.path.join(ROOT, "meshes", "cube.geo"), "refine": 0, "order": 1},
                           "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000},
                           "boundary": [{"group": "zmin", "fix": [True, True, True]}],
                           "loads": [{"group": "zmax", "force": [1000, 0, 0]}]}],
               "probes": [{"name": "top", "type": "displacement", "body": "cube", "group": "zmax"}],
               "output": {"every": 100000, "vtk": False}}, f)
qinf = {}
for integ, order in (("backward_euler", 1.0), ("midpoint", 2.0)):
    d2 = outdir("study_compare/dt_" + integ)
    run(["study", "refine", cube, "--over", "dt", "--levels", "0,1,2", "--quantity", "top_x", "--set", "time.integrator=\"%s\"" % integ, "-j", "2", "-q", "-o", d2])
    rs = rows_of(os.path.join(d2, "study.csv"))
    for L, r in enumerate(rs):
        pr = probes(os.path.join(d2, "level_%d" % L))
        dts = np.diff(pr["time"])
        if not (len(pr["time"]) == 100 * 2 ** L + 1 and np.allclose(dts, 5e-4 / 2 ** L, rtol=1e-9) and abs(pr["time"][-1] - 0.05) < 1e-12):
            fail("%s level %d: expected %d steps of %g s to t = 0.05" % (integ, L, 100 * 2 ** L, 5e-4 / 2 ** L))
    q = [float(r["quantity"]) for r in rs]
    p_py = math.log(abs(q[1] - q[0]) / abs(q[2] - q[1])) / math.log(2)
    p_st = float(rs[2]["order"])
    qinf[integ] = float(rs[2]["richardson"])
    figure("study refine --over dt, %s: top_x %s, observed order %.4f, Richardson %.10g m" % (integ, ["%.10g" % v for v in q], p_st, qinf[integ]))
    check(abs(p_st - p_py) <= 1e-12 * p_py, "%s: order = ln(|Q1-Q0|/|Q2-Q1|)/ln 2 (%.6f)" % (integ, p_py))
    check(abs(p_st - order) <= 0.05, "%s: observed order %.3f = %.0f within 0.05" % (integ, p_st, order))
    md = open(os.path.join(d2, "study.md")).read()
    check("Time-step refinement study" in md and "time.dt" in md, "%s: study.md says the time step is refined" % integ)
rel = abs(qinf["backward_euler"] - qinf["midpoint"]) / abs(qinf["midpoint"])
figure("Richardson limits of backward Euler and midpoint agree to %.2e" % rel)
check(rel < 2e-4, "both schemes extrapolate to the same limit (%.2e < 2e-4)" % rel)

# --- 2b. SIGINT stops the runs and leaves nothing ------------------------------------------------
d4 = outdir("study_compare/interrupt")
import signal
cmd = [FCSIM, "study", "compare", FLOOR, "--axis", "dt=0.01,0.005", "-j", "2", "-o", d4, "--set", "time.t_end=1000", "--set", "output.every=1000000", "--set", "output.vtk=false"]
pi = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
pids = []
while len(pids) < 2:
    line = pi.stderr.readline()
    if not line:
        break
    if "started (pid" in line:
        pids.append(int(line.split("(pid ")[1].split(",")[0]))
time.sleep(2.0)  # both runs are in their time loops
pi.send_signal(signal.SIGINT)
out, errtext = pi.communicate(timeout=60)
alive = []
for pid in pids:
    try:
        os.kill(pid, 0)
        alive.append(pid)
    except ProcessLookupError:
        pass
left = [x for x in os.listdir(os.path.dirname(d4)) if x.startswith("interrupt")]
check(pi.returncode == 130 and len(pids) == 2 and not alive and not left, "SIGINT: exit 130 (%d), both runs started and stopped (%s alive), nothing left (%s)" % (pi.returncode, alive, left))

# --- 3. bad input ----------------------------------------------------------------------------------
bad = os.path.join(OUT, "study_compare", "bad")


def refused(args, needles, what, cmd=("study", "compare", FLOOR)):
    p = subprocess.run([FCSIM] + list(cmd) + args + ["-o", bad, "-q"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    left = [x for x in os.listdir(os.path.dirname(bad)) if x.startswith("bad")]
    if p.returncode != 2 or len(lines) != 1 or not all(n in lines[0] for n in needles) or left:
        print("stderr:", p.stderr, "stdout:", p.stdout[-2000:])
        fail("%s: expected exit 2, one line with %s and nothing written (exit %d, left %s)" % (what, needles, p.returncode, left))
    print("ok: %s -> %s" % (what, lines[0]))


refused(["--axis", "mesh=0,1"], ["--axis", "'mesh': unknown axis", "solver, compliance, dt, integrator or level"], "unknown axis")
refused(["--axis", "solver"], ["--axis", "expected NAME=V1,V2"], "axis without values")
refused(["--axis", "solver=nsgs,nosuch"], ["nosuch", "nsgs"], "unknown solver")
refused(["--axis", "solver=lemke:foo=1"], ["--axis", "lemke has no option 'foo'"], "unknown solver option")
refused(["--axis", "solver=lemke:k=abc"], ["-fc_contact_solver_lemke_k", "expected an integer"], "bad option value")
refused(["--axis", "solver=lemke:k"], ["--axis", "type:key=value"], "malformed variant")
refused(["--axis", "solver=lemke::k=2"], ["--axis", "an empty part"], "empty part of a variant")
refused(["--axis", "dt=0.01,"], ["--axis", "an empty value"], "trailing comma")
refused(["--axis", "solver=nsgs,,lemke"], ["--axis", "an empty solver name"], "empty solver name")
refused(["--axis", "dt=0.01,abc"], ["--axis", "dt 'abc'"], "dt not a number")
refused(["--axis", "dt=-0.01"], ["--axis", "dt '-0.01'"], "dt negative")
refused(["--axis", "level=9"], ["--axis", "level '9'", "[0, 8]"], "level out of range")
refused(["--axis", "compliance=exact,nosuch"], ["compliance.type", "nosuch"], "unknown compliance")
refused(["--axis", "integrator=rk4"], ["time.integrator", "rk4"], "unknown integrator")
refused(["--axis", "dt=0.01", "--axis", "dt=0.02"], ["--axis", "given twice"], "axis twice")
refused(["--solvers", "nsgs", "--axis", "solver=lemke"], ["--axis", "given twice"], "--solvers and --axis solver")
refused(["--axis", "dt=0.01,0.02", "--set", "time.dt=0.005"], ["--set", "'time.dt=0.005'", "--axis dt"], "--set of an axis' key")
refused(["--axis", "dt=" + ",".join("0.0%d" % k for k in range(1, 10)), "--axis", "level=0,1,2,3,4,5,6,7"], ["--axis", "more than 64 runs"], "too many cells")
refused([], ["cases/cantilever.json", "contacts"], "solver axis without contacts", cmd=("study", "compare", "cases/cantilever.json", "--axis", "solver=nsgs"))
refused(["-j", "0"], ["-j 0"], "-j 0")
# what only a run finds (an option of the case's "petsc" object is read when the run starts): the
# run's one line is the study's, and nothing is left
refused(["--axis", "dt=0.01,0.02", "--set", "petsc.fc_contact_solver_nsgs_error_every=0", "-j", "2"], ["petsc.fc_contact_solver_nsgs_error_every: -fc_contact_solver_nsgs_error_every: must be >= 1"], "a run refuses its input")
refused(["--levels", "0,1", "--over", "time"], ["--over", "'time'", "mesh", "dt"], "study refine --over time", cmd=("study", "refine", "cases/cantilever.json"))
refused(["--levels", "0,1", "--over", "dt", "--bodies", "beam"], ["--bodies", "not with --over dt"], "study refine --over dt --bodies", cmd=("study", "refine", "cases/cantilever.json"))
# fclib compare shares the parser: an unknown option is refused there too
F = os.path.join("tests", "bad", "fclib", "baseline_local.hdf5")
p = subprocess.run([FCSIM, "fclib", "compare", F, "--solvers", "nsgs,lemke:foo=1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
check(p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1 and "lemke has no option 'foo'" in p.stderr, "fclib compare: an unknown solver option is one line, exit 2 (%s)" % p.stderr.strip())
figure("test_study_compare: %.1f s" % (time.time() - t_start))
