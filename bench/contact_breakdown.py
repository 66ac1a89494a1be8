"""Contact benchmark: the cost split of contact steps (detection, W = sum_b H_b A_b^-1 H_b^T,
contact solve, the rest of the step) on a case with >= 200 contacts, and nsgs iterations and
time on the FCLIB problems the run writes (re-solved with fcsim fclib solve).

Case: cases/hertz.json at mesh level 1 with a 1 mm alarm distance (about 400 contacts in the
problem, 50 of them active at the end)."""
import csv
import glob
import os
import re
import statistics
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FCSIM = os.path.join(ROOT, "bin", "fcsim")
d = os.path.join(ROOT, "bench", "out", "contact_hertz")
subprocess.run([FCSIM, "run", "cases/hertz.json", "-o", d, "-q", "--set", "bodies[0].mesh.refine=1",
                "--set", "contacts[0].alarm=1e-3", "--set", "output.fclib=true", "--set", "output.vtk=false"], cwd=ROOT, check=True)
with open(os.path.join(d, "stats.csv")) as f:
    st = list(csv.DictReader(f))
def mean(k):
    return statistics.mean(float(r[k]) for r in st)
step, det, w, sol, ct = (mean(k) for k in ("step_time", "detect_time", "w_time", "contact_solve_time", "contact_time"))
print("| contacts | active | step [s] | detection [s] | W and q [s] | contact solve [s] | correction etc. [s] | rest of step [s] |")
print("|---|---|---|---|---|---|---|---|")
print("| %.0f | %.0f | %.3f | %.4f | %.3f | %.4f | %.4f | %.3f |" % (mean("contacts"), mean("active"), step, det, w, sol, ct - det - w - sol, step - ct))
rows = []
for fn in sorted(glob.glob(os.path.join(d, "fclib", "step_*.hdf5"))):
    for solver in ("nsgs",):
        c = subprocess.run([FCSIM, "fclib", "solve", fn, "--solver", solver, "--tol", "1e-10"], cwd=ROOT, capture_output=True, text=True)
        m = re.search(r"contacts (\d+) iterations (\d+) error (\S+) time (\S+) s", c.stdout)
        rows.append((os.path.basename(fn), solver, int(m.group(1)), int(m.group(2)), float(m.group(3)), float(m.group(4))))
print()
print("| FCLIB problem | solver | contacts | iterations | common error | time [s] |")
print("|---|---|---|---|---|---|")
for r in rows:
    print("| %s | %s | %d | %d | %.2e | %.2e |" % r)
