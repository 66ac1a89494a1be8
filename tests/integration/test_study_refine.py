"""fcsim study refine: one run per mesh refinement level, errors against a reference curve,
observed order and Richardson extrapolation (src/study/refine.c, doc/study.md).

The cantilever with tet4 elements (--set bodies[0].mesh.order=1) at levels 0, 1, 2 (570,
3165, 16875 DoFs: a few seconds with -j 2):
 1. without a reference: study.csv rows, DoFs growing with the level, Q = the last probe
    column (strain_energy) at the last row of each run's probes.csv, and the observed order and
    Richardson value of level 2 recomputed here from the three Q values;
 2. with a reference curve built from level 1's own probes.csv (interpolated at points between
    the time steps, scaled by --scale-x/--scale-y): level 1's errors vanish to round-off and
    level 0's equal those computed here with numpy.interp; the reference points outside the
    runs' range and at y_ref = 0 are skipped and counted;
 3. malformed reference files and bad command lines: exit 2, one line naming the file (and the
    line) or the option, no output directory;
 4. SIGINT: the runs are stopped, nothing is left, exit 130."""
import csv
import math
import os
import signal
import subprocess
import time

import numpy as np

from fctest import ROOT, FCSIM, OUT, outdir, run, probes, check, figure, fail

CASE = "cases/cantilever.json"
TET4 = ["--set", "bodies[0].mesh.order=1"]
t_start = time.time()


def study_rows(d):
    with open(os.path.join(d, "study.csv")) as f:
        return list(csv.DictReader(f))


def num(s):
    return float(s)  # "nan" reads as nan


# --- 1. levels 0,1,2 without a reference ------------------------------------------------------
d1 = outdir("study_refine/plain")
t0 = time.time()
p = run(["study", "refine", CASE, "--levels", "2,0,1", "-j", "2", "-q", "-o", d1] + TET4)
wall1 = time.time() - t0
rows = study_rows(d1)
check([int(r["level"]) for r in rows] == [0, 1, 2], "study.csv has one row per level, sorted (%s)" % [r["level"] for r in rows])
check(all(r["status"] == "ok" and r["converged"] == "1" for r in rows), "every level ran and converged")
dofs = [int(num(r["dofs"])) for r in rows]
elems = [int(num(r["elements"])) for r in rows]
figure("levels 0,1,2 tet4: DoFs %s, elements %s, wall %s s, study %.1f s" % (dofs, elems, [round(num(r["wall_time_s"]), 2) for r in rows], wall1))
check(dofs[0] < dofs[1] < dofs[2], "DoFs grow with the level")
walls = [num(r["wall_time_s"]) for r in rows]
check(all(0.1 < w < wall1 for w in walls), "wall times are those of the runs: > 0.1 s (a run's setup) and < the whole study (%s)" % walls)
# Each level halves the element size: about 8x the elements (Gmsh's unstructured meshes of the
# beam, measured 8.0x and 6.9x); at least 4x rules out a level that was not refined.
check(all(elems[k + 1] > 4 * elems[k] for k in range(2)), "elements grow ~8x per level (%s)" % elems)
for k, r in enumerate(rows):
    pr = probes(os.path.join(d1, "level_%d" % k))
    check(num(r["quantity"]) == pr["strain_energy"][-1], "level %d: Q = strain_energy at the last row of its probes.csv" % k)
    check(os.path.isfile(os.path.join(d1, "level_%d.log" % k)), "level %d: log file" % k)
# DoFs against the run's own mesh (run.h5)
import h5py
with h5py.File(os.path.join(d1, "level_1", "run.h5"), "r") as h:
    n1 = h["bodies/beam/mesh/X"].shape[0]
    e1 = h["bodies/beam/mesh/cells"].shape[0]
check(dofs[1] == 3 * n1 and elems[1] == e1, "level 1: DoFs = 3 x nodes of run.h5 (%d), elements (%d)" % (3 * n1, e1))
# observed order and Richardson value (Roache 1997) from the three Q values, r = 2
q = [num(r["quantity"]) for r in rows]
p_py = math.log(abs(q[1] - q[0]) / abs(q[2] - q[1])) / math.log(2)
qinf_py = q[2] + (q[2] - q[1]) / (2 ** p_py - 1)
figure("strain energy Q %s, observed order %.4f, Richardson %.6f J (Timoshenko: 0.2012 J)" % (["%.6f" % v for v in q], p_py, qinf_py))
check(math.isnan(num(rows[0]["order"])) and math.isnan(num(rows[1]["order"])), "no order for the first two levels")
check(abs(num(rows[2]["order"]) - p_py) <= 1e-12 * abs(p_py), "level 2: order %.6f = ln(|Q1-Q0|/|Q2-Q1|)/ln 2" % p_py)
check(abs(num(rows[2]["richardson"]) - qinf_py) <= 1e-12 * abs(qinf_py), "level 2: Richardson %.8f = Q2 + (Q2-Q1)/(2^p-1)" % qinf_py)
# strain energy of a displacement FE model grows monotonically towards the exact 1/2 P delta
# (compliance of a conforming discretisation increases with refinement): p > 0 is expected.
check(p_py > 0 and qinf_py > q[2], "monotone convergence from below: p > 0, Q_inf > Q_2")
md = open(os.path.join(d1, "study.md")).read()
check("| 2 | %d |" % dofs[2] in md and "strain_energy" in md, "study.md holds the table and names the quantity")
check("level" in p.stdout and "Richardson" in p.stdout, "the table is printed on stdout")

# --- 2. a reference curve from level 1's probes ------------------------------------------------
pr1 = probes(os.path.join(d1, "level_1"))
pr0 = probes(os.path.join(d1, "level_0"))
t_ref = np.array([0.0, 0.1, 0.3, 0.55, 0.8, 1.0, 1.2])  # 0: y = 0 (skipped), 1.2: outside
SX, SY = 10.0, -2.0
x_ref = SX * t_ref
y_ref = SY * np.interp(t_ref, pr1["time"], pr1["tip_z"])
ref = os.path.join(OUT, "study_refine", "reference.csv")
with open(ref, "w") as f:
    f.write("# synthetic reference: level 1 (tet4) of the cantilever, tip_z(time), x10 and x-2\n")
    f.write("# second comment line\n")
    f.write("time,tip_z\n")
    for x, y in zip(x_ref, y_ref):
        f.write("%.17g,%.17g\n" % (x, y))
d2 = outdir("study_refine/reference")
p = run(["study", "refine", CASE, "--levels", "0,1", "-q", "--reference", ref, "--scale-x", "10", "--scale-y", "-2", "-o", d2] + TET4)
rows = study_rows(d2)
with open(os.path.join(d2, "errors.csv")) as f:
    err = list(csv.DictReader(f))
inside = [k for k in range(len(t_ref)) if t_ref[k] <= 1.0 and y_ref[k] != 0]
for L, pr in ((0, pr0), (1, pr1)):
    e = [r for r in err if int(r["level"]) == L]
    y_run = SY * np.interp(t_ref[inside], pr["time"], pr["tip_z"])
    rel = (y_run - y_ref[inside]) / np.abs(y_ref[inside])
    got = np.array([num(r["rel_error"]) for r in e])
    check(len(e) == len(inside) and np.allclose([num(r["x_ref"]) for r in e], x_ref[inside], rtol=0, atol=0), "level %d: errors.csv has the %d compared points" % (L, len(inside)))
    r = rows[L]
    check(r["compared"] == str(len(inside)) and r["outside_range"] == "1" and r["zero_reference"] == "1", "level %d: %s compared, %s outside the range, %s at y_ref = 0" % (L, r["compared"], r["outside_range"], r["zero_reference"]))
    if L == 1:
        figure("level 1 against its own curve: max |rel error| %.2e" % np.max(np.abs(got)))
        check(np.max(np.abs(got)) < 1e-12 and num(r["max_rel_error"]) < 1e-12, "level 1: errors ~0 against its own curve (< 1e-12)")
    else:
        emax, erms = np.max(np.abs(rel)), math.sqrt(np.mean(rel ** 2))
        figure("level 0 against level 1: max |rel error| %.6e, RMS %.6e" % (emax, erms))
        # both sides interpolate the same numbers linearly: round-off only
        check(np.max(np.abs(got - rel)) < 1e-12, "level 0: each relative error equals numpy.interp's (max diff %.1e)" % np.max(np.abs(got - rel)))
        check(abs(num(r["max_rel_error"]) - emax) <= 1e-12 and abs(num(r["rms_rel_error"]) - erms) <= 1e-12, "level 0: max and RMS error")
        check(emax > 1e-2, "level 0 differs from level 1 (tet4 at 2 elements across: %.1f%%)" % (100 * emax))
    # Q: scaled Y at the last reference point both runs cover (x = 10)
    q_py = SY * np.interp(1.0, pr["time"], pr["tip_z"])
    check(abs(num(r["quantity"]) - q_py) <= 1e-14 * abs(q_py), "level %d: Q = scaled tip_z at x = 10" % L)
e0, e1 = num(rows[0]["max_rel_error"]), num(rows[1]["max_rel_error"])
if e1 > 0:
    check(abs(num(rows[1]["error_order"]) - math.log(e0 / e1) / math.log(2)) <= 1e-12 * abs(math.log(e0 / e1)), "level 1: error order ln(e0/e1)/ln 2")
else:
    check(math.isnan(num(rows[1]["error_order"])), "level 1: no error order when e1 = 0")
md = open(os.path.join(d2, "study.md")).read()
check("synthetic reference: level 1" in md and "second comment line" in md and "reference.csv" in md, "study.md cites the reference file and its comment lines")

# --- 2b. a vector probe reduced to one component has one column, named as the probe ----------
# (probes[i].component: probes.csv has "tip", not tip_x/y/z; the reference header names it)
ref_c = os.path.join(OUT, "study_refine", "reference_component.csv")
with open(ref_c, "w") as f:
    f.write("time,tip\n")
    for t in (0.5, 1.0):
        f.write("%.17g,%.17g\n" % (t, np.interp(t, pr0["time"], pr0["tip_z"])))
d2b = outdir("study_refine/component")
run(["study", "refine", CASE, "--levels", "0", "-q", "--reference", ref_c, "--set", "probes[0].component=\"z\"", "-o", d2b] + TET4)
rows_c = study_rows(d2b)
check(rows_c[0]["status"] == "ok" and rows_c[0]["compared"] == "2" and num(rows_c[0]["max_rel_error"]) < 1e-12,
      "a probe with a component is the one column 'tip' (level 0 against its own tip_z: max error %s)" % rows_c[0]["max_rel_error"])

# --- 3. input errors: exit 2, one line, nothing written ---------------------------------------
bad_dir = os.path.join(OUT, "study_refine", "bad")


def expect_input_error(args, needle, what):
    p = run(["study", "refine"] + args + ["-o", bad_dir], expect=2)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    left = [x for x in os.listdir(os.path.dirname(bad_dir)) if x.startswith("bad")]
    if len(lines) != 1 or needle not in lines[0] or left:
        print("stderr:", p.stderr)
        fail("%s: expected one line with '%s' and no directory (left: %s)" % (what, needle, left))
    print("ok: %s -> %s" % (what, lines[0]))


def bad_ref(name, text, needle):
    path = os.path.join(OUT, "study_refine", name)
    with open(path, "w") as f:
        f.write(text)
    expect_input_error([CASE, "--levels", "0,1", "--reference", path], "%s: %s" % (path, needle), "reference " + name)


os.makedirs(os.path.dirname(bad_dir), exist_ok=True)
expect_input_error([CASE, "--levels", "0,1", "--reference", os.path.join(OUT, "study_refine", "missing.csv")], "missing.csv: cannot read", "missing reference file")
bad_ref("header.csv", "# c\ntime\n0,1\n1,2\n", "line 2: expected the header X,Y")
bad_ref("probe.csv", "time,tip_w\n0,1\n1,2\n", "line 1: unknown Y column 'tip_w'")
bad_ref("xprobe.csv", "# c\n\nfoo,tip_z\n0,1\n1,2\n", "line 3: unknown X column 'foo'")
bad_ref("value.csv", "time,tip_z\n0,1\n0.5,abc\n1,2\n", "line 3: expected two finite numbers")
bad_ref("columns.csv", "time,tip_z\n0,1,2\n1,2\n", "line 2: expected two finite numbers")
bad_ref("one.csv", "# c\ntime,tip_z\n0,1\n", "line 3: 1 data point: at least 2")
bad_ref("monotone.csv", "time,tip_z\n0,1\n0.5,2\n0.4,3\n", "line 4: X is not strictly monotone")
bad_ref("empty.csv", "", "the file is empty")
expect_input_error([CASE, "--levels", "0,x"], "--levels", "bad --levels 0,x")
expect_input_error([CASE, "--levels", "1,1"], "listed twice", "bad --levels 1,1")
expect_input_error([CASE, "--levels", "9"], "out of range", "bad --levels 9")
expect_input_error([CASE], "needs --levels", "no --levels")
expect_input_error([CASE, "--levels", "0,1", "--frobnicate"], "unknown option '--frobnicate'", "unknown option")
expect_input_error(["cases/nonexistent.json", "--levels", "0,1"], "cases/nonexistent.json", "missing case file")
expect_input_error(["--levels", "0,1"], "missing CASE.json", "no case")
expect_input_error([CASE, "--levels", "0,1", "--solvers", "nsgs"], "belongs to study compare", "--solvers in study refine")
expect_input_error([CASE, "--levels", "0,1", "--bodies", "nobody"], "no body named 'nobody'", "unknown --bodies")
expect_input_error([CASE, "--levels", "0,1", "--quantity", "tip_w"], "not a probe column", "unknown --quantity")
expect_input_error([CASE, "--levels", "0,1", "--scale-y", "2"], "--reference", "--scale-y without a reference")
expect_input_error([CASE, "--levels", "0,1", "--scale-y", "0"], "non-zero", "--scale-y 0")
expect_input_error([CASE, "--levels", "0,1", "-j", "0"], "-j 0", "-j 0")
expect_input_error([CASE, "--levels", "0,1", "--set", "bodies[0].mesh.refine=2"], "study refine sets the refinement", "--set of the refined key")
expect_input_error([CASE, "--levels", "0,1", "--set", "bodies[0].material.E=-1"], "bodies[0].material.E", "bad --set value")

# --- 4. SIGINT stops the runs and leaves nothing ----------------------------------------------
d4 = outdir("study_refine/interrupt")
# output.every: the size estimate refuses 4e5 steps of fields (74 GB) wherever less is free
cmd = [FCSIM, "study", "refine", CASE, "--levels", "0,1", "-j", "2", "-o", d4, "--set", "time.t_end=1e5", "--set", "output.every=1000000"] + TET4
p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
pids = []
while len(pids) < 2:
    line = p.stderr.readline()
    if not line:
        break
    if "started (pid" in line:
        pids.append(int(line.split("(pid ")[1].split(",")[0]))
time.sleep(2.0)  # both runs are in their time loops (level 0 and 1 set up in ~1.5 s)
t_int = time.time()
p.send_signal(signal.SIGINT)
out, errtext = p.communicate(timeout=60)
stop = time.time() - t_int
figure("SIGINT: exit %d after %.2f s, run pids %s" % (p.returncode, stop, pids))
check(p.returncode == 130, "exit status 130 after SIGINT")
alive = []
for pid in pids:
    try:
        os.kill(pid, 0)
        alive.append(pid)
    except ProcessLookupError:
        pass
check(len(pids) == 2 and not alive, "both runs were started and none is left (%s)" % alive)
left = [x for x in os.listdir(os.path.dirname(d4)) if x.startswith("interrupt")]
check(not left, "no study directory and no temporary directory left (%s)" % left)
figure("test_study_refine: %.1f s" % (time.time() - t_start))
