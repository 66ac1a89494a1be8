"""Issue 28: the recursive-corrective-motion paper's Table 1, fcsim's side
(../shared/papers/recursive-corrective-motion-fast-update.txt §7; doc/contact.md "Linearization").

A soft block (linear, 2 x 2 x h m, unstructured tet4 meshes of about 18k, 24k, 30k and 36k DoFs,
its bottom face of about 300 to 480 nodes on a rigid plane) under gravity, one backward-Euler step
after a settling step. Per scheme, that step runs 5 linearizations with 30 nsgs sweeps each
(contact_solver.tol 1e-300 so that every solve runs its 30 sweeps):
  recursive (Algorithm 2): 5 Newton iterations (time.newton.max_it 5, rtol 1e-300, allow_failure),
    each a detection, H, W = H A^-1 H^T, solve, correction A^-1 H^T r; W with the compliance
    "exact" as fcsim runs it (A^-1 at the participating DoFs kept from the second correction on,
    since a linear body keeps its factorization) and with -fc_compliance_exact_keep false (3m
    solves with A per W, the paper's "standard" cost);
  fast (Algorithm 3): 1 Newton iteration whose correction builds W_H once and re-linearizes 5
    times (contact_step.max_it 5, tol 0); W_H by compliance exact (3m solves with A) and by schur
    (the Schur complement onto the participating DoFs, han2023 §VI).
Phases from stats.csv: build W_H (wh_time), rebuild W (w_time - wh_time, per linearization), PGS
(contact_solve_time per linearization), correction (the rest of contact_time beside detection;
fast: the predictions W_H C^T r, the re-linearizations and the one body correction). "Newton ite."
is (contact_time - wh_time) / 5, "Total" the whole step (assembly, factorization, free solves,
contact) without output.
The paper's numbers (SOFA, GPU matrix products) are printed beside. Timings only: no assertion.
"""
import csv
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "bench", "out", "linearization")
PAPER = {  # DOFs: (Cst., standard (W_H, W, PGS, Corr, ite, total), fast (...))
    18003: (308, (None, 19.89, 3.76, 0.82, 24.47, 122.39), (19.26, 0.59, 0.08, 4.43, None, 41.45)),
    24066: (366, (None, 32.21, 4.84, 1.19, 38.24, 191.21), (31.27, 0.78, 0.07, 5.69, None, 59.72)),
    30033: (411, (None, 45.47, 5.87, 1.47, 52.81, 264.07), (45.16, 0.98, 0.06, 6.91, None, 79.73)),
    36069: (482, (None, 64.32, 7.91, 1.87, 74.10, 370.52), (63.73, 1.29, 0.07, 9.27, None, 110.10)),
}
# (lc, height): about 18k, 24k, 30k, 36k DoFs with 300-480 nodes on the bottom face
SIZES = [(0.125, 2.85), (0.112, 2.75), (0.104, 2.85), (0.097, 2.9)]
GEO = """// bench/linearization_table.py: a 2 x 2 x %(h)g m block, characteristic length %(lc)g
lc = %(lc)g;
Point(1) = {0, 0, 0, lc}; Point(2) = {2, 0, 0, lc}; Point(3) = {2, 2, 0, lc}; Point(4) = {0, 2, 0, lc};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
out[] = Extrude {0, 0, %(h)g} { Surface{1}; };
Physical Surface("zmin") = {1};
Physical Volume("block") = {out[1]};
"""


def case(geo):
    return {
        "name": "linearization_bench",
        "time": {"integrator": "backward_euler", "dt": 0.01, "steps": 2,
                 "newton": {"max_it": 5, "rtol": 1e-300, "atol": 0, "allow_failure": True}},
        "gravity": [0, 0, -9.81],
        "bodies": [
            {"name": "block", "mesh": {"file": geo, "refine": 0, "order": 1},
             "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000}},
            {"name": "floor", "type": "rigid", "shape": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}},
        ],
        "contacts": [{"pair": ["block", "floor"], "surface": "zmin", "mu": 0.5, "alarm": 0.05}],
        "contact_solver": {"type": "nsgs", "tol": 1e-300, "max_it": 30},
        "output": {"every": 100, "hdf5": False, "vtk": False},
    }


def run(path, name, sets, opts=()):
    d = os.path.join(OUT, name)
    cmd = [os.path.join(ROOT, "bin", "fcsim"), "run", path, "-o", d, "--overwrite", "-q"] + [a for s in sets for a in ("--set", s)] + list(opts)
    subprocess.run(cmd, cwd=ROOT, check=True, stderr=subprocess.DEVNULL)
    with open(os.path.join(d, "stats.csv")) as f:
        st = list(csv.DictReader(f))
    return {k: float(v) for k, v in st[-1].items()}  # the second step (the first settles)


def phases(s, nlin):
    wh = s["wh_time"]
    rebuild = (s["w_time"] - wh) / nlin
    pgs = s["contact_solve_time"] / nlin
    corr = (s["contact_time"] - s["detect_time"] - s["w_time"] - s["contact_solve_time"]) / nlin
    ite = (s["contact_time"] - wh) / nlin
    total = s["step_time"] - s["output_time"]
    return wh, rebuild, pgs, corr, ite, total


def main():
    os.makedirs(OUT, exist_ok=True)
    rows = []
    sizes = SIZES[:int(sys.argv[1])] if len(sys.argv) > 1 else SIZES  # the first N sizes only
    for lc, h in sizes:
        geo = os.path.join(OUT, "block_%g.geo" % lc)
        with open(geo, "w") as f:
            f.write(GEO % {"lc": lc, "h": h})
        path = os.path.join(OUT, "block_%g.json" % lc)
        with open(path, "w") as f:
            json.dump(case(os.path.basename(geo)), f)
        rk = run(path, "rec_keep_%g" % lc, [])
        rs = run(path, "rec_solve_%g" % lc, [], ["-fc_compliance_exact_keep", "false"])
        fast = ['contact_step.linearization="fast"', "contact_step.max_it=5", "contact_step.tol=0", "time.newton.max_it=1"]
        fa = run(path, "fast_%g" % lc, fast)
        fs = run(path, "fast_schur_%g" % lc, fast + ['compliance.type="schur"'])
        info = subprocess.run([os.path.join(ROOT, "bin", "fcsim"), "info", path], cwd=ROOT, capture_output=True, text=True).stdout
        ndof = int(re.search(r"(\d+) DoFs", info).group(1))
        rows.append((ndof, int(fa["contacts"]), phases(rk, 5), phases(rs, 5), phases(fa, 5), phases(fs, 5)))
    print("| DoFs | contacts | scheme | build W_H [ms] | rebuild W [ms] | PGS [ms] | correction [ms] | per linearization [ms] | total [ms] |")
    print("|---|---|---|---|---|---|---|---|---|")
    for ndof, m, pk, ps, pf, pfs in rows:
        for label, p in (("recursive (exact, A⁻¹ kept)", pk), ("recursive (exact, solves)", ps), ("fast (W_H by exact)", pf), ("fast (W_H by schur)", pfs)):
            print("| %d | %d | %s | %s | %s |" % (ndof, m, label, " | ".join("%.2f" % (1e3 * v) for v in p[:4]), " | ".join("%.2f" % (1e3 * v) for v in p[4:])))
    print()
    print("The paper (SOFA, GPU products): | DoFs | Cst. | scheme | build W_H | rebuild W | PGS | Corr. | Newton ite. | Total |")
    for d, (cst, sd, fs) in PAPER.items():
        print("| %d | %d | standard | — | %s |" % (d, cst, " | ".join("%.2f" % v for v in sd[1:])))
        print("| %d | %d | fast | %s | — | %.2f |" % (d, cst, " | ".join("%.2f" % v for v in fs[:4]), fs[5]))
    for ndof, m, pk, ps, pf, pfs in rows:
        print("bench linearization %d DoFs %d contacts: per linearization recursive/fast %.2f (A^-1 kept) %.2f (solves) [paper 6.97]; total %.2f / %.2f [paper 3.20]"
              % (ndof, m, pk[4] / pf[4], ps[4] / pf[4], pk[5] / pf[5], ps[5] / pf[5]))


if __name__ == "__main__":
    sys.exit(main())
