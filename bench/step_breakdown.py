"""Foundation benchmark: a 3D beam, 10 backward-Euler steps with the corotational material
(so every Newton iteration re-assembles and re-factors), tet4 with >= 100k DoFs and tet10 with
>= 50k DoFs. Prints the time per step split into assembly, factorization, solve and output, and
the ratio (whole step) / (factorization + solve): how close a step is to the cost of the
unavoidable sparse direct solve. Goal <= 1.5."""
import csv
import os
import statistics
import subprocess
import sys
import h5py

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
runs = [("tet4", 1, 3), ("tet10", 2, 2)]
extra = sys.argv[1:]
rows = []
for label, order, refine in runs:
    d = os.path.join(ROOT, "bench", "out", label)
    cmd = [os.path.join(ROOT, "bin", "fcsim"), "run", "bench/beam_dynamic.json", "-o", d, "-q",
           "--set", "bodies[0].mesh.order=%d" % order, "--set", "bodies[0].mesh.refine=%d" % refine] + extra
    subprocess.run(cmd, cwd=ROOT, check=True)
    with h5py.File(os.path.join(d, "run.h5"), "r") as f:
        ndof = 3 * f["bodies/beam/mesh/X"].shape[0]
    with open(os.path.join(d, "stats.csv")) as f:
        st = list(csv.DictReader(f))
    def col(k):
        return [float(r[k]) for r in st]
    step, asm, fac, sol, out, it = (col(k) for k in ("step_time", "assembly_time", "factor_time", "solve_time", "output_time", "newton_it"))
    ratio = [s / (a + b) for s, a, b in zip(step, fac, sol)]
    rows.append((label, ndof, statistics.mean(it), statistics.mean(step), statistics.mean(asm), statistics.mean(fac), statistics.mean(sol), statistics.mean(out), statistics.median(ratio)))

print("| mesh | DoFs | Newton it/step | step [s] | assembly [s] | factorization [s] | solve [s] | output [s] | step/(fact+solve) |")
print("|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print("| %s | %d | %.1f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f |" % r)
for r in rows:
    print("bench %s: ratio (whole step)/(factorization + solve) = %.2f (goal <= 1.5)" % (r[0], r[-1]))
