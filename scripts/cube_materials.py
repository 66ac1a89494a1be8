#!/usr/bin/python3
"""courtecuisse2010 Fig. 3: the compression and elongation tests of the four materials on a cube.

A unit cube (meshes/cube.geo) is fixed on its face z = 0 and its face z = 1 is moved along z
(x, y free) to +/- STRAIN of its edge in 10 quasi-static steps (cases/cube_materials.json); the
reaction on the moved face is recorded against its displacement, for the paper's four materials
with its parameters (times 1e6 Pa: fcsim's moduli have the bounds of real solids):
  corotational   E = 1, nu = 0.45
  stvk           mu = 0.344, lambda = 3.10     (E = 1, nu = 0.45: mu = 0.3448, lambda = 3.103)
  neohookean     mu = 0.344, k0 = 3.33         (E = 1, nu = 0.45: kappa = 3.333)
  mooney_rivlin  c1 = c2 = 0.086, k0 = 3.33    (small-strain mu = 2 (c1 + c2) = 0.344)
Writes OUT/cube_materials.csv (every step of every run) and OUT/summary.csv: per material and
test, the initial stiffness k0 (first step's force over its displacement), the secant stiffness
at the last step, and their ratio (1: linear; > 1 stiffening; < 1 softening).

  /usr/bin/python3 scripts/cube_materials.py [--fcsim bin/fcsim] [--refine 1] [--strain 0.3] -o OUT
"""
import argparse
import csv
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASE = os.path.join(ROOT, "cases", "cube_materials.json")
MATERIALS = [
    ("corotational", '{"model": "corotational", "E": 1e6, "nu": 0.45, "density": 1000}'),
    ("stvk", '{"model": "stvk", "E": 1e6, "nu": 0.45, "density": 1000}'),
    ("neohookean", '{"model": "neohookean", "E": 1e6, "nu": 0.45, "density": 1000}'),
    ("mooney_rivlin", '{"model": "mooney_rivlin", "C10": 86000, "C01": 86000, "kappa": 3.33e6, "density": 1000}'),
]


def run(fcsim, out, material, test, strain, refine):
    d = strain if test == "elongation" else -strain
    odir = os.path.join(out, "%s_%s" % (material[0], test))
    argv = [fcsim, "run", CASE, "-q", "-o", odir, "--overwrite",
            "--set", "bodies[0].material=" + material[1],
            "--set", "bodies[0].mesh.refine=%d" % refine,
            "--set", "bodies[0].boundary[1].displacement=[null, null, %r]" % d]
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode:
        sys.exit("cube_materials: %s %s failed (exit %d): %s" % (material[0], test, p.returncode, (p.stderr or p.stdout).strip()))
    with open(os.path.join(odir, "probes.csv")) as f:
        rows = [r for r in csv.DictReader(ln for ln in f if not ln.startswith("#"))]
    return [(material[0], test, int(r["step"]), float(r["top"]), float(r["force"])) for r in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fcsim", default=os.path.join(ROOT, "bin", "fcsim"))
    ap.add_argument("--refine", type=int, default=1)
    ap.add_argument("--strain", type=float, default=0.3)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("-o", dest="out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    jobs = [(m, t) for m in MATERIALS for t in ("elongation", "compression")]
    with ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        results = list(ex.map(lambda mt: run(a.fcsim, a.out, mt[0], mt[1], a.strain, a.refine), jobs))
    with open(os.path.join(a.out, "cube_materials.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["material", "test", "step", "displacement_m", "force_N"])
        for rows in results:
            w.writerows(rows)
    with open(os.path.join(a.out, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["material", "test", "k0_N_per_m", "secant_N_per_m", "ratio", "force_at_end_N"])
        for rows in results:
            first = [r for r in rows if r[2] == 1][0]
            last = max(rows, key=lambda r: r[2])
            k0, ks = first[4] / first[3], last[4] / last[3]
            w.writerow([rows[0][0], rows[0][1], "%.6g" % k0, "%.6g" % ks, "%.4f" % (ks / k0), "%.6g" % last[4]])
    print("cube_materials: %d runs, %s" % (len(jobs), os.path.join(a.out, "summary.csv")))


if __name__ == "__main__":
    main()
