"""Issue 28: the recursive-corrective-motion paper's Table 1, fcsim's side
(../shared/papers/recursive-corrective-motion-fast-update.txt §7; doc/contact.md "Linearization").

A soft block (linear, 2 x 2 x h m, unstructured tet4 meshes of about 18k, 24k, 30k and 36k DoFs,
its bottom face of 340 to 513 nodes on a rigid plane: the paper's 308 to 482 constraints)
under gravity, one backward-Euler step after a settling step (the factorization of the linear
block is made in the first step and reused in the second, for every scheme alike). Per scheme
and compliance strategy, that step runs 5 linearizations with 30 nsgs sweeps each
(contact_solver.tol 1e-300 so that every solve runs its 30 sweeps):
  recursive (Algorithm 2, the paper's "standard"): 5 Newton iterations (time.newton.max_it 5,
    rtol 1e-300, allow_failure), each a detection, H, W = H A^-1 H^T, solve, correction
    A^-1 H^T r;
  fast (Algorithm 3): 1 Newton iteration whose correction builds W_H = G A^-1 G^T once and
    re-linearizes 5 times (contact_step.max_it 5, tol 0), then corrects the body once.
Both with the same compliance strategy, like for like:
  exact: W (recursive, per iteration) and W_H (fast, once) by 3m solves with the block's
    factorization (MUMPS Cholesky, blocks of 128 right-hand sides). exact's kept columns
    (A^-1 at the participating DoFs, exact.c) do not apply at these sizes: ndof x n_p is 18M to
    56M entries, above FC_EXACT_KEEP_MAX (4.2M);
  schur: from the Schur complement onto the participating DoFs (han2023 §VI, doc/schur.md), made
    with the factorization; no solve with A per W.
Phases from stats.csv (wall clock): build W_H (wh_time), rebuild W ((w_time - wh_time) / 5), PGS
(contact_solve_time / 5), correction (the rest of contact_time beside detection, / 5; fast: the
predictions W_H C^T r, the re-linearizations and the one body correction). "Newton ite." is
(contact_time - wh_time) / 5, "total" the whole step (assembly, free solve, contact) without
output. "CPU" is the user + system time of the whole process (both steps, meshing and the first
factorization included): on a shared machine the wall times of a loaded run stretch, the CPU
times much less (doc/contact.md).
The paper's numbers (SOFA, GPU matrix products) are printed beside, and the paper's ratios are
means over its four sizes: per Newton iteration 6.97, in total 3.20.
Timings only: no assertion.

usage: linearization_table.py [--sizes 1,2,3,4] [--md FILE] [--fcsim BIN] [--reuse]
(sizes: 1 = 18k ... 4 = 36k DoFs)
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "bench", "out", "linearization")
FCSIM = os.path.join(ROOT, "bin", "fcsim")
REUSE = False  # --reuse: the runs whose stats.csv exists are read, not run again
# The paper's Table 1 (ms): DoFs: (Cst., standard (W_H, W, PGS, Corr., Newton ite., total),
# fast (...)). Its fast rows give no PGS time (the same solve as standard's): None. Check:
# fast total = W_H + 5 ite. (19.26 + 5 x 4.43 = 41.41), update = (W + Corr.) / ite. (15.1 %).
PAPER = {
    18003: (308, (None, 19.89, 3.76, 0.82, 24.47, 122.39), (19.26, 0.59, None, 0.08, 4.43, 41.45)),
    24066: (366, (None, 32.21, 4.84, 1.19, 38.24, 191.21), (31.27, 0.78, None, 0.07, 5.69, 59.72)),
    30033: (411, (None, 45.47, 5.87, 1.47, 52.81, 264.07), (45.16, 0.98, None, 0.06, 6.91, 79.73)),
    36069: (482, (None, 64.32, 7.91, 1.87, 74.10, 370.52), (63.73, 1.29, None, 0.07, 9.27, 110.10)),
}
# (lc, height): 18129, 24927, 29754, 36441 DoFs with 340, 379, 428, 513 nodes on the bottom face
SIZES = [(0.131, 3.28), (0.120, 3.65), (0.113, 3.80), (0.105, 3.59)]
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
    """The second step's stats and the process's CPU seconds (user + system, os.wait4)."""
    d = os.path.join(OUT, name)
    if REUSE and os.path.exists(os.path.join(d, "stats.csv")):
        return read_stats(d)
    cmd = [FCSIM, "run", path, "-o", d, "--overwrite", "-q"] + [a for s in sets for a in ("--set", s)] + list(opts)
    proc = subprocess.Popen(cmd, cwd=ROOT, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    with open(os.path.join(d, "cpu.txt"), "w") as f:
        f.write("%.3f\n" % (ru.ru_utime + ru.ru_stime))
    return read_stats(d)


def read_stats(d):
    with open(os.path.join(d, "stats.csv")) as f:
        st = list(csv.DictReader(f))
    out = {k: float(v) for k, v in st[-1].items()}  # the second step (the first settles)
    cpu = os.path.join(d, "cpu.txt")
    out["cpu"] = float(open(cpu).read()) if os.path.exists(cpu) else float("nan")
    return out


def phases(s, nlin):
    """build W_H, rebuild W, PGS, correction, Newton ite. (per linearization), total step [s]"""
    wh = s["wh_time"]
    rebuild = (s["w_time"] - wh) / nlin
    pgs = s["contact_solve_time"] / nlin
    corr = (s["contact_time"] - s["detect_time"] - s["w_time"] - s["contact_solve_time"]) / nlin
    ite = (s["contact_time"] - wh) / nlin
    total = s["step_time"] - s["output_time"]
    return wh, rebuild, pgs, corr, ite, total


# (label, scheme, compliance, options): exact's fast W_H by the entries of A^-1 at the contactor
# DoFs (MUMPS ICNTL(30), the default) and, as the paper builds it, by 3m solves like one W
SCHEMES = (("recursive", "recursive", "exact", []), ("fast", "fast", "exact", []),
           ("fast, W_H by solves", "fast", "exact", ["-fc_fast_wh_entries", "false"]),
           ("recursive", "recursive", "schur", []), ("fast", "fast", "schur", []))


def measure(lc, h):
    geo = os.path.join(OUT, "block_%g.geo" % lc)
    with open(geo, "w") as f:
        f.write(GEO % {"lc": lc, "h": h})
    path = os.path.join(OUT, "block_%g.json" % lc)
    with open(path, "w") as f:
        json.dump(case(os.path.basename(geo)), f)
    fast = ['contact_step.linearization="fast"', "contact_step.max_it=5", "contact_step.tol=0", "time.newton.max_it=1"]
    res = {}
    for k, (label, scheme, comp, opts) in enumerate(SCHEMES):  # one after the other, as listed
        sets = (fast if scheme == "fast" else []) + ['compliance.type="%s"' % comp]
        s = run(path, "%d_%s_%s_%g" % (k, scheme, comp, lc), sets, opts)
        res[(label, comp)] = (phases(s, 5), s["cpu"], int(s["contacts"]))
    info = subprocess.run([FCSIM, "info", path], cwd=ROOT, capture_output=True, text=True).stdout
    ndof = int(re.search(r"(\d+) DoFs", info).group(1))
    return ndof, res


def ms(v):
    return "—" if v is None else "%.2f" % v


def table(rows, paper):
    """The Markdown table: fcsim's rows (ms, s for CPU) and the paper's beside, then the ratios."""
    out = ["| DoFs | contacts | scheme | W by | build W_H [ms] | rebuild W [ms] | PGS [ms] | correction [ms] | Newton ite. [ms] | total [ms] | CPU, whole run [s] |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (ndof, res), (pd, (cst, sd, fd)) in zip(rows, paper):
        for label, scheme, comp, _ in SCHEMES:
            p, cpu, m = res[(label, comp)]
            q = [1e3 * v for v in p]
            if scheme == "recursive":
                q[0] = None
            out.append("| %d | %d | %s | %s | %s | %.1f |" % (ndof, m, label, comp, " | ".join(ms(v) for v in q), cpu))
        out.append("| %d (paper) | %d | standard | precond. [13] | %s |  |" % (pd, cst, " | ".join(ms(v) for v in sd)))
        out.append("| %d (paper) | %d | fast | GPU products | %s |  |" % (pd, cst, " | ".join(ms(v) for v in fd)))
    out.append("")
    out.append("| DoFs | exact: per Newton ite. rec./fast | total | total, CPU | total, fast's W_H by solves | schur: per ite. | total | total, CPU | paper per ite. | paper total |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    means = [[] for _ in range(9)]
    for (ndof, res), (pd, (cst, sd, fd)) in zip(rows, paper):
        r = []
        for comp in ("exact", "schur"):
            (pr, cr, _), (pf, cf, _) = res[("recursive", comp)], res[("fast", comp)]
            r += [pr[4] / pf[4], pr[5] / pf[5], cr / cf]
            if comp == "exact":
                r.append(pr[5] / res[("fast, W_H by solves", comp)][0][5])
        r += [sd[4] / fd[4], sd[5] / fd[5]]
        for i, v in enumerate(r):
            means[i].append(v)
        out.append("| %d | %s |" % (ndof, " | ".join("%.2f" % v for v in r)))
    out.append("| mean | %s |" % " | ".join("%.2f" % (sum(v) / len(v)) for v in means))
    return "\n".join(out)


def main():
    global FCSIM, REUSE, OUT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,2,3,4", help="which of the four sizes (1: 18k ... 4: 36k DoFs)")
    ap.add_argument("--md", default=os.path.join(OUT, "table.md"), help="the Markdown table's file")
    ap.add_argument("--fcsim", default=FCSIM, help="the binary (a copy keeps a long run apart from rebuilds)")
    ap.add_argument("--out", default=OUT, help="the runs' folder (default bench/out/linearization)")
    ap.add_argument("--reuse", action="store_true", help="read the runs already in bench/out/linearization (CPU: from cpu.txt, else nan)")
    args = ap.parse_args()
    FCSIM = os.path.abspath(args.fcsim)
    REUSE = args.reuse
    if args.md == os.path.join(OUT, "table.md"):
        args.md = os.path.join(args.out, "table.md")
    OUT = os.path.abspath(args.out)
    os.makedirs(OUT, exist_ok=True)
    idx = [int(i) - 1 for i in args.sizes.split(",")]
    rows, paper = [], list(PAPER.items())
    for i in idx:
        rows.append(measure(*SIZES[i]))
    text = table(rows, [paper[i] for i in idx])
    with open(args.md, "w") as f:
        f.write(text + "\n")
    print(text)
    for ndof, res in rows:
        for label, comp in (("fast", "exact"), ("fast, W_H by solves", "exact"), ("fast", "schur")):
            pr, pf = res[("recursive", comp)][0], res[(label, comp)][0]
            print("bench linearization %d DoFs %d contacts, %s, %s: recursive/fast per Newton iteration %.2f [paper 6.97], total %.2f [paper 3.20]"
                  % (ndof, res[(label, comp)][2], comp, label, pr[4] / pf[4], pr[5] / pf[5]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
